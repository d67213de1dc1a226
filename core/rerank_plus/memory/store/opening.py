"""``open_store(url)``: which database a URL names, and a store's tables made or checked.

The schemes are a registry (``sqlite``, ``postgresql`` and its alias ``postgres``, ``memory``);
an unknown one is refused with the list.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote, urlsplit

from rerank_plus.memory.store.database import Database, Transaction
from rerank_plus.memory.store.errors import StoreError
from rerank_plus.memory.store.postgres import postgres_database, redacted
from rerank_plus.memory.store.schema import FORMAT_VERSION, MIGRATIONS, TABLES
from rerank_plus.memory.store.sqlite import private_database, sqlite_database

#: PostgreSQL's transaction-scoped advisory lock taken while the tables are made (two
#: processes opening a new store at once would otherwise race on CREATE TABLE).
_SCHEMA_LOCK = 4_607_101_046


def _sqlite(url: str, timeout: float) -> Database:
    parts = urlsplit(url)
    if parts.netloc and parts.netloc != "localhost":
        raise StoreError(
            f"{url}: a SQLite URL names a local file, sqlite:///relative/path.db or "
            "sqlite:////absolute/path.db (three or four slashes)."
        )
    return sqlite_database(
        unquote(parts.path[1:] if parts.path.startswith("/") else parts.path), timeout
    )


def _memory(url: str, timeout: float) -> Database:
    return private_database(timeout)


def _postgres(url: str, timeout: float) -> Database:
    return postgres_database(url, timeout)


#: URL scheme -> the database it opens (with the lock and connection timeout in seconds).
SCHEMES: dict[str, Callable[[str, float], Database]] = {
    "sqlite": _sqlite,
    "postgresql": _postgres,
    "postgres": _postgres,
    "memory": _memory,
}


def open_database(url: str, timeout: float) -> Database:
    """The database ``url`` names, its tables made (or checked: format version)."""
    if not isinstance(url, str):
        raise StoreError(f"the store URL must be a str, got {type(url).__name__}.")
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    opener = SCHEMES.get(scheme)
    if opener is None:
        raise StoreError(
            f"unknown store URL {redacted(url)!r}; use one of "
            "sqlite:///path/memory.db, postgresql://user:password@host:port/database, memory://."
        )
    database = opener(url, timeout)
    try:
        prepare(database)
    except BaseException:
        database.close()
        raise
    return database


def prepare(database: Database) -> None:
    """Make the tables if absent and record the format, migrate a store of an older format;
    refuse a store of a newer one. A current store is only read (opening it does not wait
    for another writer's lock)."""
    with database.transaction(write=False) as transaction:
        found = _format(transaction)
    if found is None or _older(found):
        with database.transaction(write=True) as transaction:
            if database.dialect.name == "postgresql":
                transaction.execute("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))
            found = _format(transaction)  # another process may have made or migrated it
            if found is None:
                for statement in database.dialect.tables():
                    transaction.execute(statement)
                transaction.execute(
                    "INSERT INTO store_info (key, value) VALUES ('format', ?) "
                    "ON CONFLICT (key) DO NOTHING",
                    (str(FORMAT_VERSION),),
                )
            elif _older(found):
                _migrate(transaction, int(found))
            found = _format(transaction)
    if found != str(FORMAT_VERSION):
        newer = found is not None and found.isdigit() and int(found) > FORMAT_VERSION
        raise StoreError(
            f"this store has format version {found!r} and this rerank-plus reads version "
            f"{FORMAT_VERSION}; "
            + (
                "upgrade rerank-plus (pip install -U rerank-plus) to open it."
                if newer
                else "it is not a rerank-plus memory store: point the URL elsewhere."
            )
        )


def _older(found: str) -> bool:
    """Whether ``found`` is a format this version migrates."""
    return found.isdigit() and int(found) < FORMAT_VERSION and int(found) in MIGRATIONS


def _migrate(transaction: Transaction, version: int) -> None:
    """Bring the store from format ``version`` to the current one, in the open transaction."""
    for step in range(version, FORMAT_VERSION):
        for statement in MIGRATIONS[step]:
            transaction.execute(statement)
    transaction.execute(
        "UPDATE store_info SET value = ? WHERE key = 'format'", (str(FORMAT_VERSION),)
    )


def _format(transaction: Transaction) -> str | None:
    """The store's format version (None: its tables are not all there yet)."""
    tables = {row[0] for row in transaction.all(transaction.dialect.existing_tables)}
    if not tables >= TABLES:
        return None
    row = transaction.one("SELECT value FROM store_info WHERE key = 'format'")
    return None if row is None else str(row[0])
