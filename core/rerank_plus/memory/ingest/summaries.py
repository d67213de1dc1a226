"""A summary item from its children: covers, times, speakers, timeline anchors, themes, tags,
entities and what the summary left out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from rerank_plus.memory.ingest.entities import merge_entities
from rerank_plus.memory.ingest.requests import SourceSentence, Summary
from rerank_plus.memory.ingest.vectors import TermStatistics
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.sentences import word_count

#: Themes (top terms) and tags a summary keeps; speakers listed in its signals.
THEMES = 5
TAGS = 8
SPEAKERS = 3
#: A speaker is listed when they said at least this share of the covered words.
SPEAKER_SHARE = 0.2
#: Speakers whose word counts a summary keeps for the levels above it.
SPEAKER_COUNTS = 8


def summary_id(level: int, index: int) -> str:
    """``L1.0``, ``L1.1``, ``L2.0``...: the ids the build gives summaries."""
    return f"L{level}.{index}"


@dataclass(frozen=True, slots=True)
class Coverage:
    """What a summary spans, read from its children: L0 positions, words, speakers' words."""

    first_index: int
    last_index: int
    messages: int
    words: int
    speaker_words: Mapping[str, int]

    @staticmethod
    def of(children: Sequence[MemoryItem], memory: Memory | None = None) -> Coverage:
        """Read from the children's own signals; a summary without them (a memory made
        elsewhere) is read from its messages in ``memory``."""
        speaker_words: Counter[str] = Counter()
        first = last = None
        messages = words = 0
        for child in children:
            signals = child.signals
            if child.level and "first_index" not in signals and memory is not None:
                return Coverage.of(
                    [m for c in children for m in memory.descendants(c.id)], memory=None
                )
            if child.level == 0 or "first_index" not in signals:
                count = word_count(child.text)
                span = (child.index, child.index, 1, count)
                if child.speaker:
                    speaker_words[child.speaker] += count
            else:
                span = (
                    signals["first_index"],
                    signals["last_index"],
                    signals["messages"],
                    signals["words"],
                )
                speaker_words.update(signals.get("speaker_words", {}))
            first = span[0] if first is None else min(first, span[0])
            last = span[1] if last is None else max(last, span[1])
            messages += span[2]
            words += span[3]
        return Coverage(first or 0, last or 0, messages, words, speaker_words)


def themes(sentences: Sequence[SourceSentence], statistics: TermStatistics) -> tuple[str, ...]:
    """The top terms of the sentences, by summed tf * idf² (ties in order of appearance): the
    squared idf keeps words said everywhere ("like", "think") out of a window's themes."""
    weights: dict[str, float] = {}
    for sentence in sentences:
        for term, count in sentence.terms.items():
            weights[term] = weights.get(term, 0.0) + count * statistics.idf(term) ** 2
    ranked = sorted(weights, key=lambda term: -weights[term])
    return tuple(term for term in ranked if len(term) > 1)[:THEMES]


def _speakers(speaker_words: Mapping[str, int]) -> tuple[str, ...]:
    total = sum(speaker_words.values())
    ranked = sorted(speaker_words, key=lambda name: -speaker_words[name])
    return tuple(n for n in ranked if total and speaker_words[n] >= SPEAKER_SHARE * total)[
        :SPEAKERS
    ]


def summary_item(
    level: int,
    index: int,
    children: Sequence[MemoryItem],
    summary: Summary,
    candidates: Sequence[SourceSentence],
    topics: tuple[str, ...],
    *,
    opened_by: str | None = None,
    session: int | None = None,
    memory: Memory | None = None,
) -> MemoryItem:
    """The summary of ``children`` at ``level``, position ``index`` (``memory``: where
    children without coverage signals find their messages; ``session``: a window's session,
    see :class:`.BuildSettings`)."""
    coverage = Coverage.of(children, memory)
    times = [child.time for child in children if child.time is not None]
    ends = [child.end_time or child.time for child in children]
    ends_known = [end for end in ends if end is not None]
    start = min(times) if times else None
    end = max(ends_known) if ends_known else None
    top_counts = dict(
        sorted(coverage.speaker_words.items(), key=lambda pair: -pair[1])[:SPEAKER_COUNTS]
    )
    names = set(coverage.speaker_words)
    signals: dict[str, Any] = {
        "first_index": coverage.first_index,
        "last_index": coverage.last_index,
        "messages": coverage.messages,
        "words": coverage.words,
        "start": start.isoformat() if start else None,
        "end": end.isoformat() if end else None,
        "speakers": _speakers(coverage.speaker_words),
        "speaker_words": top_counts,
        "themes": topics,
    }
    if opened_by is not None:
        signals["opened_by"] = opened_by
    if session is not None:
        signals["session"] = session
    kept = summary.kept_sentences
    extras: dict[str, Any] = {"summarizer": summary.summarizer, "source_sentences": len(candidates)}
    if kept is not None:
        extras["kept_sentences"] = kept
        extras["omitted_sentences"] = len(candidates) - kept
    extras.update(summary.details)
    tag_counts = Counter(tag for child in children for tag in child.tags)
    tags = tuple(dict.fromkeys([*topics, *(tag for tag, _ in tag_counts.most_common())]))[:TAGS]
    return MemoryItem(
        id=summary_id(level, index),
        level=level,
        index=index,
        text=summary.text,
        covers=tuple(child.id for child in children),
        time=start,
        end_time=end,
        speaker=next(iter(names)) if len(names) == 1 else None,
        tags=tags,
        entities=MappingProxyType(merge_entities(child.entities for child in children)),
        signals=MappingProxyType(signals),
        extras=MappingProxyType(extras),
    )
