"""One query's scores on the unit scale, as the adaptive fusion reads them: min-max, and how far
the best stands out of the top.

Plain Python, not numpy: on a hundred candidates numpy's per-call overhead costs more than the
arithmetic, and fusion must stay a small part of a rerank. The scale is kept as
``(value - low) / span`` rather than a list of unit values, so fusing takes one pass and an
explanation computes the unit value of only the candidates it shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: How deep "the top" is for :attr:`UnitScale.confidence`.
TOP = 10


@dataclass(frozen=True, slots=True)
class UnitScale:
    """``(values[i] - low) / span`` is candidate ``i``'s min-max value in [0, 1].

    A flat list (one value, or all equal) maps to 0.5 everywhere, as
    :func:`rerank_plus.combine.normalize.min_max` does, and does not ``spread``. ``+inf`` maps
    to 1, ``-inf`` and NaN to 0. ``confidence`` is the share of the range between the best
    value and the ``TOP``-th best (1 with ``TOP`` values or fewer; 0 when flat).
    """

    values: list[float]
    low: float
    span: float
    spread: bool
    confidence: float

    def unit(self, index: int) -> float:
        return (self.values[index] - self.low) / self.span


def unit_scale(scores: Sequence[float] | np.ndarray) -> UnitScale:
    """The unit scale of one query's scores.

    >>> scale = unit_scale([4.0, 2.0, 3.0])
    >>> [scale.unit(i) for i in range(3)], scale.confidence
    ([1.0, 0.0, 0.5], 1.0)
    """
    values = list(map(float, scores))  # plain floats out, whatever came in
    if not values:
        return UnitScale([], 0.0, 1.0, False, 0.0)
    if not math.isfinite(sum(values)) and not all(map(math.isfinite, values)):
        return _not_finite(values)
    ordered = sorted(values)
    low, high = ordered[0], ordered[-1]
    if not high > low:
        return UnitScale([0.5] * len(values), 0.0, 1.0, False, 0.0)
    span = high - low
    if not math.isfinite(span):  # finite values too far apart: halve them all (exact)
        return unit_scale([value * 0.5 for value in values])
    share = 1.0 if len(values) <= TOP else (high - ordered[-TOP]) / span
    return UnitScale(values, low, span, True, share)


def _not_finite(values: list[float]) -> UnitScale:
    """Finite values min-max among themselves; +inf first (1), -inf and NaN last (0)."""
    finite = [value for value in values if math.isfinite(value)]
    low = min(finite, default=0.0)
    scale = unit_scale([value if math.isfinite(value) else low for value in values])
    unit = [
        scale.unit(i) if math.isfinite(value) else float(value > 0)
        for i, value in enumerate(values)
    ]
    spread = max(unit) > min(unit)
    return UnitScale(unit, 0.0, 1.0, spread, unit_scale(unit).confidence if spread else 0.0)
