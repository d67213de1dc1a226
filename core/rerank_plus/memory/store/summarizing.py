"""Summaries catching up with the messages: the incremental builder (``MemoryWriter``) run on
the messages no summary covers yet, outside any transaction, under the namespace's lease
(:mod:`~rerank_plus.memory.store.leases`).

One catch-up: take the lease; when more messages wait than the summaries cover (a new
namespace, a bulk load), build the summaries of every message at once, as ``build_memory`` and
``MemoryWriter.build`` do (an add re-summarizes the path from its window to the top, so adding
thousands one by one costs several builds; rebuilding when the backlog is larger than what is
covered keeps the total within about twice a build); else get a writer whose memory is the
stored snapshot (the one this process last wrote, kept in a small LRU, or one rebuilt from the
stored summaries and messages) and add the pending messages to it one by one, as
``MemoryWriter.add`` does for a memory in RAM. Then store the new summaries with a
compare-and-set on the snapshot's generation, in one transaction with the namespace's row (a
reader sees the old snapshot or the new one, never half of one). A long catch-up stores its
progress every ``SNAPSHOT_SECONDS``.

If the summarizer (or anything in the builder) fails, the messages stay stored and
retrievable as they are, the failure is recorded on the namespace (a retrieve's trace shows
it), the lease is dropped, and the next catch-up tries again from the stored snapshot.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rerank_plus.memory.ingest.hierarchy import build_with
from rerank_plus.memory.ingest.writer import MemoryWriter
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.store import leases
from rerank_plus.memory.store.database import Database
from rerank_plus.memory.store.errors import StoreError
from rerank_plus.memory.store.records import summaries_blob
from rerank_plus.memory.store.rows import NamespaceState, messages, snapshot, state

#: Seconds between the snapshots a long catch-up stores (its progress survives a crash).
SNAPSHOT_SECONDS = 10.0


@dataclass
class _Kept:
    """A writer whose memory is the namespace's snapshot ``generation`` (this process wrote
    it, so the writer continues without re-reading the messages)."""

    namespace: int
    generation: int
    writer: MemoryWriter


class CatchUp:
    """Runs catch-ups for one store: ``make_writer`` makes a writer over a memory with the
    store's models and settings; ``writers`` is how many namespaces' writers are kept."""

    def __init__(
        self,
        database: Database,
        make_writer: Callable[[Memory], MemoryWriter],
        writers: int = 16,
    ) -> None:
        self.database = database
        self.make_writer = make_writer
        self.writers = writers
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def run(self, name: str, stop: threading.Event | None = None) -> NamespaceState | None:
        """One catch-up of ``name``; returns its state after it (None: no such namespace).
        A state with pending messages means another process holds the lease, or ``stop``
        was set; a StoreError means the summarizer failed (recorded on the namespace)."""
        owner = leases.new_owner()
        with self.database.transaction(write=True) as transaction:
            current = state(transaction, name, lock=True)
            if current is None or current.pending <= 0:
                return current
            if not leases.free(current, time.time()) and current.lease_owner != owner:
                return current
            leases.take(transaction, current, owner)
        try:
            return self._summarize(current, owner, stop)
        except BaseException as error:
            self._forget(name)
            failure = None if isinstance(error, _LostLease) else f"{type(error).__name__}: {error}"
            with self.database.transaction(write=True) as transaction:
                leases.release(transaction, current.id, owner, failure)
            if isinstance(error, _LostLease):
                return current
            if isinstance(error, Exception):
                raise StoreError(
                    f"the summaries of {name!r} could not be built ({failure}); its messages "
                    "are stored and retrievable, and the summaries are tried again later."
                ) from error
            raise

    def _summarize(
        self, current: NamespaceState, owner: str, stop: threading.Event | None
    ) -> NamespaceState:
        generation = current.generation
        if current.pending > current.covered:
            writer = self._built(current)
            self._store(current, owner, writer, generation, keep_lease=False)
            return self._after(current)
        writer, pending = self._writer_and_pending(current)
        renewed = stored = time.monotonic()
        for item in pending:
            if stop is not None and stop.is_set():
                break
            _seed(writer, [item])
            writer.add(item)
            now = time.monotonic()
            if now - renewed > leases.RENEW_SECONDS:
                with self.database.transaction(write=True) as transaction:
                    if not leases.renew(transaction, current.id, owner):
                        raise _LostLease
                renewed = now
            if now - stored > SNAPSHOT_SECONDS and item is not pending[-1]:
                generation = self._store(current, owner, writer, generation, keep_lease=True)
                stored = time.monotonic()
        self._store(current, owner, writer, generation, keep_lease=False)
        return self._after(current)

    def _after(self, current: NamespaceState) -> NamespaceState:
        with self.database.transaction(write=False) as transaction:
            after = state(transaction, current.name)
        return after if after is not None else current

    def _built(self, current: NamespaceState) -> MemoryWriter:
        """A writer over the summaries of every message built at once."""
        with self.database.transaction(write=False) as transaction:
            held = messages(transaction, current.id, 0, current.messages)
        writer = self.make_writer(Memory())
        _seed(writer, held)
        writer.memory = build_with(writer.builder, held)
        return writer

    def _writer_and_pending(self, current: NamespaceState) -> tuple[MemoryWriter, list[MemoryItem]]:
        """The writer over the stored snapshot, and the messages it does not cover yet."""
        with self._lock:
            kept = self._kept.get(current.name)
        fresh = kept is None or (kept.namespace, kept.generation) != (
            current.id,
            current.generation,
        )
        with self.database.transaction(write=False) as transaction:
            pending = messages(transaction, current.id, current.covered, current.messages)
            if not fresh:
                assert kept is not None
                return kept.writer, pending
            stored = snapshot(transaction, current.id)
            covered = messages(transaction, current.id, 0, current.covered)
        summaries = stored.summaries if stored is not None else []
        writer = self.make_writer(Memory([*covered, *summaries]))
        _seed(writer, covered)
        return writer, pending

    def _store(
        self,
        current: NamespaceState,
        owner: str,
        writer: MemoryWriter,
        generation: int,
        keep_lease: bool,
    ) -> int:
        """Store the writer's summaries if the snapshot is still ``generation``; returns the
        new generation (a _LostLease if another process stored one meanwhile)."""
        memory = writer.memory
        levels = [memory.level(level) for level in range(1, memory.depth)]
        blob = summaries_blob(levels)
        covered = len(memory.messages)
        lease = "lease_owner" if keep_lease else "NULL"
        with self.database.transaction(write=True) as transaction:
            changed = transaction.execute(
                f"UPDATE namespaces SET covered = ?, generation = generation + 1, failure = NULL, "
                f"lease_owner = {lease}, lease_until = "
                f"{'lease_until' if keep_lease else 'NULL'} "
                "WHERE id = ? AND generation = ? AND lease_owner = ?",
                (covered, current.id, generation, owner),
            )
            if changed != 1:
                raise _LostLease
            transaction.execute(
                "INSERT INTO snapshots (namespace, covered, generation, summaries) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (namespace) DO UPDATE SET "
                "covered = excluded.covered, generation = excluded.generation, "
                "summaries = excluded.summaries, analysis = excluded.analysis",
                (current.id, covered, generation + 1, blob),
            )
        with self._lock:
            self._kept[current.name] = _Kept(current.id, generation + 1, writer)
            self._kept.move_to_end(current.name)
            while len(self._kept) > self.writers:
                self._kept.popitem(last=False)
        return generation + 1

    def _forget(self, name: str) -> None:
        with self._lock:
            self._kept.pop(name, None)


class _LostLease(Exception):
    """Another process took the namespace over (our lease expired), or it was deleted."""


def _seed(writer: MemoryWriter, items: list[MemoryItem]) -> None:
    """Give the writer the messages' stored embeddings, so it does not embed them again."""
    builder = writer.builder
    if builder.embedder is None:
        return
    for item in items:
        if item.embedding is not None and item.text not in builder.vectors:
            builder.vectors[item.text] = np.asarray(item.embedding, dtype=np.float32)
