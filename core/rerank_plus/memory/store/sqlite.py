"""The embedded store: one SQLite file (stdlib ``sqlite3``), in WAL mode.

WAL lets readers read while one writer writes; writers queue on the file's write lock for up
to ``timeout`` seconds (SQLite's busy timeout), then get a StoreError saying so. Commits are
synced to disk (``synchronous=FULL``): an ``add`` that returned survives a power cut, not only
a crash of the process. ``memory://`` is the same store in a private temporary folder, deleted
when the store closes: nothing survives it, which is what tests and notebooks want.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

from rerank_plus.memory.store.database import Database
from rerank_plus.memory.store.errors import StoreError
from rerank_plus.memory.store.schema import SQLITE

#: Seconds a writer waits for another's write lock before its StoreError (``timeout=``).
DEFAULT_TIMEOUT = 30.0

#: Words of sqlite3's messages -> what to tell the user ({where} is the file).
_MEANINGS = {
    "database is locked": (
        "{where} stayed locked by another writer for more than {timeout:g} s; retry, pass a "
        "longer timeout= to open_store, or use a PostgreSQL store for many concurrent writers."
    ),
    "readonly database": (
        "{where} is read-only (the file or its folder cannot be written); make both writable "
        "or copy the store somewhere that is."
    ),
    "disk is full": (
        "the disk holding {where} is full: the last change was not stored; free some space "
        "and retry."
    ),
    "unable to open database file": (
        "cannot open {where}; check that its folder exists and can be written (SQLite keeps "
        "its -wal and -shm files beside it)."
    ),
    "file is not a database": (
        "{where} is not a SQLite database; point the URL at a store file or a new path."
    ),
    "disk i/o error": "reading or writing {where} failed (disk I/O error); check the disk.",
}


def _translator(where: str, timeout: float):
    def translate(error: BaseException) -> StoreError | None:
        if not isinstance(error, sqlite3.Error):
            return None
        text = str(error).lower()
        for words, meaning in _MEANINGS.items():
            if words in text:
                return StoreError(meaning.format(where=where, timeout=timeout))
        return StoreError(f"{where}: SQLite error ({error}).")

    return translate


def sqlite_database(
    path: str, timeout: float = DEFAULT_TIMEOUT, on_close: Callable[[], None] | None = None
) -> Database:
    """The store in the SQLite file ``path`` (created with its tables when absent)."""
    file = Path(path).expanduser()
    where = f"the SQLite store {file}"
    if not path:
        raise StoreError(
            "sqlite:// needs a file: write sqlite:///relative.db or sqlite:////abs.db."
        )
    try:
        if file.is_dir():
            example = file / "memory.db"
            raise StoreError(f"{where} is a folder; name a file inside it, e.g. {example}.")
        if not file.parent.is_dir():
            raise StoreError(
                f"cannot open {where}: its folder {file.parent} does not exist; create it."
            )
    except OSError as error:
        raise StoreError(
            f"cannot open {where} ({error.strerror}); check the permissions of it and its folders."
        ) from error
    translate = _translator(where, timeout)

    def connect() -> sqlite3.Connection:
        connection = sqlite3.connect(
            file, timeout=timeout, isolation_level=None, check_same_thread=False
        )
        connection.execute("PRAGMA synchronous=FULL")
        if connection.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            connection.execute("PRAGMA journal_mode=WAL")
        return connection

    return Database(SQLITE, connect, translate, on_close=on_close)


def private_database(timeout: float = DEFAULT_TIMEOUT) -> Database:
    """``memory://``: a SQLite store in a temporary folder of its own, removed on close."""
    folder = tempfile.mkdtemp(prefix="rerank-plus-memory-")
    return sqlite_database(
        os.path.join(folder, "memory.db"),
        timeout,
        on_close=lambda: shutil.rmtree(folder, ignore_errors=True),
    )
