"""The store's one error: a bad URL, an unreachable server, a locked or read-only file, a bad
namespace, a store written by a newer rerank-plus. Each message is one line naming the fix."""

from __future__ import annotations

from rerank_plus.errors import RerankPlusError


class StoreError(RerankPlusError, ValueError, RuntimeError):
    """A memory store could not do what was asked; the message says why and what to do.

    A ``ValueError`` (bad URLs, namespaces) and a ``RuntimeError`` (servers, locks, disks), so
    callers catching either keep working.
    """
