"""The store's errors: a bad URL, an unreachable server, a locked or read-only file, a bad
namespace, a store written by a newer rerank-plus. Each message is one line naming the fix.

Two have classes of their own, for callers (and the HTTP service: 409, 404) that answer them
differently from a store that cannot work: a message id the namespace already holds, and a
namespace that holds nothing where one that holds messages is needed."""

from __future__ import annotations

from rerank_plus.errors import RerankPlusError
from rerank_plus.memory.errors import MemoryFormatError


class StoreError(RerankPlusError, ValueError, RuntimeError):
    """A memory store could not do what was asked; the message says why and what to do.

    A ``ValueError`` (bad URLs, namespaces) and a ``RuntimeError`` (servers, locks, disks), so
    callers catching either keep working.
    """


class DuplicateMessageIdError(StoreError, MemoryFormatError):
    """An added message's id is already in the namespace; nothing of that add was stored.
    (A ``MemoryFormatError`` too: what an add raised for a taken id before this class.)"""


class UnknownNamespaceError(StoreError, LookupError):
    """The namespace holds no messages (never added to, or deleted), and the call needs one
    that does (looking up or deleting one of its messages)."""
