"""Retrieval over a hierarchical memory: raw messages, summaries of windows, summaries of
summaries. See docs/memory.md."""

from rerank_plus.memory.context.result import ContextItem, Guidance, MemoryContext
from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.ingest import (
    BuildSettings,
    ExtractiveSummarizer,
    LLMSummarizer,
    MemoryWriter,
    build_memory,
)
from rerank_plus.memory.ingest.embedding import Embedder
from rerank_plus.memory.model.artifacts import (
    load_memory,
    memory_from_dict,
    memory_to_dict,
    save_memory,
)
from rerank_plus.memory.model.items import OTHER_ENTITIES, MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.messages import messages_to_items
from rerank_plus.memory.policy import MemoryProfile, memory_profile
from rerank_plus.memory.retriever import MemoryRetriever
from rerank_plus.memory.store import MemoryStore, StoreError, open_store
from rerank_plus.memory.trace import Trace

__all__ = [
    "OTHER_ENTITIES",
    "BuildSettings",
    "ContextItem",
    "Embedder",
    "ExtractiveSummarizer",
    "Guidance",
    "LLMSummarizer",
    "Memory",
    "MemoryContext",
    "MemoryFormatError",
    "MemoryItem",
    "MemoryProfile",
    "MemoryRetriever",
    "MemoryStore",
    "MemoryWriter",
    "StoreError",
    "Trace",
    "build_memory",
    "load_memory",
    "memory_from_dict",
    "memory_profile",
    "memory_to_dict",
    "messages_to_items",
    "open_store",
    "save_memory",
]
