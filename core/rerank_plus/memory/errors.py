"""The memory layer's one error for malformed memories; messages name the item and the field."""

from __future__ import annotations

from rerank_plus.errors import RerankPlusError


class MemoryFormatError(RerankPlusError, ValueError):
    """A memory (or a file, or a message list) that cannot be read as a valid hierarchy."""
