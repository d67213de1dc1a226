"""The statements every part of the store shares: a namespace's state row, its messages, its
snapshot. Each takes an open :class:`~rerank_plus.memory.store.database.Transaction`."""

from __future__ import annotations

from dataclasses import dataclass

from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.store.database import Transaction
from rerank_plus.memory.store.records import message_of, summaries_of


@dataclass(frozen=True)
class NamespaceState:
    """A namespace's row (see :mod:`~rerank_plus.memory.store.schema`)."""

    id: int
    name: str
    messages: int
    covered: int
    generation: int
    dimension: int | None
    removed: int
    lease_owner: str | None
    lease_until: float | None
    failure: str | None

    @property
    def version(self) -> tuple[int, int, int, int]:
        """What a cached reader compares: a new id, message, snapshot or removal changes it."""
        return (self.id, self.messages, self.generation, self.removed)

    @property
    def pending(self) -> int:
        """Messages no summary covers yet."""
        return self.messages - self.covered


_COLUMNS = (
    "id, name, messages, covered, generation, dimension, removed, lease_owner, lease_until, failure"
)


def state(transaction: Transaction, name: str, lock: bool = False) -> NamespaceState | None:
    """The namespace's row (None: it holds nothing); ``lock``: for the rest of a write."""
    lock_row = transaction.dialect.lock_row if lock else ""
    row = transaction.one(f"SELECT {_COLUMNS} FROM namespaces WHERE name = ?{lock_row}", (name,))
    return None if row is None else NamespaceState(*row)


def behind(transaction: Transaction) -> list[str]:
    """Namespaces with messages no summary covers yet."""
    return [
        row[0] for row in transaction.all("SELECT name FROM namespaces WHERE covered < messages")
    ]


def messages(
    transaction: Transaction, namespace: int, start: int = 0, stop: int | None = None
) -> list[MemoryItem]:
    """The namespace's messages ``start`` to ``stop`` (exclusive; None: all), in order."""
    if stop is None:
        rows = transaction.all(
            "SELECT seq, item, embedding FROM messages WHERE namespace = ? AND seq >= ? "
            "ORDER BY seq",
            (namespace, start),
        )
    else:
        rows = transaction.all(
            "SELECT seq, item, embedding FROM messages WHERE namespace = ? AND seq >= ? "
            "AND seq < ? ORDER BY seq",
            (namespace, start, stop),
        )
    return [message_of(seq, text, embedding) for seq, text, embedding in rows]


def message(transaction: Transaction, namespace: int, message_id: str) -> MemoryItem | None:
    """The namespace's message ``message_id`` (None: it holds none of that id)."""
    row = transaction.one(
        "SELECT seq, item, embedding FROM messages WHERE namespace = ? AND id = ?",
        (namespace, message_id),
    )
    return None if row is None else message_of(*row)


@dataclass(frozen=True)
class Snapshot:
    """Stored summaries over the first ``covered`` messages, and what made their index."""

    covered: int
    generation: int
    summaries: list[MemoryItem]
    analysis: bytes | None


def snapshot(transaction: Transaction, namespace: int) -> Snapshot | None:
    row = transaction.one(
        "SELECT covered, generation, summaries, analysis FROM snapshots WHERE namespace = ?",
        (namespace,),
    )
    if row is None:
        return None
    covered, generation, blob, analysis = row
    return Snapshot(
        int(covered),
        int(generation),
        summaries_of(blob),
        None if analysis is None else bytes(analysis),
    )
