"""``MemoryStore``: memories kept in a database, one per namespace, grown message by message.

>>> from rerank_plus.memory import open_store
>>> with open_store("memory://", background=False) as store:
...     ids = store.add("ana", ["Ana: the launch moves to March.", "Ben: budget approved."])
...     context = store.retrieve("ana", "when is the launch?", max_tokens=200)
>>> ids, "March" in context.text
(['m0', 'm1'], True)
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Hashable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.context.result import MemoryContext
from rerank_plus.memory.ingest.builder import MemoryBuilder
from rerank_plus.memory.ingest.embedding import as_embedder
from rerank_plus.memory.ingest.llm import as_summarizer
from rerank_plus.memory.ingest.settings import BuildSettings
from rerank_plus.memory.ingest.writer import MemoryWriter
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.policy import MemoryProfile, memory_profile
from rerank_plus.memory.retriever import MemoryRetriever
from rerank_plus.memory.store import writing
from rerank_plus.memory.store.background import Background
from rerank_plus.memory.store.database import Database
from rerank_plus.memory.store.errors import StoreError, UnknownNamespaceError
from rerank_plus.memory.store.incoming import check_namespace, embedded, read_messages
from rerank_plus.memory.store.readers import CACHED_ITEMS, CACHED_NAMESPACES, Readers
from rerank_plus.memory.store.rows import (
    NamespaceState,
    behind,
    message,
    messages,
    snapshot,
    state,
)
from rerank_plus.memory.store.summarizing import CatchUp

#: Seconds between two looks at a namespace another process is summarizing, in ``flush``.
_FLUSH_POLL = 0.05


class MemoryStore:
    """Memories in a database (see :func:`open_store`): ``add`` messages to a namespace,
    ``retrieve`` a context from it, as :class:`~rerank_plus.memory.MemoryRetriever` would
    from the same memory. Thread-safe; several processes may share one store."""

    def __init__(
        self,
        database: Database,
        *,
        embedder: Any = None,
        summarizer: Any = None,
        profile: MemoryProfile | Mapping[str, Any] | str | Path | None = None,
        background: bool = True,
        retriever_options: Mapping[str, Any] | None = None,
        cache_namespaces: int = CACHED_NAMESPACES,
        cache_items: int = CACHED_ITEMS,
        **settings: Any,
    ) -> None:
        self.database = database
        self.embedder = as_embedder(embedder)
        self.summarizer = as_summarizer(summarizer)
        self.settings = BuildSettings(**settings)
        self.analyzer = Analyzer(cache_size=max(50_000, 2 * cache_items))
        self._profile = profile if isinstance(profile, MemoryProfile) else memory_profile(profile)
        self._profiles: dict[Hashable, MemoryProfile] = {None: self._profile}
        self._retriever_options = dict(retriever_options or {})
        self._enricher = MemoryBuilder(self.settings, analyzer=self.analyzer)
        self._catch_up = CatchUp(database, self._writer)
        self._readers = Readers(
            database, self._retriever, self.analyzer, cache_namespaces, cache_items
        )
        self._background = Background(self._catch_up.run) if background else None
        self._lock = threading.Lock()
        if self._background is not None:
            with database.transaction(write=False) as transaction:
                for name in behind(transaction):
                    self._background.schedule(name)

    # -- models ------------------------------------------------------------------------------

    def _writer(self, memory: Memory) -> MemoryWriter:
        writer = MemoryWriter(memory, analyzer=self.analyzer)
        writer.builder = MemoryBuilder(self.settings, self.summarizer, self.embedder, self.analyzer)
        return writer

    def _retriever(self, memory: Memory, profile: Hashable) -> MemoryRetriever:
        return MemoryRetriever(
            memory,
            self.embedder,
            profile=self._profiles[profile],
            analyzer=self.analyzer,
            **self._retriever_options,
        )

    def _profile_key(self, profile: Any) -> Hashable:
        """The cache key of a per-call profile (its retrievers are kept apart)."""
        if profile is None:
            return None
        if isinstance(profile, MemoryProfile):
            key: Hashable = ("object", id(profile))
        elif isinstance(profile, Mapping):
            key = ("data", json.dumps(profile, sort_keys=True, default=str))
        else:
            key = ("file", str(profile))
        with self._lock:
            if key not in self._profiles:
                self._profiles[key] = (
                    profile if isinstance(profile, MemoryProfile) else memory_profile(profile)
                )
        return key

    # -- writing -----------------------------------------------------------------------------

    def add(self, namespace: str, messages: Iterable[Any]) -> list[str]:
        """Append ``messages`` (as :func:`~rerank_plus.memory.build_memory` takes them) to the
        namespace; returns their ids. When it returns they are committed (durable) and
        retrievable; summaries follow in the background (or on :meth:`flush`). An add is
        stored whole or not at all (a bad message, a taken id, a failing embedder: nothing)."""
        name = check_namespace(namespace)
        incoming = embedded(read_messages(messages, self._enricher), self.embedder)
        ids = writing.append(self.database, name, incoming)
        if ids and self._background is not None:
            self._background.schedule(name)
        return ids

    def import_memory(self, namespace: str, memory: Memory) -> None:
        """Store an existing memory (e.g. ``load_memory(path)``) as a new namespace: its
        messages, and its summaries as they are; later adds continue from them."""
        writing.import_memory(self.database, check_namespace(namespace), memory)

    def delete(self, namespace: str) -> None:
        """Remove everything of the namespace: messages, summaries, its name."""
        name = check_namespace(namespace)
        writing.delete(self.database, name)
        self._readers.forget(name)

    def delete_message(self, namespace: str, message_id: str) -> bool:
        """Remove one message; False when the namespace holds no message of that id, an
        :class:`UnknownNamespaceError` when it holds no messages. The later messages move up
        a place (their ids stay) and the summaries are built again without it (in the
        background, or on :meth:`flush`); until then the namespace reads as its messages
        alone, so the deleted text is in no context once this returns."""
        name = check_namespace(namespace)
        deleted = writing.delete_message(self.database, name, _message_id(message_id))
        if deleted and self._background is not None:
            self._background.schedule(name)
        return deleted

    def flush(self, namespace: str | None = None, *, timeout: float | None = None) -> None:
        """Summaries cover every message added before the call, for ``namespace`` (None:
        every namespace) when it returns. Waits for another process summarizing it;
        ``timeout`` (seconds) bounds that wait with a StoreError. A failing summarizer
        raises a StoreError (the messages stay stored and retrievable)."""
        if namespace is None:
            with self.database.transaction(write=False) as transaction:
                names = behind(transaction)
        else:
            names = [check_namespace(namespace)]
        deadline = None if timeout is None else time.monotonic() + timeout
        for name in names:
            self._flush_one(name, deadline)

    def _flush_one(self, name: str, deadline: float | None) -> None:
        with self.database.transaction(write=False) as transaction:
            current = state(transaction, name)
        if current is None:
            return
        target = current.messages
        while True:
            after = self._catch_up.run(name)
            if after is None or after.id != current.id or after.covered >= target:
                return
            if deadline is not None and time.monotonic() > deadline:
                raise StoreError(
                    f"the summaries of {name!r} did not catch up in time (another process is "
                    f"summarizing it: {after.lease_owner}); flush again later or wait longer."
                )
            time.sleep(_FLUSH_POLL)

    # -- reading -----------------------------------------------------------------------------

    def messages(self, namespace: str, *, last: int | None = None) -> list[MemoryItem]:
        """The namespace's messages (level 0), in order; only the ``last`` ones when given
        (read by their numbers, not the whole namespace); [] for an unknown namespace."""
        name = check_namespace(namespace)
        if last is not None and (isinstance(last, bool) or not isinstance(last, int) or last < 0):
            raise StoreError(f"last must be a non-negative int or None, got {last!r}.")
        with self.database.transaction(write=False) as transaction:
            current = state(transaction, name)
            if current is None:
                return []
            start = 0 if last is None else max(0, current.messages - last)
            return messages(transaction, current.id, start, current.messages)

    def message(self, namespace: str, message_id: str) -> MemoryItem | None:
        """The namespace's message ``message_id`` (one indexed read); None when the namespace
        holds no message of that id, an :class:`UnknownNamespaceError` when it holds none."""
        name = check_namespace(namespace)
        wanted = _message_id(message_id)
        with self.database.transaction(write=False) as transaction:
            current = state(transaction, name)
            if current is None or current.messages == 0:
                raise UnknownNamespaceError(
                    f"the namespace {name!r} holds no messages; check its name "
                    "(store.namespaces() lists them)."
                )
            return message(transaction, current.id, wanted)

    def memory(self, namespace: str) -> Memory:
        """The namespace's memory, its summaries brought up to date first (a new, validated
        :class:`Memory` the caller may change; an empty one for an unknown namespace)."""
        name = check_namespace(namespace)
        self.flush(name)
        with self.database.transaction(write=False) as transaction:
            current = state(transaction, name)
            if current is None:
                return Memory()
            held = messages(transaction, current.id)
            stored = snapshot(transaction, current.id)
        return Memory([*held, *(stored.summaries if stored is not None else [])])

    def namespaces(self, prefix: str = "") -> list[str]:
        """The namespaces that hold messages and start with ``prefix``, sorted."""
        if not isinstance(prefix, str):
            raise StoreError(f"prefix must be a str, got {type(prefix).__name__}.")
        with self.database.transaction(write=False) as transaction:
            rows = transaction.all(
                "SELECT name FROM namespaces WHERE messages > 0 AND substr(name, 1, ?) = ?",
                (len(prefix), prefix),
            )
        return sorted(row[0] for row in rows)

    def retrieve(
        self,
        namespace: str,
        query: str,
        max_tokens: int = 2000,
        *,
        now: datetime | str | float | None = None,
        intent: str | None = None,
        profile: MemoryProfile | Mapping[str, Any] | str | Path | None = None,
        shape: str | None = None,
    ) -> MemoryContext:
        """The context for ``query`` from the namespace's memory, exactly as
        :meth:`MemoryRetriever.retrieve` gives it for the same memory (the stored summaries
        and every message), ``intent`` and ``shape`` as it takes them; its trace's ``store``
        step says how many messages no summary covers yet, and why when the summarizer
        failed."""
        name = check_namespace(namespace)
        key = self._profile_key(profile)

        def answer(retriever: MemoryRetriever, current: NamespaceState) -> MemoryContext:
            context = retriever.retrieve(query, max_tokens, intent, now, shape=shape)
            context.trace.step(
                "store",
                namespace=name,
                messages=current.messages,
                summarized=current.covered,
                pending=current.pending,
                summary_error=current.failure,
            )
            return context

        found = self._readers.use(name, key, answer)
        if isinstance(found, MemoryContext):
            return found
        return self._retriever(Memory(), key).retrieve(query, max_tokens, intent, now, shape=shape)

    async def aretrieve(
        self,
        namespace: str,
        query: str,
        max_tokens: int = 2000,
        *,
        now: datetime | str | float | None = None,
        intent: str | None = None,
        profile: MemoryProfile | Mapping[str, Any] | str | Path | None = None,
        shape: str | None = None,
    ) -> MemoryContext:
        """:meth:`retrieve` in a worker thread (embedding and reranking block)."""
        return await asyncio.to_thread(
            self.retrieve,
            namespace,
            query,
            max_tokens,
            now=now,
            intent=intent,
            profile=profile,
            shape=shape,
        )

    # -- lifetime ----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the background summarizer (what it summarized is stored; the rest is
        summarized on the next open or flush) and close the connections."""
        if self._background is not None:
            self._background.close()
            self._background = None
        self.database.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MemoryStore({self.database.dialect.name}, embedder={self.embedder!r})"


def _message_id(message_id: Any) -> str:
    if not isinstance(message_id, str) or not message_id:
        raise StoreError(f"a message id is a non-empty str (e.g. 'm0'), got {message_id!r}.")
    return message_id
