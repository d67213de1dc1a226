"""Adaptive fusion: the reranker's weight chosen per query from signals seen at rerank time.

A fixed weight cannot know when the first stage is blind: an English embedding ranks a German
query's candidates worse than a lexical reranker, and a Greek or Thai query's little better
than chance, while on English queries it often beats the reranker. Three signals, each cheap
and each shown in the explanation, set ``alpha`` (the weight of the reranker) in the min-max
weighted sum of :class:`WeightedFusion`:

1. **Does the first stage read the query?** (:mod:`.query_language`) Its language: ``alpha``.
   Another language in a script it reads (German for an English model, which still shares
   names, numbers and cognates with it): ``unread_alpha``. A script it does not read (Greek,
   Arabic, Chinese, Thai for an English model: almost no shared tokens): ``unread_script_alpha``.
   Cannot tell: ``unknown_alpha``.
2. **Which list is more confident?** Each list's confidence is the share of its range between
   its best score and its 10th best: a best candidate that stands out of a flat list is a sure
   pick, a flat top is not (score-distribution and query-performance-prediction work:
   Manmatha et al. 2001; Zhou & Croft's WIG 2007; Shtok et al.'s NQC 2012). ``alpha`` moves by
   ``confidence_weight * (rerank confidence - first-stage confidence)``.
3. **Did the reranker find anything?** If all its scores are equal (no query term matched),
   it carries no ordering and the first stage decides (CombMNZ's intuition: evidence counts
   only where a system retrieved something; Fox & Shaw 1994).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

import numpy as np

from rerank_plus.combine.fusion import Fused, check_aligned, check_weight
from rerank_plus.combine.lazy_details import LazyDetails
from rerank_plus.combine.query_language import Detects, reads_query, reads_script
from rerank_plus.combine.scale import UnitScale, unit_scale

#: The first stage the adaptive fusion assumes: an English-only embedding, the common case.
ENGLISH_ONLY: tuple[str, ...] = ("en",)
#: Spans whose reciprocal times a weight stays a normal float; others take the slow, exact path.
_SAFE_SPAN = (1e-290, 1e290)
#: Queries whose reading (language, script) each fusion remembers; then it starts over.
_REMEMBERED_QUERIES = 4096


def confidence(values: Sequence[float] | np.ndarray) -> float:
    """Share of the range between the best value and the ``TOP``-th best; 0 when flat.

    >>> confidence([10.0, 1.0, 0.0]), confidence([1.0, 1.0])
    (1.0, 0.0)
    """
    return unit_scale(values).confidence


class _Details(LazyDetails):
    """Per-candidate explanation of the adaptive weighted sum."""

    def __init__(
        self,
        fusion: AdaptiveFusion,
        signals: Signals,
        weight: float,
        own: UnitScale,
        other: UnitScale,
    ) -> None:
        self._fusion, self._signals, self._weight = fusion, signals, weight
        self._own, self._other = own, other

    def __len__(self) -> int:
        return len(self._own.values)

    def detail(self, position: int) -> dict[str, Any]:
        return {
            **self._fusion.settings(),
            "signals": asdict(self._signals),
            "weight": self._weight,
            "rerank_normalized": self._own.unit(position),
            "first_stage_normalized": self._other.unit(position),
        }


def _weighted_sum(weight: float, own: UnitScale, other: UnitScale) -> list[float]:
    """``weight * unit(own) + (1 - weight) * unit(other)`` per candidate, in one pass."""
    if not (_SAFE_SPAN[0] < min(own.span, other.span) <= max(own.span, other.span) < _SAFE_SPAN[1]):
        # weight / span would overflow or lose bits as a subnormal: divide each value instead
        return [
            min(1.0, weight * own.unit(i) + (1.0 - weight) * other.unit(i))
            for i in range(len(own.values))
        ]
    a, b = weight / own.span, (1.0 - weight) / other.span
    low_a, low_b = own.low, other.low
    values = [
        a * (x - low_a) + b * (y - low_b) for x, y in zip(own.values, other.values, strict=True)
    ]
    # Rounding is monotone, so no value exceeds the same sum taken at the two maxima: only when
    # that bound passes 1 (by an ulp) does a pass over the values clip them.
    if a * own.span + b * other.span > 1.0:
        values = [min(1.0, value) for value in values]
    return values


@dataclass(frozen=True, slots=True)
class Signals:
    """What the adaptive fusion read for one query."""

    query_language: str | None
    first_stage_reads_query: bool | None
    rerank_confidence: float
    first_stage_confidence: float
    rerank_found_anything: bool
    #: Whether the query's script is one the first stage reads (None: cannot tell).
    first_stage_reads_script: bool | None = None


@cache
def _shared_detector() -> Detects:
    from rerank_plus.analysis.analyzer import Analyzer

    return Analyzer()


class AdaptiveFusion:
    """Min-max weighted fusion whose ``alpha`` (weight of the reranker) is set per query.

    Args:
        alpha: weight of the reranker when the first stage reads the query's language.
        unread_alpha: weight when it does not, but reads the query's script (German for an
            English model: its scores are weaker than the reranker's, not noise).
        unread_script_alpha: weight when the query is in a script the first stage does not
            read (Greek for an English model: its scores are then mostly noise).
        unknown_alpha: weight when the language cannot be told (no query, no letters).
        confidence_weight: how far the two lists' confidence gap moves the weight.
        first_stage_languages: ISO 639-1 codes the first stage's model reads.
        detector: detects the query's language; the reranker's analyzer shares its cache.

    >>> fusion = AdaptiveFusion()
    >>> fusion.weight(Signals("de", False, 0.5, 0.5, True, first_stage_reads_script=True))
    0.65
    >>> fusion.weight(Signals("greek", False, 0.5, 0.5, True, first_stage_reads_script=False))
    0.85
    """

    def __init__(
        self,
        alpha: float = 0.35,
        unread_alpha: float = 0.65,
        unknown_alpha: float = 0.65,
        confidence_weight: float = 0.2,
        unread_script_alpha: float = 0.85,
        *,
        first_stage_languages: Collection[str] = ENGLISH_ONLY,
        detector: Detects | None = None,
    ) -> None:
        self.alpha = check_weight("alpha", alpha)
        self.unread_alpha = check_weight("unread_alpha", unread_alpha)
        self.unread_script_alpha = check_weight("unread_script_alpha", unread_script_alpha)
        self.unknown_alpha = check_weight("unknown_alpha", unknown_alpha)
        self.confidence_weight = check_weight("confidence_weight", confidence_weight)
        if isinstance(first_stage_languages, str) or not all(
            isinstance(code, str) for code in first_stage_languages
        ):
            raise ValueError(
                "first_stage_languages must be a list of ISO 639-1 codes such as ['en'], "
                f"got {first_stage_languages!r}."
            )
        self.first_stage_languages = frozenset(code.lower() for code in first_stage_languages)
        self.detector = detector
        self._readings: dict[str, tuple[str | None, bool | None, bool | None]] = {}

    def signals(
        self,
        rerank: Sequence[float] | np.ndarray,
        first_stage: Sequence[float] | np.ndarray,
        query: str | None,
    ) -> Signals:
        """What this fusion reads for one query (see the module's docstring)."""
        return self._signals(unit_scale(rerank), unit_scale(first_stage), query)

    def _signals(self, own: UnitScale, other: UnitScale, query: str | None) -> Signals:
        language, reads, script = (None, None, None) if query is None else self._reading(query)
        return Signals(
            query_language=language,
            first_stage_reads_query=reads,
            rerank_confidence=own.confidence,
            first_stage_confidence=other.confidence,
            rerank_found_anything=own.spread,
            first_stage_reads_script=script,
        )

    def _reading(self, query: str) -> tuple[str | None, bool | None, bool | None]:
        """(language, read?, script read?) for ``query``, remembered: the answer for one query
        never changes, and asking the detector again costs more than the rest of the fusion."""
        reading = self._readings.get(query)
        if reading is None:
            detector = self.detector if self.detector is not None else _shared_detector()
            language, reads = reads_query(query, self.first_stage_languages, detector)
            reading = (language, reads, reads_script(query, self.first_stage_languages))
            if len(self._readings) >= _REMEMBERED_QUERIES:
                self._readings.clear()
            self._readings[query] = reading
        return reading

    def weight(self, signals: Signals) -> float:
        """The reranker's weight for a query with these signals, in [0, 1]."""
        if not signals.rerank_found_anything:
            return 0.0
        reads = signals.first_stage_reads_query
        if reads is None:
            base = self.unknown_alpha
        elif reads:
            base = self.alpha
        elif signals.first_stage_reads_script is False:
            base = self.unread_script_alpha
        else:
            base = self.unread_alpha
        gap = signals.rerank_confidence - signals.first_stage_confidence
        return round(min(1.0, max(0.0, base + self.confidence_weight * gap)), 6)

    def fuse(
        self, rerank: Sequence[float], first_stage: Sequence[float], *, query: str | None = None
    ) -> Fused:
        check_aligned(rerank, first_stage)
        if len(rerank) == 0:
            return Fused([], [])
        own, other = unit_scale(rerank), unit_scale(first_stage)
        signals = self._signals(own, other, query)
        weight = self.weight(signals)
        values = _weighted_sum(weight, own, other)
        return Fused(values, _Details(self, signals, weight, own, other))

    def settings(self) -> dict[str, Any]:
        """The parameters, as configurations and profiles write them."""
        return {
            "method": "adaptive",
            "alpha": self.alpha,
            "unread_alpha": self.unread_alpha,
            "unread_script_alpha": self.unread_script_alpha,
            "unknown_alpha": self.unknown_alpha,
            "confidence_weight": self.confidence_weight,
            "first_stage_languages": sorted(self.first_stage_languages),
        }

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.settings().items() if k != "method")
        return f"AdaptiveFusion({options})"
