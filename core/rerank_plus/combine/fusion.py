"""Fuse the reranker's score with the first stage's (vector search) score, per query.

Both fusions are one weighted sum, ``alpha * part(rerank) + (1 - alpha) * part(first_stage)``,
in [0, 1] (the scale thresholds read); they differ in ``part``:

* :class:`WeightedFusion`: ``part`` is the score normalized per query, min-max or z-score
  (:mod:`rerank_plus.combine.normalize`).
* :class:`ReciprocalRankFusion`: Cormack, Clarke & Buettcher (SIGIR 2009), ``1 / (k + rank)``,
  k=60, divided by its best value ``1 / (k + 1)``; only ranks matter, so scales never do.

Ranks are 1-based; equal scores take ranks in input order, the library's tie rule.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from rerank_plus.combine.lazy_details import LazyDetails
from rerank_plus.combine.normalize import get_normalizer


@dataclass(frozen=True, slots=True)
class Fused:
    """Fused values in [0, 1], and per candidate the numbers that made them (for explanations)."""

    values: list[float]
    details: Sequence[dict[str, Any]]


class Fusion(Protocol):
    """Anything that turns two aligned score lists into one: what :class:`Pipeline` calls."""

    def fuse(
        self, rerank: Sequence[float], first_stage: Sequence[float], *, query: str | None = None
    ) -> Fused:
        """Fused values for aligned score lists; ``query`` is for fusions that read it."""


def check_weight(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}.")
    return float(value)


def check_aligned(rerank: Sequence[float], first_stage: Sequence[float]) -> None:
    if len(rerank) != len(first_stage):
        raise ValueError(
            f"cannot fuse {len(rerank)} rerank scores with {len(first_stage)} first-stage "
            "scores; pass one first-stage score per document."
        )


def ranks(values: Sequence[float]) -> list[int]:
    """1-based rank of each value, highest first; equal values rank in input order.

    >>> ranks([0.2, 0.9, 0.2])
    [2, 1, 3]
    """
    order = np.argsort(-np.asarray(values, dtype=np.float64), kind="stable")
    out = np.empty(len(values), dtype=np.int64)
    out[order] = np.arange(1, len(values) + 1)
    return out.tolist()


class _Details(LazyDetails):
    """Per-candidate explanation of a weighted sum."""

    def __init__(
        self, settings: dict[str, Any], shown: str, own: Sequence[float], other: Sequence[float]
    ) -> None:
        self._settings, self._shown, self._own, self._other = settings, shown, own, other

    def __len__(self) -> int:
        return len(self._own)

    def detail(self, position: int) -> dict[str, Any]:
        return {
            **self._settings,
            f"rerank_{self._shown}": self._own[position],
            f"first_stage_{self._shown}": self._other[position],
        }


class _WeightedSum(ABC):
    """What both fusions share: ``alpha * part(rerank) + (1 - alpha) * part(first_stage)``.

    ``part`` maps one query's scores into [0, 1] (a normalized score, a scaled reciprocal rank);
    subclasses say how, and what the explanation shows for each input (``shown``).
    """

    alpha: float
    shown: str

    @abstractmethod
    def _inputs(self, values: Sequence[float]) -> Sequence[float]:
        """What the explanation shows for each candidate; ``_parts`` turns it into [0, 1]."""

    def _parts(self, inputs: Sequence[float]) -> np.ndarray:
        """Each of ``_inputs``' values mapped into [0, 1]."""
        return np.asarray(inputs, dtype=np.float64)

    @abstractmethod
    def _settings(self) -> dict[str, Any]:
        """The method and its parameters, as explanations show them."""

    def fuse(
        self, rerank: Sequence[float], first_stage: Sequence[float], *, query: str | None = None
    ) -> Fused:
        """Fixed weights: the query does not matter."""
        check_aligned(rerank, first_stage)
        own, other = self._inputs(rerank), self._inputs(first_stage)
        summed = self.alpha * self._parts(own) + (1.0 - self.alpha) * self._parts(other)
        # min(1, max(0, value)), with its answers for equal values and NaN
        clipped = np.where(summed > 0.0, summed, 0.0)
        values = np.where(clipped < 1.0, clipped, 1.0).tolist()
        return Fused(values, _Details(self._settings(), self.shown, own, other))


class WeightedFusion(_WeightedSum):
    """Weighted sum of per-query normalized scores; ``alpha`` is the weight of the rerank score.

    ``alpha=1`` is the reranker alone, ``alpha=0`` the first stage alone.

    >>> WeightedFusion(alpha=0.5).fuse([1.0, 3.0], [0.9, 0.1]).values
    [0.5, 0.5]
    """

    shown = "normalized"

    def __init__(self, alpha: float = 0.5, normalization: str = "minmax") -> None:
        self.alpha = check_weight("alpha", alpha)
        self.normalization = normalization
        self._normalize = get_normalizer(normalization)

    def _inputs(self, values: Sequence[float]) -> Sequence[float]:
        return self._normalize(values)

    def _settings(self) -> dict[str, Any]:
        return {"method": "weighted", "normalization": self.normalization, "alpha": self.alpha}

    def __repr__(self) -> str:
        return f"WeightedFusion(alpha={self.alpha}, normalization={self.normalization!r})"


class ReciprocalRankFusion(_WeightedSum):
    """RRF of the rerank ranking and the first-stage ranking.

    ``alpha`` weighs the rerank ranking as in :class:`WeightedFusion`; 0.5 is classic,
    unweighted RRF. Value: ``(alpha / (k + r_rerank) + (1 - alpha) / (k + r_first)) * (k + 1)``.

    >>> [round(v, 4) for v in ReciprocalRankFusion(k=60).fuse([3.0, 1.0], [0.1, 0.9]).values]
    [0.9919, 0.9919]
    """

    shown = "rank"

    def __init__(self, k: int = 60, alpha: float = 0.5) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"k must be an int >= 0 (60 is usual), got {k!r}.")
        self.k = k
        self.alpha = check_weight("alpha", alpha)

    def _inputs(self, values: Sequence[float]) -> Sequence[float]:
        return ranks(values)

    def _parts(self, inputs: Sequence[float]) -> np.ndarray:
        return (self.k + 1) / (self.k + np.asarray(inputs, dtype=np.int64))

    def _settings(self) -> dict[str, Any]:
        return {"method": "rrf", "k": self.k, "alpha": self.alpha}

    def __repr__(self) -> str:
        return f"ReciprocalRankFusion(k={self.k}, alpha={self.alpha})"
