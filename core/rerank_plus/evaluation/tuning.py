"""Fit the adaptive fusion's few parameters on a user's judged queries, with cross-validation.

A grid over the three weights of :class:`AdaptiveFusion` (``alpha``, ``unread_alpha``,
``confidence_weight``): each fold picks the grid point best on the other folds and is scored
with it, so the reported gain over the default is measured on queries the choice never saw
(k-fold cross-validation). The paired differences give a 95% confidence interval and a t-test.
When the cross-validated gain is not positive the default is kept: tuning never hands back a
fusion it could not show to be better.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

import numpy as np

from rerank_plus.combine.adaptive import AdaptiveFusion, Signals
from rerank_plus.combine.normalize import min_max
from rerank_plus.evaluation.metrics import paired_p_value

#: Fewer judged queries than this and the folds are too small to choose among the grid.
MIN_QUERIES = 50
#: The grid: weights of the reranker per case, and how far confidence moves them.
GRID: dict[str, tuple[float, ...]] = {
    "alpha": (0.2, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
    "unread_alpha": (0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    "confidence_weight": (0.0, 0.2, 0.4),
}
DEPTH = 10


@dataclass(frozen=True, slots=True)
class JudgedQuery:
    """One query's candidates: both scores, the judged grade of each, and every judged grade."""

    query: str
    rerank: Sequence[float]
    first_stage: Sequence[float]
    grades: Sequence[int]
    all_grades: Sequence[int]


@dataclass(frozen=True, slots=True)
class Tuning:
    """The outcome: parameters to use, and the cross-validated comparison with the default."""

    parameters: dict[str, Any]
    queries: int
    folds: int
    default_ndcg: float
    tuned_ndcg: float
    gain: float
    interval: tuple[float, float]
    p_value: float
    kept_default: bool


def _ndcg(weights: np.ndarray, data: dict[str, np.ndarray]) -> np.ndarray:
    """nDCG@10 per query (the grade is the gain, as trec_eval's ndcg_cut) for these weights."""
    fused = weights[:, None] * data["rerank"] + (1.0 - weights[:, None]) * data["first"]
    fused = np.where(data["mask"], fused, -np.inf)
    top = np.argsort(-fused, axis=1, kind="stable")[:, :DEPTH]
    gains = np.take_along_axis(data["grades"], top, axis=1)
    discount = 1.0 / np.log2(np.arange(2, top.shape[1] + 2))
    dcg = (gains * discount).sum(axis=1)
    return np.divide(dcg, data["ideal"], out=np.zeros_like(dcg), where=data["ideal"] > 0)


def _matrices(queries: Sequence[JudgedQuery]) -> dict[str, np.ndarray]:
    width = max(len(q.rerank) for q in queries)
    shape = (len(queries), width)
    data = {name: np.zeros(shape) for name in ("rerank", "first", "grades")}
    data["mask"] = np.zeros(shape, dtype=bool)
    ideal = []
    for row, query in enumerate(queries):
        n = len(query.rerank)
        data["rerank"][row, :n] = min_max(query.rerank)
        data["first"][row, :n] = min_max(query.first_stage)
        data["grades"][row, :n] = query.grades
        data["mask"][row, :n] = True
        best = sorted(query.all_grades, reverse=True)[:DEPTH]
        ideal.append(sum(g / math.log2(rank + 2) for rank, g in enumerate(best)))
    data["ideal"] = np.array(ideal)
    return data


def tune_fusion(
    queries: Sequence[JudgedQuery],
    *,
    start: AdaptiveFusion | None = None,
    folds: int = 5,
    seed: int = 0,
) -> Tuning:
    """Cross-validated grid search from ``start`` (the default adaptive fusion)."""
    if len(queries) < MIN_QUERIES:
        raise ValueError(
            f"tuning needs at least {MIN_QUERIES} judged queries with candidates, got "
            f"{len(queries)}; judge more queries, or keep the default fusion."
        )
    if not 2 <= folds <= len(queries) // 10:
        raise ValueError(f"folds must be in [2, {len(queries) // 10}], got {folds}.")
    start = start if start is not None else AdaptiveFusion()
    signals = [start.signals(q.rerank, q.first_stage, q.query) for q in queries]
    data = _matrices(queries)
    default = {k: v for k, v in start.settings().items() if k in GRID}
    points = sorted(
        (dict(zip(GRID, values, strict=True)) for values in product(*GRID.values())),
        key=lambda p: sum(abs(p[k] - default[k]) for k in GRID),
    )
    baseline = _ndcg(_weights(start, signals, default), data)
    table = np.stack([_ndcg(_weights(start, signals, point), data) for point in points])
    order = np.random.default_rng(seed).permutation(len(queries))
    cross = np.zeros(len(queries))
    for fold in np.array_split(order, folds):
        train = np.setdiff1d(order, fold)
        best = int(np.argmax(table[:, train].mean(axis=1)))  # first = closest to default
        cross[fold] = table[best, fold]
    differences = (cross - baseline).tolist()
    gain = statistics.fmean(differences)
    half = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences))
    kept = not gain > 0
    chosen = default if kept else points[int(np.argmax(table.mean(axis=1)))]
    return Tuning(
        parameters={**start.settings(), **chosen},
        queries=len(queries),
        folds=folds,
        default_ndcg=float(baseline.mean()),
        tuned_ndcg=float(cross.mean()),
        gain=gain,
        interval=(gain - half, gain + half),
        p_value=paired_p_value(cross.tolist(), baseline.tolist()),
        kept_default=kept,
    )


def _weights(
    start: AdaptiveFusion, signals: Sequence[Signals], point: dict[str, float]
) -> np.ndarray:
    """The reranker's weight per query under the grid point ``point``."""
    fusion = AdaptiveFusion(
        alpha=point["alpha"],
        unread_alpha=point["unread_alpha"],
        unknown_alpha=start.unknown_alpha,
        confidence_weight=point["confidence_weight"],
        unread_script_alpha=start.unread_script_alpha,
        first_stage_languages=start.first_stage_languages,
    )
    return np.array([fusion.weight(s) for s in signals])
