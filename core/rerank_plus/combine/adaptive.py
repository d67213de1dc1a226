"""Adaptive fusion: the reranker's weight chosen per query from signals seen at rerank time.

A fixed weight cannot know when the first stage is blind: an English embedding ranks a German
or Greek query's candidates little better than chance, while on English queries it often beats
a lexical reranker. Three signals, each cheap and each shown in the explanation, set ``alpha``
(the weight of the reranker) in the min-max weighted sum of :class:`WeightedFusion`:

1. **Does the first stage read the query's language?** (:mod:`.query_language`) Yes:
   ``alpha``; no: ``unread_alpha``; cannot tell: ``unknown_alpha``.
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
from typing import Any, overload

import numpy as np

from rerank_plus.combine.fusion import Fused, check_aligned, check_weight
from rerank_plus.combine.query_language import Detects, reads_query

#: The first stage the adaptive fusion assumes: an English-only embedding, the common case.
ENGLISH_ONLY: tuple[str, ...] = ("en",)
#: How deep "the top" is for the confidence signal.
TOP = 10


def confidence(values: Sequence[float] | np.ndarray) -> float:
    """Share of the range between the best value and the ``TOP``-th best; 0 when flat.

    >>> confidence([10.0, 1.0, 0.0]), confidence([1.0, 1.0])
    (1.0, 0.0)
    """
    unit, spread = _unit(np.asarray(values, dtype=float))
    return _top_share(unit, spread)


def _unit(scores: np.ndarray) -> tuple[np.ndarray, bool]:
    """Min-max to [0, 1] as :func:`rerank_plus.combine.normalize.min_max` (constant -> 0.5),
    and whether the scores spread at all."""
    if not scores.size:
        return scores, False
    if not np.isfinite(scores).all():  # +inf ranks first (1), -inf last (0)
        finite = np.isfinite(scores)
        unit, spread = (
            _unit(np.where(finite, scores, scores[finite].min()))
            if finite.any()
            else (scores, False)
        )
        unit = np.where(finite, unit, (scores > 0).astype(float))
        return unit, spread or bool(unit.max() > unit.min())
    low, high = scores.min(), scores.max()
    if not high > low:
        return np.full(scores.shape, 0.5), False
    return (scores - low) / (high - low), True  # in [0, 1]: rounding is monotonic


def _top_share(unit: np.ndarray, spread: bool) -> float:
    if not spread:
        return 0.0
    if unit.size <= TOP:
        return 1.0
    return 1.0 - float(-np.partition(-unit, TOP - 1)[TOP - 1])


class _Details(Sequence[dict[str, Any]]):
    """Per-candidate explanation, built only for the candidates someone reads."""

    def __init__(
        self,
        fusion: AdaptiveFusion,
        signals: Signals,
        weight: float,
        own: np.ndarray,
        other: np.ndarray,
    ) -> None:
        self._fusion, self._signals, self._weight = fusion, signals, weight
        self._own, self._other = own, other

    def __len__(self) -> int:
        return len(self._own)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        return {
            **self._fusion.settings(),
            "signals": asdict(self._signals),
            "weight": self._weight,
            "rerank_normalized": float(self._own[index]),
            "first_stage_normalized": float(self._other[index]),
        }


@dataclass(frozen=True, slots=True)
class Signals:
    """What the adaptive fusion read for one query."""

    query_language: str | None
    first_stage_reads_query: bool | None
    rerank_confidence: float
    first_stage_confidence: float
    rerank_found_anything: bool


@cache
def _shared_detector() -> Detects:
    from rerank_plus.analysis.analyzer import Analyzer

    return Analyzer()


class AdaptiveFusion:
    """Min-max weighted fusion whose ``alpha`` (weight of the reranker) is set per query.

    Args:
        alpha: weight of the reranker when the first stage reads the query's language.
        unread_alpha: weight when it does not (its scores are then mostly noise).
        unknown_alpha: weight when the language cannot be told (no query, no letters).
        confidence_weight: how far the two lists' confidence gap moves the weight.
        first_stage_languages: ISO 639-1 codes the first stage's model reads.
        detector: detects the query's language; the reranker's analyzer shares its cache.

    >>> fusion = AdaptiveFusion()
    >>> fusion.weight(Signals("de", False, 0.5, 0.5, True))
    0.8
    """

    def __init__(
        self,
        alpha: float = 0.35,
        unread_alpha: float = 0.8,
        unknown_alpha: float = 0.65,
        confidence_weight: float = 0.2,
        *,
        first_stage_languages: Collection[str] = ENGLISH_ONLY,
        detector: Detects | None = None,
    ) -> None:
        self.alpha = check_weight("alpha", alpha)
        self.unread_alpha = check_weight("unread_alpha", unread_alpha)
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

    def signals(
        self,
        rerank: Sequence[float] | np.ndarray,
        first_stage: Sequence[float] | np.ndarray,
        query: str | None,
    ) -> Signals:
        """What this fusion reads for one query (see the module's docstring)."""
        own, own_spread = _unit(np.asarray(rerank, dtype=float))
        other, other_spread = _unit(np.asarray(first_stage, dtype=float))
        return self._signals(own, own_spread, other, other_spread, query)

    def _signals(
        self,
        own: np.ndarray,
        own_spread: bool,
        other: np.ndarray,
        other_spread: bool,
        query: str | None,
    ) -> Signals:
        language, reads = (None, None)
        if query is not None:
            detector = self.detector if self.detector is not None else _shared_detector()
            language, reads = reads_query(query, self.first_stage_languages, detector)
        return Signals(
            query_language=language,
            first_stage_reads_query=reads,
            rerank_confidence=_top_share(own, own_spread),
            first_stage_confidence=_top_share(other, other_spread),
            rerank_found_anything=own_spread,
        )

    def weight(self, signals: Signals) -> float:
        """The reranker's weight for a query with these signals, in [0, 1]."""
        if not signals.rerank_found_anything:
            return 0.0
        reads = signals.first_stage_reads_query
        base = self.unknown_alpha if reads is None else self.alpha if reads else self.unread_alpha
        gap = signals.rerank_confidence - signals.first_stage_confidence
        return round(min(1.0, max(0.0, base + self.confidence_weight * gap)), 6)

    def fuse(
        self, rerank: Sequence[float], first_stage: Sequence[float], *, query: str | None = None
    ) -> Fused:
        check_aligned(rerank, first_stage)
        if not rerank:
            return Fused([], [])
        own, own_spread = _unit(np.asarray(rerank, dtype=float))
        other, other_spread = _unit(np.asarray(first_stage, dtype=float))
        signals = self._signals(own, own_spread, other, other_spread, query)
        weight = self.weight(signals)
        values = np.minimum(weight * own + (1.0 - weight) * other, 1.0).tolist()
        return Fused(values, _Details(self, signals, weight, own, other))

    def settings(self) -> dict[str, Any]:
        """The parameters, as configurations and profiles write them."""
        return {
            "method": "adaptive",
            "alpha": self.alpha,
            "unread_alpha": self.unread_alpha,
            "unknown_alpha": self.unknown_alpha,
            "confidence_weight": self.confidence_weight,
            "first_stage_languages": sorted(self.first_stage_languages),
        }

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.settings().items() if k != "method")
        return f"AdaptiveFusion({options})"
