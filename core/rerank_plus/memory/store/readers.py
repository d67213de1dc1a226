"""A retriever per hot namespace, kept in the process and brought up to date on each call.

Each call reads the namespace's row (one SELECT by its unique name: the id, the message count
and the snapshot's generation) and compares it with what the kept retriever read: equal, the
retriever answers as it is; more messages, only those are read and appended; a new snapshot,
its summaries replace the old ones (a summary equal to the one held keeps its object, so the
index re-reads only what changed; see :mod:`~rerank_plus.memory.index.updater`). Messages are
never changed once stored, so the ones held are kept; a message deleted moves the later ones up
a place and changes the namespace's ``removed`` count: its reader is made again. The memory a
retriever reads is the stored summaries plus every message, the ones no summary covers yet
included: a message is retrievable as soon as its ``add`` returned.

The first reader of a snapshot stores the analysed index with it, and later readers in other
processes start from it (:mod:`~rerank_plus.memory.store.analyses`).

The cache is an LRU bounded by ``namespaces`` retrievers and ``items`` items in all (a
retriever's index holds about 2 KB per item without embeddings, plus 4 bytes per dimension of
each embedding: 64 namespaces of 2,000 messages with MiniLM vectors are about 0.5 GB).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.retriever import MemoryRetriever
from rerank_plus.memory.store.analyses import analyses_blob, remember_analyses
from rerank_plus.memory.store.database import Database
from rerank_plus.memory.store.rows import NamespaceState, messages, snapshot, state

#: Retrievers kept (the namespaces queried most recently).
CACHED_NAMESPACES = 64
#: Items (messages and summaries) kept in all the cached retrievers' memories.
CACHED_ITEMS = 500_000


@dataclass
class _Reader:
    """One namespace's retriever, and what of the store its memory holds."""

    retriever: MemoryRetriever
    state: NamespaceState
    messages: list[MemoryItem]
    summaries: list[MemoryItem]
    #: the stored snapshot has no analysed index yet (this reader stores its own)
    unanalysed: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


class Readers:
    """The cache of retrievers of one store; ``make_retriever`` makes one over a memory with
    the store's models and the profile of the key it is kept under."""

    def __init__(
        self,
        database: Database,
        make_retriever: Callable[[Memory, Hashable], MemoryRetriever],
        analyzer: Analyzer,
        namespaces: int = CACHED_NAMESPACES,
        items: int = CACHED_ITEMS,
    ) -> None:
        self.database = database
        self.analyzer = analyzer
        self.make_retriever = make_retriever
        self.namespaces = namespaces
        self.items = items
        self._readers: OrderedDict[tuple[str, Hashable], _Reader] = OrderedDict()
        self._lock = threading.Lock()

    def use(
        self,
        name: str,
        profile: Hashable,
        answer: Callable[[MemoryRetriever, NamespaceState], object],
    ) -> object:
        """``answer(retriever, state)`` with the namespace's retriever up to date (held for
        the call, so another thread does not change its memory meanwhile); None when the
        namespace holds nothing."""
        key = (name, profile)
        with self._lock:
            reader = self._readers.get(key)
        while True:
            if reader is None:
                reader = self._load(name, profile)
                if reader is None:
                    return None
            with reader.lock:
                if self._refresh(reader):
                    self._keep(key, reader)
                    found = answer(reader.retriever, reader.state)
                    if reader.unanalysed:
                        self._store_analyses(reader)
                    return found
            self._drop(key)
            reader = None  # the namespace was deleted, or a message of it: read it again

    def _load(self, name: str, profile: Hashable) -> _Reader | None:
        with self.database.transaction(write=False) as transaction:
            current = state(transaction, name)
            if current is None:
                return None
            stored = snapshot(transaction, current.id)
            held = messages(transaction, current.id)
        summaries = stored.summaries if stored is not None else []
        memory = Memory([*held, *summaries])
        if stored is not None and stored.analysis is not None:
            remember_analyses(self.analyzer, memory, stored.analysis)
        retriever = self.make_retriever(memory, profile)
        unanalysed = stored is not None and stored.analysis is None
        return _Reader(retriever, current, held, summaries, unanalysed)

    def _refresh(self, reader: _Reader) -> bool:
        """Bring the reader's memory to the store's state; False if the namespace is gone,
        was deleted and made again, or lost a message (a new reader is needed)."""
        with self.database.transaction(write=False) as transaction:
            current = state(transaction, reader.state.name)
            if current is None or (current.id, current.removed) != (
                reader.state.id,
                reader.state.removed,
            ):
                return False
            if current.version == reader.state.version:
                reader.state = current  # its lease and failure may have changed
                return True
            added = messages(transaction, current.id, len(reader.messages))
            stored = (
                snapshot(transaction, current.id)
                if current.generation != reader.state.generation
                else None
            )
        reader.messages.extend(added)
        if stored is not None:
            before = {item.id: item for item in reader.summaries}
            reader.summaries = [_same(before.get(item.id), item) for item in stored.summaries]
        reader.retriever.memory.replace([*reader.messages, *reader.summaries])
        if stored is not None:
            if stored.analysis is not None:
                remember_analyses(self.analyzer, reader.retriever.memory, stored.analysis)
            reader.unanalysed = stored.analysis is None
        reader.state = current
        return True

    def _store_analyses(self, reader: _Reader) -> None:
        """Store what the reader's index analysed with its snapshot, for the next process
        (unless another process stored it first, or a newer snapshot replaced it)."""
        blob = analyses_blob(reader.retriever.index())
        with self.database.transaction(write=True) as transaction:
            transaction.execute(
                "UPDATE snapshots SET analysis = ? WHERE namespace = ? AND generation = ? "
                "AND analysis IS NULL",
                (blob, reader.state.id, reader.state.generation),
            )
        reader.unanalysed = False

    def _keep(self, key: tuple[str, Hashable], reader: _Reader) -> None:
        with self._lock:
            self._readers[key] = reader
            self._readers.move_to_end(key)
            total = sum(len(kept.retriever.memory) for kept in self._readers.values())
            while len(self._readers) > 1 and (
                len(self._readers) > self.namespaces or total > self.items
            ):
                _, dropped = self._readers.popitem(last=False)
                total -= len(dropped.retriever.memory)

    def _drop(self, key: tuple[str, Hashable]) -> None:
        with self._lock:
            self._readers.pop(key, None)

    def forget(self, name: str) -> None:
        """Drop the namespace's readers (it was deleted by this store)."""
        with self._lock:
            for key in [key for key in self._readers if key[0] == name]:
                del self._readers[key]


def _same(held: MemoryItem | None, stored: MemoryItem) -> MemoryItem:
    """The held item when the stored one is the same (its index reading stays valid)."""
    if held is not None and held == stored and held.embedding == stored.embedding:
        return held
    return stored
