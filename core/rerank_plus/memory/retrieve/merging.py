"""Lists of hits joined without repeats: what the blocks, the grown windows and a second
drill-down all do."""

from __future__ import annotations

from collections.abc import Sequence

from rerank_plus.memory.retrieve.search import Hit


def merge(first: Sequence[Hit], then: Sequence[Hit]) -> list[Hit]:
    """``first`` in its order, then what ``then`` adds (each item once)."""
    hits = [*first, *then]
    ids = [hit.item.id for hit in hits]
    if len(set(ids)) == len(ids):  # no item twice (a drill-down's quotes alone, say)
        return hits
    seen: set[str] = set()
    out = []
    for hit, key in zip(hits, ids, strict=True):
        if key not in seen:
            seen.add(key)
            out.append(hit)
    return out
