"""The shared store: a PostgreSQL server through psycopg 3 (``pip install rerank-plus[store]``).

Several processes and machines write one store: adds to one namespace queue on its row lock
(``SELECT ... FOR UPDATE``), adds to different namespaces do not wait for each other, readers
never wait. A lock held longer than ``timeout`` seconds ends the waiting statement with a
StoreError. Errors name the URL without its password.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from rerank_plus.errors import MissingExtraError
from rerank_plus.memory.store.database import Database
from rerank_plus.memory.store.errors import StoreError
from rerank_plus.memory.store.schema import POSTGRESQL

#: Seconds to connect, and to wait for a lock, before a StoreError (``timeout=``).
DEFAULT_TIMEOUT = 30.0


def redacted(url: str) -> str:
    """``url`` with its password replaced by ``***`` (what error messages show)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port else ""
    netloc = f"{parts.username or ''}:***@{host}{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _first_line(error: BaseException, password: str | None) -> str:
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    text = " ".join(lines[:2]) or type(error).__name__
    return text.replace(password, "***") if password else text


def postgres_database(url: str, timeout: float = DEFAULT_TIMEOUT) -> Database:
    """The store on the PostgreSQL server and database of ``url`` (tables created if absent)."""
    try:
        import psycopg
    except ImportError as error:
        raise MissingExtraError("psycopg", "store", "A PostgreSQL memory store") from error
    where = f"the PostgreSQL store {redacted(url)}"
    password = urlsplit(url).password

    def translate(error: BaseException) -> StoreError | None:
        if not isinstance(error, psycopg.Error):
            return None
        detail = _first_line(error, password)
        if isinstance(error, psycopg.errors.LockNotAvailable):
            return StoreError(
                f"{where}: a lock stayed held for more than {timeout:g} s ({detail}); retry, or "
                "pass a longer timeout= to open_store."
            )
        if isinstance(error, psycopg.errors.DiskFull):
            return StoreError(f"{where}: the server's disk is full ({detail}); free space, retry.")
        if isinstance(
            error, (psycopg.errors.ReadOnlySqlTransaction, psycopg.errors.InsufficientPrivilege)
        ):
            return StoreError(
                f"{where}: cannot write ({detail}); connect as a user who may write the database."
            )
        if isinstance(error, psycopg.OperationalError):
            return StoreError(
                f"cannot use {where} ({detail}); check that the server runs and the host, port, "
                "user, password and database in the URL are right."
            )
        return StoreError(f"{where}: PostgreSQL error ({detail}).")

    def connect() -> Any:
        connection = psycopg.connect(url, autocommit=True, connect_timeout=max(1, int(timeout)))
        connection.execute(f"SET lock_timeout = {int(timeout * 1000)}")
        return connection

    def broken(connection: Any) -> bool:
        return bool(connection.closed or connection.broken)

    return Database(POSTGRESQL, connect, translate, broken)
