"""The transactions that change what a namespace holds: append messages, import a memory,
delete one message, delete everything of it. Each is one short transaction with the
namespace's row locked (on SQLite: the file's write lock), so concurrent adds to one namespace
get consecutive, distinct sequence numbers and an add is stored whole or not at all."""

from __future__ import annotations

from collections.abc import Sequence

from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.store.database import Database, Transaction
from rerank_plus.memory.store.errors import (
    DuplicateMessageIdError,
    StoreError,
    UnknownNamespaceError,
)
from rerank_plus.memory.store.incoming import Incoming, dimension_of
from rerank_plus.memory.store.records import message_row, summaries_blob
from rerank_plus.memory.store.rows import NamespaceState, state

#: Ids checked per statement (SQLite allows 32,766 parameters, PostgreSQL 65,535).
_IDS_PER_QUERY = 500

_INSERT = "INSERT INTO messages (namespace, seq, id, item, embedding) VALUES (?, ?, ?, ?, ?)"


def _locked(transaction: Transaction, name: str) -> NamespaceState:
    transaction.execute(
        "INSERT INTO namespaces (name) VALUES (?) ON CONFLICT (name) DO NOTHING", (name,)
    )
    found = state(transaction, name, lock=True)
    assert found is not None  # inserted above, and locked
    return found


def _check_dimension(current: NamespaceState, dimension: int | None) -> None:
    stored = current.dimension
    if stored is not None and dimension is None:
        raise StoreError(
            f"the namespace {current.name!r} holds embeddings of length {stored}; open the store "
            "with the embedder that made them (open_store(url, embedder=...))."
        )
    if stored is not None and dimension != stored:
        raise StoreError(
            f"the namespace {current.name!r} holds embeddings of length {stored}, the new "
            f"messages' have length {dimension}; use one embedding model per namespace."
        )


def _check_new_ids(transaction: Transaction, current: NamespaceState, ids: Sequence[str]) -> None:
    for start in range(0, len(ids), _IDS_PER_QUERY):
        chunk = ids[start : start + _IDS_PER_QUERY]
        marks = ", ".join("?" * len(chunk))
        taken = transaction.one(
            f"SELECT id FROM messages WHERE namespace = ? AND id IN ({marks})",
            (current.id, *chunk),
        )
        if taken is not None:
            raise DuplicateMessageIdError(
                f"the message id {taken[0]!r} is already in the namespace {current.name!r}; "
                "give the message its own id (or none: one is generated). Nothing was added."
            )


def append(database: Database, name: str, incoming: Incoming) -> list[str]:
    """Store ``incoming`` as the namespace's next messages; returns their ids."""
    if not incoming.items:
        return []
    dimension = dimension_of(incoming.items)
    with database.transaction(write=True) as transaction:
        current = _locked(transaction, name)
        _check_dimension(current, dimension)
        items = incoming.placed(current.messages, current.removed)
        _check_new_ids(transaction, current, [item.id for item in items])
        transaction.execute_many(
            _INSERT, [(current.id, item.index, *message_row(item)) for item in items]
        )
        transaction.execute(
            "UPDATE namespaces SET messages = ?, dimension = ? WHERE id = ?",
            (current.messages + len(items), current.dimension or dimension, current.id),
        )
    return [item.id for item in items]


def import_memory(database: Database, name: str, memory: Memory) -> None:
    """Store ``memory`` as the namespace's messages and summaries (it must hold nothing)."""
    if not isinstance(memory, Memory):
        raise StoreError(
            f"import_memory takes a rerank_plus.memory.Memory, got {type(memory).__name__}; "
            "read a file with load_memory(path) first."
        )
    dimension = dimension_of(memory.items)
    messages = memory.messages
    summaries = [memory.level(level) for level in range(1, memory.depth)]
    covered = len(messages) if summaries else 0
    blob = summaries_blob(summaries) if summaries else None
    with database.transaction(write=True) as transaction:
        current = _locked(transaction, name)
        if current.messages:
            raise StoreError(
                f"the namespace {name!r} already holds {current.messages} messages; import into "
                "a new namespace, or delete this one first."
            )
        transaction.execute_many(
            _INSERT, [(current.id, item.index, *message_row(item)) for item in messages]
        )
        generation = current.generation + 1
        if blob is not None:
            transaction.execute(
                "INSERT INTO snapshots (namespace, covered, generation, summaries) "
                "VALUES (?, ?, ?, ?)",
                (current.id, covered, generation, blob),
            )
        transaction.execute(
            "UPDATE namespaces SET messages = ?, covered = ?, generation = ?, dimension = ? "
            "WHERE id = ?",
            (len(messages), covered, generation, dimension, current.id),
        )


def delete(database: Database, name: str) -> None:
    """Remove the namespace's messages, summaries and row (nothing happens if it is absent)."""
    with database.transaction(write=True) as transaction:
        current = state(transaction, name, lock=True)
        if current is None:
            return
        transaction.execute("DELETE FROM messages WHERE namespace = ?", (current.id,))
        transaction.execute("DELETE FROM snapshots WHERE namespace = ?", (current.id,))
        transaction.execute("DELETE FROM namespaces WHERE id = ?", (current.id,))


def delete_message(database: Database, name: str, message_id: str) -> bool:
    """Remove one message (False: the namespace holds no message of that id); the later
    messages move up a place, and the summaries are dropped, to be built again without it
    (until then the namespace reads as its messages alone, so the deleted text is in no
    context from the moment this returns). A summarizer at work on the old messages fails
    its compare-and-set and stores nothing."""
    with database.transaction(write=True) as transaction:
        current = state(transaction, name, lock=True)
        if current is None or current.messages == 0:
            raise UnknownNamespaceError(
                f"the namespace {name!r} holds no messages; check its name (store.namespaces() "
                "lists them)."
            )
        row = transaction.one(
            "SELECT seq FROM messages WHERE namespace = ? AND id = ?", (current.id, message_id)
        )
        if row is None:
            return False
        seq = int(row[0])
        transaction.execute(
            "DELETE FROM messages WHERE namespace = ? AND seq = ?", (current.id, seq)
        )
        # two steps, through negative numbers: (namespace, seq) stays unique after each row
        transaction.execute(
            "UPDATE messages SET seq = -seq WHERE namespace = ? AND seq > ?", (current.id, seq)
        )
        transaction.execute(
            "UPDATE messages SET seq = -seq - 1 WHERE namespace = ? AND seq < 0", (current.id,)
        )
        transaction.execute("DELETE FROM snapshots WHERE namespace = ?", (current.id,))
        transaction.execute(
            "UPDATE namespaces SET messages = messages - 1, removed = removed + 1, covered = 0, "
            "generation = generation + 1, lease_owner = NULL, lease_until = NULL, failure = NULL "
            "WHERE id = ?",
            (current.id,),
        )
    return True
