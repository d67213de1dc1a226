"""What the LlamaIndex, LangChain and Semantic Kernel memory adapters share, framework-free.

Each adapter takes a :class:`~rerank_plus.memory.Memory` (and builds the retriever), a ready
``MemoryRetriever`` or a store namespace (:class:`NamespaceRetriever`), and hands every context
item back as the framework's node or document with the same flat metadata (and, where a
framework shows items one by one, the same header: :func:`headed_text`), so a user reads level,
time and block the same way in every framework; chat messages are stored under one speaker
word per role in every framework (:func:`speaker_of`).
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


def plain_copy(value: Any) -> Any:
    """A deep copy the caller may change; read-only mappings (a loaded or stored memory's)
    become dicts, so the copy serializes (JSON) and compares as the value that was stored."""
    if isinstance(value, Mapping):
        return {key: plain_copy(entry) for key, entry in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain_copy(entry) for entry in value)
    return copy.deepcopy(value)


def context_metadata(entry: Any) -> dict[str, Any]:
    """A context item as flat metadata: the item's own (what a loader kept under
    ``extras["metadata"]``, copied), then the context's (``ContextItem.metadata()``: memory_id,
    level, index, time, speaker, source, block, score), then ``label`` and ``end_time``; times
    as ISO 8601 text, so any vector store can hold them."""
    item = entry.item
    metadata = plain_copy(item.extras.get("metadata", {}))
    metadata.update(entry.metadata())
    metadata.update(
        label=item.label(),
        end_time=None if item.end_time is None else item.end_time.isoformat(),
    )
    return metadata


def headed_text(entry: Any) -> str:
    """A context item's text under its own header, for a framework that shows documents one by
    one (a chain joining ``page_content``): ``[L0 #3 2024-05-06 09:06] Ben: text``, a summary
    with the span it covers, ``[L1 #0 2024-05-06 09:00-09:28] text`` (``... 09:00 to
    2024-05-07 10:15`` across days). The date is always given: a document read alone has no
    neighbour to take it from."""
    item = entry.item
    moment = "" if item.time is None else " " + item.time.strftime("%Y-%m-%d %H:%M")
    end = item.end_time
    if item.time is not None and end is not None and end != item.time:
        same_day = end.date() == item.time.date()
        moment += end.strftime("-%H:%M") if same_day else end.strftime(" to %Y-%m-%d %H:%M")
    speaker = f"{item.speaker}: " if item.speaker and item.level == 0 else ""
    return f"[{item.label()} #{item.index}{moment}] {speaker}{item.text}"


#: A chat role as the memory's speaker, when the message has no name of its own: one word per
#: party, the same in every framework (LangChain says "human" and "ai", LlamaIndex "user" and
#: "assistant").
ROLE_SPEAKERS = {"human": "user", "ai": "assistant"}


def speaker_of(role: str, name: str | None = None) -> str:
    """The speaker a chat message is stored under: its name when it has one, else its role."""
    return name or ROLE_SPEAKERS.get(role, role)


class NamespaceRetriever:
    """One namespace of a :class:`~rerank_plus.memory.MemoryStore` read as a retriever
    (``retrieve`` / ``aretrieve`` of a question), so every adapter that takes a
    ``MemoryRetriever`` takes a store's namespace as well; ``profile`` goes to every call."""

    def __init__(self, store: Any, namespace: str, profile: Any = None) -> None:
        if not callable(getattr(store, "retrieve", None)) or not callable(
            getattr(store, "aretrieve", None)
        ):
            raise TypeError(
                f"store must be a rerank_plus MemoryStore, got {type(store).__name__}; open one "
                'with rerank_plus.memory.open_store("sqlite:///memory.db").'
            )
        if not isinstance(namespace, str) or not namespace:
            raise ValueError(f"namespace must be a non-empty str, got {namespace!r}.")
        self.store = store
        self.namespace = namespace
        self.profile = profile

    def retrieve(self, query: str, max_tokens: int = 2000, **settings: Any) -> Any:
        return self.store.retrieve(
            self.namespace, query, max_tokens=max_tokens, profile=self.profile, **settings
        )

    async def aretrieve(self, query: str, max_tokens: int = 2000, **settings: Any) -> Any:
        return await self.store.aretrieve(
            self.namespace, query, max_tokens=max_tokens, profile=self.profile, **settings
        )
