"""What the query stages read of one item beyond its terms, computed on first use: the names it
says, the metadata the light stage's boosts read, its sentences' terms. The index keeps each
per item (:class:`~rerank_plus.memory.index.memory_index.MemoryIndex`), so these are computed
once for every later query.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from itertools import accumulate, pairwise
from types import MappingProxyType
from typing import Any

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.index.level import band
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.sentences import split_sentences

#: An item as the boosts read it: its band, whether it names an entity of the question, and
#: its time (None when untimed)
BoostKey = tuple[str, bool, datetime | None]


def names_text(item: MemoryItem, memory: Memory, searched: str) -> str:
    """What ``item`` says of names, case-folded: its ``searched`` text, speaker, tags and
    entities, and for a window the speakers of its messages."""
    speakers = [item.speaker or ""]
    if item.level == 1:
        speakers += [memory.get(c).speaker or "" for c in item.covers]
    return " ".join([searched, *speakers, *item.tags, *item.entity_names]).casefold()


def boost_key(item: MemoryItem, depth: int, named: bool, timed: bool) -> BoostKey:
    """What the boosts read of ``item`` in a memory of ``depth`` levels: its time only when
    the question is ``timed``."""
    moment = (item.end_time or item.time) if timed and item.time else None
    return (band(item.level, depth), named, moment)


def boost_fields(key: BoostKey) -> Mapping[str, Any]:
    """The metadata of the items that read as ``key``, read-only (shared by them all)."""
    level_band, named, moment = key
    return MappingProxyType(
        {
            "band": level_band,
            "named": "yes" if named else "no",
            **({"timestamp": moment} if moment else {}),
        }
    )


def sentence_terms(analyzer: Analyzer, text: str, language: str) -> tuple[frozenset[str], ...]:
    """The analyzed terms of each of ``text``'s sentences (as :func:`split_sentences` cuts
    them) in ``language``. The text is analyzed once and its words' terms shared out to its
    sentences (a sentence is a run of whole words), unless the analysis reads the text whole
    (a trained pipeline): then each sentence is analyzed."""
    sentences = split_sentences(text)
    pieces = analyzer.analyze(text, language).pieces
    sizes = [len(sentence.split()) for sentence in sentences]
    if len(pieces) == sum(sizes):  # one piece per word
        starts = [0, *accumulate(sizes)]
        return tuple(
            frozenset(term for piece in pieces[start:end] for term in piece[2])
            for start, end in pairwise(starts)
        )
    return tuple(frozenset(analyzer.analyze(sentence, language).terms) for sentence in sentences)
