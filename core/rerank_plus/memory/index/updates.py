"""What an index after a change takes over from the index before it, for the items changed only.

``MemoryWriter.add`` appends a message and replaces the summaries on its path to the top: in every
level, the items from some position on (the tail). An index built anew reads every item; these
helpers find what changed (each level compared place by place) and give the same tables from the
previous index and the changed items alone: the term postings of a level (the same arrays, and
the same key order: first occurrence), and the BM25 document frequencies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import compress
from operator import is_, is_not

import numpy as np

from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory


def changed_items(
    before: Sequence[Sequence[MemoryItem]], memory: Memory
) -> tuple[list[MemoryItem], list[MemoryItem]]:
    """The items of the levels ``before`` (a previous index's, level by level) that ``memory``
    no longer holds (replaced or removed), and the items of ``memory`` that ``before`` did not
    hold (new or replacing): an item object is held at its own level and index, so each level
    is compared place by place."""
    gone: list[MemoryItem] = []
    made: list[MemoryItem] = []
    for level in range(max(len(before), memory.depth)):
        old = before[level] if level < len(before) else ()
        new = memory.level(level)
        gone += compress(old, map(is_not, old, new))
        gone += old[len(new) :]
        made += compress(new, map(is_not, new, old))
        made += new[len(old) :]
    return gone, made


def tail_start(row: Sequence[MemoryItem], before: Sequence[MemoryItem]) -> int:
    """The first position of ``row`` that does not hold the object ``before`` held there."""
    same = list(map(is_, row, before))
    return same.index(False) if False in same else min(len(row), len(before))


def postings(rows: Sequence[Mapping[str, int]], start: int = 0) -> dict[str, list[int]]:
    """Term -> positions (from ``start``) of the items whose term counts are ``rows``, keys
    in order of first occurrence."""
    found: dict[str, list[int]] = {}
    for position, terms in enumerate(rows, start):
        for term in terms:
            found.setdefault(term, []).append(position)
    return found


def tail_postings(
    before: Mapping[str, np.ndarray],
    start: int,
    old_tail: Sequence[Mapping[str, int]],
    new_tail: Sequence[Mapping[str, int]],
) -> dict[str, np.ndarray]:
    """A level's postings after the items from ``start`` on changed from ``old_tail`` to
    ``new_tail`` (their term counts), the positions before ``start`` unchanged: what
    :func:`postings` of the whole level gives. A term first seen before ``start`` keeps its
    place; the others were last in ``before`` and come last again, in the new tail's order."""
    found = dict(before)
    for terms in old_tail:
        for term in terms:
            held = found.get(term)
            if held is not None and held[-1] >= start:
                kept = held[: np.searchsorted(held, start)]
                if len(kept):
                    found[term] = kept
                else:
                    del found[term]
    for term, positions in postings(new_tail, start).items():
        fresh = np.array(positions, dtype=np.intp)
        held = found.get(term)
        found[term] = fresh if held is None else np.concatenate([held, fresh])
    return found


def changed_frequencies(
    before: Mapping[str, int],
    gone: Sequence[Mapping[str, int]],
    added: Sequence[Mapping[str, int]],
) -> dict[str, int]:
    """Document frequencies after the documents ``gone`` left and ``added`` came: the counts
    a fit on the whole collection gives (read by term only; their order may differ)."""
    found = dict(before)
    for terms in gone:
        for term in terms:
            count = found[term] - 1
            if count:
                found[term] = count
            else:
                del found[term]
    for terms in added:
        for term in terms:
            found[term] = found.get(term, 0) + 1
    return found
