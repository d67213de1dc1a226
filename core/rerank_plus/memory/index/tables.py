"""The tables an index reads of a memory, built from the memory alone.

Each is a pure function of the memory (and the analyzer): what an index built anew holds. The
updater (:mod:`rerank_plus.memory.index.updater`) gives the same tables after a change from the
previous index and the changed items; these are what it falls back to, and what the
equivalence tests compare it with.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.index.updates import postings
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.scoring.bm25 import BM25Reranker

#: What the light stage's BM25 reads of an item: the language it is analyzed in, its term
#: counts and its length (the sum of the counts).
Reading = tuple[str, Mapping[str, int], int]


def search_texts(memory: Memory) -> dict[str, str]:
    """What each item is searched by: a window summary (L1) by its text and the messages it
    covers (a summary keeps a few lines; the question may ask for any other), every other
    item by its own text."""
    found = {item.id: item.text for item in memory.items}
    join_covered(memory, memory.level(1), found)
    return found


def join_covered(memory: Memory, windows: Iterable[MemoryItem], found: dict[str, str]) -> None:
    """Set each of ``windows``' search text in ``found``: its text and the search texts of the
    messages it covers, line by line."""
    for window in windows:
        covered = [found[c] for c in window.covers if memory.get(c).level == 0]
        found[window.id] = "\n".join([window.text, *covered])


def read_terms(analyzer: Analyzer, text: str, language: str) -> Reading:
    """An item's :data:`Reading`: ``text`` analyzed in ``language``."""
    counts = analyzer.analyze(text, language).term_frequencies
    return (language, counts, sum(counts.values()))


def fit(bm25: BM25Reranker, readings: Iterable[Reading]) -> int:
    """Fit ``bm25`` on the items' term counts (what ``fit`` on their texts reads); returns
    their total length (what the next index after a change starts from)."""
    held = list(readings)
    bm25.fit_analyzed([reading[1] for reading in held])
    return sum(reading[2] for reading in held)


def content_terms(item: MemoryItem, reading: Reading) -> int:
    """How many distinct terms a message says (0 for a summary)."""
    return len(reading[1]) if item.level == 0 else 0


def postings_of(rows: Sequence[Mapping[str, int]]) -> dict[str, np.ndarray]:
    """Term -> positions of the items whose term counts are ``rows`` (one level), as arrays."""
    found = postings(rows)
    return {term: np.array(at, dtype=np.intp) for term, at in found.items()}


def entities(items: Iterable[MemoryItem]) -> dict[str, None]:
    """Speakers and entity names of ``items``, in order of first occurrence."""
    names: dict[str, None] = {}
    for item in items:
        if item.speaker:
            names[item.speaker] = None
        names.update(dict.fromkeys(item.entity_names))
    return names


def span_starts(items: Sequence[MemoryItem]) -> dict[str, int]:
    """The position of each item's first covered message: chronology across levels."""
    starts: dict[str, int] = {}
    for item in items:  # level by level, so covered items come first
        if item.level == 0:
            starts[item.id] = item.index
        else:
            starts[item.id] = min((starts[c] for c in item.covers if c in starts), default=0)
    return starts


def sections(memory: Memory) -> dict[str, str]:
    """The part of the conversation each window and message belongs to: the summary right
    above its window (the window itself in a memory without one)."""
    found: dict[str, str] = {}
    for window in memory.level(1):
        parents = memory.parents(window.id)
        section = parents[0].id if parents else window.id
        found[window.id] = section
        found.update(dict.fromkeys(window.covers, section))
    return found


def places(memory: Memory) -> dict[str, float]:
    """Where each message and window sits in the conversation, 0 the first message and 1 the
    last (a window at the mean of its messages')."""
    messages = memory.level(0)
    last = max(len(messages) - 1, 1)
    found = {message.id: message.index / last for message in messages}
    for window in memory.level(1):
        spots = [found[key] for key in window.covers if key in found]
        if spots:
            found[window.id] = sum(spots) / len(spots)
    return found


def session_starts(memory: Memory) -> frozenset[int]:
    """The index of each message that starts a session after the first (a window whose
    ``signals["session"]`` differs from the last one named before it); none where the windows
    name no sessions (a memory without times, or built elsewhere)."""
    starts: set[int] = set()
    previous = None
    for window in memory.level(1):
        session = window.signals.get("session")
        if session is None:
            continue
        if previous is not None and session != previous and window.covers:
            starts.add(memory.get(window.covers[0]).index)
        previous = session
    return frozenset(starts)
