"""The one way to grow a memory: a :class:`MemoryWriter` the caller holds, which keeps the
models, the settings and the running state that appends continue from.

A :class:`~rerank_plus.memory.Memory` is a plain validated container; the writer is what
changes it. Keep the writer between adds: a writer that did not write the memory's current
version (one loaded from a file, or changed by another writer) first re-reads its messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.ingest.builder import MemoryBuilder
from rerank_plus.memory.ingest.embedding import as_embedder
from rerank_plus.memory.ingest.hierarchy import build_with
from rerank_plus.memory.ingest.incremental import append_message
from rerank_plus.memory.ingest.llm import as_summarizer
from rerank_plus.memory.ingest.settings import BuildSettings
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory


class MemoryWriter:
    """Appends messages to ``memory`` (a new empty one by default) and updates only the
    summaries each touches, with the models and settings of a build
    (``settings``: :class:`~rerank_plus.memory.BuildSettings` fields).

    >>> writer = MemoryWriter.build(["Ana: the launch moves to March."])
    >>> stored = writer.add("Ben: budget approved at 40k.")
    >>> stored.id in writer.memory, len(writer.memory.messages)
    (True, 2)
    """

    def __init__(
        self,
        memory: Memory | None = None,
        embedder: Any = None,
        summarizer: Any = None,
        *,
        analyzer: Analyzer | None = None,
        **settings: Any,
    ) -> None:
        self.memory = Memory() if memory is None else memory
        self.builder = MemoryBuilder(
            BuildSettings(**settings), as_summarizer(summarizer), as_embedder(embedder), analyzer
        )

    @classmethod
    def build(
        cls,
        messages: Sequence[Any],
        embedder: Any = None,
        summarizer: Any = None,
        *,
        analyzer: Analyzer | None = None,
        **settings: Any,
    ) -> MemoryWriter:
        """A writer over the memory :func:`~rerank_plus.memory.build_memory` builds from the
        same arguments, ready to add without re-reading what it built."""
        writer = cls(None, embedder, summarizer, analyzer=analyzer, **settings)
        writer.memory = build_with(writer.builder, messages)
        return writer

    def add(self, message: Any) -> MemoryItem:
        """Append one message (a str, a mapping, or a level-0 :class:`MemoryItem`); returns
        the stored message."""
        return append_message(self.builder, self.memory, message)

    def extend(self, messages: Iterable[Any]) -> list[MemoryItem]:
        """Append messages one by one (each as :meth:`add`); returns the stored messages."""
        return [self.add(message) for message in messages]
