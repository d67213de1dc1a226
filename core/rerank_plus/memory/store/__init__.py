"""Durable memories: a database of namespaces, each a memory grown message by message.

``open_store(url)`` gives a :class:`MemoryStore` over SQLite (``sqlite:///path/memory.db``, the
embedded default: one file, nothing to install), PostgreSQL (``postgresql://...``, for several
processes and machines; ``pip install rerank-plus[store]``) or a private temporary SQLite
(``memory://``, for tests and notebooks). One interface, one SQL layout
(:mod:`~rerank_plus.memory.store.schema`), a dialect for what differs.

How a namespace is kept:

- **Messages** are rows, appended by ``add`` in one transaction (numbered in order, with the
  embedding computed before the transaction starts), committed before ``add`` returns: durable
  and retrievable from then on.
- **Summaries** are a snapshot: the levels above the messages over the first ``covered``
  messages, built by the incremental builder (``MemoryWriter``) in a background thread or on
  ``flush``, under a lease so that no lock is held while a model runs, and stored with a
  compare-and-set (:mod:`~rerank_plus.memory.store.summarizing`).
- **Deleting one message** (``delete_message``) moves the later ones up a place and drops the
  snapshot, so the summaries are built again without it and no context shows its text
  (:mod:`~rerank_plus.memory.store.writing`).
- **Retrieval** reads the snapshot plus every message (those no summary covers yet too), with
  a retriever kept per hot namespace and brought up to date by one indexed SELECT per call
  (:mod:`~rerank_plus.memory.store.readers`).

A crash between ``add`` and summarizing loses nothing: the messages are stored, and the next
open (background) or flush summarizes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rerank_plus.memory.policy import MemoryProfile
from rerank_plus.memory.store.errors import (
    DuplicateMessageIdError,
    StoreError,
    UnknownNamespaceError,
)
from rerank_plus.memory.store.opening import SCHEMES, open_database
from rerank_plus.memory.store.readers import CACHED_ITEMS, CACHED_NAMESPACES
from rerank_plus.memory.store.sqlite import DEFAULT_TIMEOUT
from rerank_plus.memory.store.store import MemoryStore

__all__ = [
    "SCHEMES",
    "DuplicateMessageIdError",
    "MemoryStore",
    "StoreError",
    "UnknownNamespaceError",
    "open_store",
]


def open_store(
    url: str,
    *,
    embedder: Any = None,
    summarizer: Any = None,
    profile: MemoryProfile | Mapping[str, Any] | str | Path | None = None,
    background: bool = True,
    timeout: float = DEFAULT_TIMEOUT,
    retriever_options: Mapping[str, Any] | None = None,
    cache_namespaces: int = CACHED_NAMESPACES,
    cache_items: int = CACHED_ITEMS,
    **settings: Any,
) -> MemoryStore:
    """The memory store at ``url`` (made if absent).

    Args:
        url: ``sqlite:///path/memory.db`` (relative; ``sqlite:////abs/memory.db`` absolute),
            ``postgresql://user:password@host:port/database``, or ``memory://``.
        embedder: as :class:`~rerank_plus.memory.MemoryWriter` and
            :class:`~rerank_plus.memory.MemoryRetriever` take it (a model, a name, a path, a
            callable); messages are embedded in ``add``. Use the same one for a namespace.
        summarizer: as ``MemoryWriter`` takes it (None: extractive summaries).
        profile: the memory profile ``retrieve`` uses unless given one.
        background: summaries built by a background thread after each add (False: on
            :meth:`MemoryStore.flush` and :meth:`MemoryStore.memory` only).
        timeout: seconds to wait for another writer's lock (and to connect) before a
            StoreError.
        retriever_options: more ``MemoryRetriever`` arguments (``reranker``,
            ``final_reranker``, ``token_counter``, ``final_candidates``).
        cache_namespaces, cache_items: how many namespaces' retrievers, and items in all,
            the process keeps (see :mod:`~rerank_plus.memory.store.readers`).
        settings: :class:`~rerank_plus.memory.BuildSettings` fields for the summaries.
    """
    database = open_database(url, timeout)
    try:
        return MemoryStore(
            database,
            embedder=embedder,
            summarizer=summarizer,
            profile=profile,
            background=background,
            retriever_options=retriever_options,
            cache_namespaces=cache_namespaces,
            cache_items=cache_items,
            **settings,
        )
    except BaseException:
        database.close()
        raise
