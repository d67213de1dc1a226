"""Retrieval over a hierarchical memory: raw messages, summaries of windows, summaries of
summaries. See docs/memory.md."""

from rerank_plus.memory.embedding import Embedder
from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.items import OTHER_ENTITIES, MemoryItem
from rerank_plus.memory.memory import Memory

__all__ = ["OTHER_ENTITIES", "Embedder", "Memory", "MemoryFormatError", "MemoryItem"]
