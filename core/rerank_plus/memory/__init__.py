"""Retrieval over a hierarchical memory: raw messages, summaries of windows, summaries of
summaries. See docs/memory.md."""

from rerank_plus.memory.build import (
    BuildSettings,
    ExtractiveSummarizer,
    LLMSummarizer,
    build_memory,
)
from rerank_plus.memory.embedding import Embedder
from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.items import OTHER_ENTITIES, MemoryItem
from rerank_plus.memory.memory import Memory
from rerank_plus.memory.messages import messages_to_items

__all__ = [
    "OTHER_ENTITIES",
    "BuildSettings",
    "Embedder",
    "ExtractiveSummarizer",
    "LLMSummarizer",
    "Memory",
    "MemoryFormatError",
    "MemoryItem",
    "build_memory",
    "messages_to_items",
]
