"""The store's tables, shared by SQLite and PostgreSQL, and the format version a store records.

``namespaces``: one row per namespace that holds messages. ``messages`` is how many were
added (the next one gets that sequence number), ``covered`` how many the stored summaries
cover, ``generation`` goes up each time the summaries are replaced (what a cached retriever
or writer compares), ``dimension`` is the length of the namespace's embeddings (NULL: none),
``removed`` how many messages were deleted one by one (the later ones moved up a place, so a
reader holding the old ones reads them all again; generated ids count them: ``m<seq + removed>``).
``lease_owner``/``lease_until`` say which process is summarizing it (see
:mod:`~rerank_plus.memory.store.summarizing`), ``failure`` the summarizer's last error.
The id is never reused (``AUTOINCREMENT``, an identity column), so a namespace deleted and
added again is never mistaken for the one a process cached.

``messages``: one row per message, ``seq`` its index in the namespace (0, 1, ...); ``item`` the
message as JSON (the memory file's item shape, without the embedding), ``embedding`` its vector
(see :mod:`~rerank_plus.memory.store.records`).

``snapshots``: per namespace, the summaries (levels 1 and up) over its first ``covered``
messages, and the analysed index of the memory they make (what a new process reads instead of
analysing every item again).

``store_info``: ``format``, the version of this layout. A store written by a newer version is
refused with the fix (upgrade rerank-plus); an older one is migrated on open, step by step
(:data:`MIGRATIONS`).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The version of the layout above, recorded in ``store_info``.
FORMAT_VERSION = 2

#: The statements that bring a store of format ``n`` to ``n + 1`` (the same in both dialects).
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: ("ALTER TABLE namespaces ADD COLUMN removed BIGINT NOT NULL DEFAULT 0",),
}


@dataclass(frozen=True)
class Dialect:
    """What differs between the databases: placeholders, types, how a transaction starts."""

    name: str
    placeholder: str
    identity: str
    blob: str
    #: starts a transaction that writes: SQLite takes the write lock at once (BEGIN
    #: IMMEDIATE), so two writers queue instead of failing when the second one writes
    begin_write: str
    #: starts a transaction that only reads one consistent state of the store
    begin_read: str
    #: locks the namespace row read in a write transaction (SQLite's lock is the whole file)
    lock_row: str
    #: the names of the store's tables that exist (of the schema in use)
    existing_tables: str

    def sql(self, statement: str) -> str:
        """``statement`` written with ``?`` placeholders, in this dialect."""
        return statement if self.placeholder == "?" else statement.replace("?", self.placeholder)

    def tables(self) -> list[str]:
        """The statements that make the tables where they are absent."""
        return [
            "CREATE TABLE IF NOT EXISTS store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            f"""CREATE TABLE IF NOT EXISTS namespaces (
                id {self.identity},
                name TEXT NOT NULL UNIQUE,
                messages BIGINT NOT NULL DEFAULT 0,
                covered BIGINT NOT NULL DEFAULT 0,
                generation BIGINT NOT NULL DEFAULT 0,
                dimension INTEGER,
                removed BIGINT NOT NULL DEFAULT 0,
                lease_owner TEXT,
                lease_until DOUBLE PRECISION,
                failure TEXT
            )""",
            f"""CREATE TABLE IF NOT EXISTS messages (
                namespace BIGINT NOT NULL,
                seq BIGINT NOT NULL,
                id TEXT NOT NULL,
                item TEXT NOT NULL,
                embedding {self.blob},
                PRIMARY KEY (namespace, seq),
                UNIQUE (namespace, id)
            )""",
            f"""CREATE TABLE IF NOT EXISTS snapshots (
                namespace BIGINT PRIMARY KEY,
                covered BIGINT NOT NULL,
                generation BIGINT NOT NULL,
                summaries {self.blob} NOT NULL,
                analysis {self.blob}
            )""",
        ]


SQLITE = Dialect(
    name="sqlite",
    placeholder="?",
    identity="INTEGER PRIMARY KEY AUTOINCREMENT",
    blob="BLOB",
    begin_write="BEGIN IMMEDIATE",
    begin_read="BEGIN",
    lock_row="",
    existing_tables="SELECT name FROM sqlite_master WHERE type = 'table'",
)

POSTGRESQL = Dialect(
    name="postgresql",
    placeholder="%s",
    identity="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    blob="BYTEA",
    begin_write="BEGIN",
    begin_read="BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
    lock_row=" FOR UPDATE",
    existing_tables=(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    ),
)

#: The tables of a complete store.
TABLES = frozenset({"store_info", "namespaces", "messages", "snapshots"})
