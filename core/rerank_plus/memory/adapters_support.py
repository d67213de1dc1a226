"""What the LlamaIndex, LangChain and Semantic Kernel memory adapters share, framework-free.

Each adapter takes a :class:`~rerank_plus.memory.Memory` (and builds the retriever) or a ready
``MemoryRetriever``, and hands every context item back as the framework's node or document with
the same flat metadata, so a user reads level, time and block the same way in every framework.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.retriever import MemoryRetriever


def memory_retriever(memory: Any, options: Mapping[str, Any]) -> Any:
    """``memory`` itself when it is a retriever (anything with ``retrieve`` and ``aretrieve``),
    else ``MemoryRetriever(memory, **options)``."""
    if isinstance(memory, Memory):
        return MemoryRetriever(memory, **options)
    if callable(getattr(memory, "retrieve", None)) and callable(getattr(memory, "aretrieve", None)):
        if options:
            raise TypeError(
                f"{', '.join(sorted(options))} configure the MemoryRetriever built from a Memory; "
                "this one is already built: pass them to MemoryRetriever(...) instead."
            )
        return memory
    raise TypeError(
        f"memory must be a rerank_plus Memory or a MemoryRetriever, got {type(memory).__name__}; "
        "build one with build_memory(messages) or load_memory(path)."
    )


def _copied(value: Any) -> Any:
    """A deep copy the caller may change; read-only mappings (a loaded memory's) become dicts."""
    if isinstance(value, Mapping):
        return {key: _copied(entry) for key, entry in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_copied(entry) for entry in value)
    return copy.deepcopy(value)


def context_metadata(entry: Any) -> dict[str, Any]:
    """A context item as flat metadata: the item's own (what a loader kept under
    ``extras["metadata"]``, copied), then the context's (``ContextItem.metadata()``: memory_id,
    level, index, time, speaker, source, block, score), then ``label`` and ``end_time``; times
    as ISO 8601 text, so any vector store can hold them."""
    item = entry.item
    metadata = _copied(item.extras.get("metadata", {}))
    metadata.update(entry.metadata())
    metadata.update(
        label=item.label(),
        end_time=None if item.end_time is None else item.end_time.isoformat(),
    )
    return metadata
