"""What a summarizer is asked and what it answers: one shape for extractive, LLM and
precomputed summaries, so the build treats them alike."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from rerank_plus.errors import RerankPlusError

#: A sentence's vector: a unit embedding row, or term weights (term -> tf * idf).
Vector = np.ndarray | Mapping[str, float]


@dataclass(frozen=True, slots=True)
class SourceSentence:
    """A sentence a summary may keep verbatim: from a message (level 1) or from a summary one
    level down (higher levels). ``order`` sorts sentences as they were said; ``words`` counts
    the text as written (what budgets count), ``speech_words`` without transcript annotations
    such as "{vocalsound}" (what tells a sentence from a fragment)."""

    text: str
    words: int
    terms: Mapping[str, int]
    vector: Vector | None = field(default=None, compare=False, repr=False)
    order: tuple[int, int] = (0, 0)
    language: str = "und"
    speech_words: int = 0
    #: Summed idf of its distinct terms: how much a sentence says (fillers say little).
    information: float = 0.0


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    """One summary to write: the summary's id, level and index, the ids it covers, the
    candidate sentences, the rendered source text (for generative summarizers: "speaker: text"
    lines for a window, the summaries one level down otherwise) and the word budget."""

    id: str
    level: int
    index: int
    covers: tuple[str, ...]
    sentences: tuple[SourceSentence, ...]
    source: tuple[str, ...]
    budget_words: int
    source_words: int

    @property
    def text(self) -> str:
        return ("\n" if self.level == 1 else "\n\n").join(self.source)


@dataclass(frozen=True, slots=True)
class Summary:
    """A summarizer's answer: the text, and what the build records about it in ``extras``.

    ``sentences``: the request's sentences the text is made of, verbatim and in its order
    (what the extractive summarizer keeps); the build then reads the summary's vector from
    theirs instead of embedding its text. None: the build finds out from the text."""

    text: str
    summarizer: str
    kept_sentences: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    sentences: tuple[SourceSentence, ...] | None = field(default=None, repr=False)


@runtime_checkable
class Summarizer(Protocol):
    """Anything with ``summarize(request) -> Summary | str``."""

    def summarize(self, request: SummaryRequest) -> Summary | str: ...


class SummaryError(RerankPlusError, RuntimeError):
    """A summarizer could not summarize (an LLM call failed, a precomputed summary is missing)."""
