"""Connections and transactions, the same for SQLite and PostgreSQL.

Each thread gets its own connection (neither driver shares one safely between threads), opened
in autocommit mode so that every transaction is started here, explicitly, in one of two kinds:
a write (SQLite's ``BEGIN IMMEDIATE`` takes the file's write lock before the first read; on
PostgreSQL the namespace row is locked with ``FOR UPDATE``) or a read of one consistent state
(a WAL read snapshot; ``REPEATABLE READ``). A transaction commits when its block ends and
rolls back on any error, and a driver's error leaves as a one-line
:class:`~rerank_plus.memory.store.errors.StoreError` (the backend says which words mean what).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from rerank_plus.memory.store.errors import StoreError
from rerank_plus.memory.store.schema import Dialect

#: Turns a driver's exception into the StoreError to raise (None: not the driver's).
Translate = Callable[[BaseException], "StoreError | None"]


class Transaction:
    """Statements with ``?`` placeholders inside one transaction."""

    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self.cursor = cursor
        self.dialect = dialect

    def execute(self, statement: str, parameters: Sequence[Any] = ()) -> int:
        """Runs ``statement``; returns the rows it changed."""
        self.cursor.execute(self.dialect.sql(statement), tuple(parameters))
        return int(self.cursor.rowcount)

    def execute_many(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self.cursor.executemany(self.dialect.sql(statement), [tuple(row) for row in rows])

    def one(self, statement: str, parameters: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        self.cursor.execute(self.dialect.sql(statement), tuple(parameters))
        row = self.cursor.fetchone()
        return None if row is None else tuple(row)

    def all(self, statement: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        self.cursor.execute(self.dialect.sql(statement), tuple(parameters))
        return [tuple(row) for row in self.cursor.fetchall()]


class Database:
    """A pool of one connection per thread to one database, and its transactions.

    ``connect`` opens a connection in autocommit mode; ``translate`` turns the driver's errors
    into StoreErrors; ``broken`` says whether a connection can no longer be used (it is then
    dropped, and the thread's next transaction connects again); ``on_close`` runs once all
    connections are closed.
    """

    def __init__(
        self,
        dialect: Dialect,
        connect: Callable[[], Any],
        translate: Translate,
        broken: Callable[[Any], bool] = lambda connection: False,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self.dialect = dialect
        self._connect = connect
        self._translate = translate
        self._broken = broken
        self._on_close = on_close
        self._local = threading.local()
        self._lock = threading.Lock()
        self._open: list[Any] = []
        self.closed = False

    def _connection(self) -> Any:
        if self.closed:
            raise StoreError("the store is closed; open it again with open_store(url).")
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._call(self._connect)
            self._local.connection = connection
            with self._lock:
                self._open.append(connection)
        return connection

    def _call(self, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except StoreError:
            raise
        except Exception as error:
            translated = self._translate(error)
            if translated is None:
                raise
            raise translated from error

    def _drop(self, connection: Any) -> None:
        self._local.connection = None
        with self._lock:
            if connection in self._open:
                self._open.remove(connection)
        with suppress(Exception):  # a broken connection may fail to close; it is gone anyway
            connection.close()

    @contextmanager
    def transaction(self, write: bool) -> Iterator[Transaction]:
        """One transaction (see the module docstring), committed when the block ends."""
        connection = self._connection()
        cursor = self._call(connection.cursor)
        begin = self.dialect.begin_write if write else self.dialect.begin_read
        try:
            cursor.execute(begin)
            yield Transaction(cursor, self.dialect)
            cursor.execute("COMMIT")
        except BaseException as error:
            self._rollback(cursor)
            translated = (
                self._translate(error)
                if isinstance(error, Exception) and not isinstance(error, StoreError)
                else None
            )
            if translated is not None:
                raise translated from error
            raise
        finally:
            with suppress(Exception):  # the connection may already be gone
                cursor.close()
            if self._broken(connection):
                self._drop(connection)

    def _rollback(self, cursor: Any) -> None:
        with suppress(Exception):  # nothing to roll back, or the connection is gone
            cursor.execute("ROLLBACK")

    def close(self) -> None:
        """Close every thread's connection (later transactions raise a StoreError)."""
        self.closed = True
        with self._lock:
            connections, self._open = self._open, []
        for connection in connections:
            with suppress(Exception):  # best effort: a connection of a dead thread
                connection.close()
        if self._on_close is not None:
            self._on_close()
            self._on_close = None
