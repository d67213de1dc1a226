"""Per-query score normalization: put two scorers' values on one [0, 1] scale before fusing.

Scores of different scorers (a BM25 sum, a cosine, a logit) live on different scales, and even
one scorer's range moves from query to query, so fusion normalizes within each query's
candidates. Constant input (one candidate, or all equal) carries no ordering information and maps
to 0.5 with either method: neutral, so the other input decides.

Contract at the edges: every value must be finite; an infinity or NaN raises ``ValueError``
naming its position (a score of ``inf`` carries no distance to the others, so no weighted sum can
place it honestly; rank-based fusion needs no normalizer). Finite values of any magnitude, from
subnormals to ``1.8e308``, never swap order and equal values stay equal: the normalizers first
rescale by a power of two (exact), so no intermediate overflows or underflows to zero. Distinct
values may still round to one output when their gap is below the output's precision (about
``1e-16`` of the range), since [0, 1] holds fewer floats than the whole line.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

Normalizer = Callable[[Sequence[float]], list[float]]


def _rescaled(values: Sequence[float]) -> np.ndarray:
    """The values times one power of two that puts the largest magnitude in [0.5, 1).

    Multiplying by a power of two is exact for normal floats and monotone always, and min-max and
    z-score are scale-free, so the results are unchanged while no sum or square can overflow.
    Element-wise array arithmetic rounds as Python's floats do, so the normalizers below give
    the same values either way, faster.
    """
    array = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(array)
    if not finite.all():
        position = int(np.argmin(finite))
        raise ValueError(
            f"cannot normalize scores[{position}] = {values[position]!r}: scores must be finite "
            "numbers. Clip infinite scores to a finite bound, or use rank-based fusion ('rrf')."
        )
    largest = float(np.max(np.abs(array))) if len(array) else 0.0
    if largest == 0.0:
        return array
    return np.ldexp(array, -math.frexp(largest)[1])


def min_max(values: Sequence[float]) -> list[float]:
    """``(x - min) / (max - min)``: the best candidate gets 1, the worst 0.

    >>> min_max([2.0, 4.0, 3.0])
    [0.0, 1.0, 0.5]
    >>> min_max([7.0, 7.0])
    [0.5, 0.5]
    """
    if not len(values):
        return []
    rescaled = _rescaled(values)
    low, high = float(rescaled.min()), float(rescaled.max())
    if not high > low:
        return [0.5] * len(rescaled)
    return np.clip((rescaled - low) / (high - low), 0.0, 1.0).tolist()


def _standardized(values: Sequence[float]) -> tuple[np.ndarray, float, float]:
    """The values rescaled (:func:`_rescaled`), their mean and their standard deviation (exact
    sums: ``math.fsum``)."""
    rescaled = _rescaled(values)
    listed = rescaled.tolist()
    mean = math.fsum(listed) / len(listed)
    # Python's squares: an array's ``** 2`` rounds differently in the last bit now and then
    deviation = math.sqrt(math.fsum((value - mean) ** 2 for value in listed) / len(listed))
    return rescaled, mean, deviation


def z_score(values: Sequence[float]) -> list[float]:
    """Standard score ``(x - mean) / std`` mapped to [0, 1] by the normal CDF ``Phi``.

    Unlike min-max, one outlier does not squash the others towards 0: a candidate far above the
    rest gets close to 1 and the rest stay near 0.5.

    >>> [round(v, 3) for v in z_score([1.0, 2.0, 3.0])]
    [0.11, 0.5, 0.89]
    """
    if not len(values):
        return []
    rescaled, mean, deviation = _standardized(values)
    if not deviation > 0:
        return [0.5] * len(rescaled)
    scaled = ((rescaled - mean) / deviation / math.sqrt(2.0)).tolist()
    return [0.5 * (1.0 + math.erf(value)) for value in scaled]


def three_sigma(values: Sequence[float]) -> list[float]:
    """``mean - 3 std`` -> 0 and ``mean + 3 std`` -> 1, linearly, clipped: the normalization of
    distribution-based score fusion (DBSF, as Qdrant fuses hybrid search).

    Linear where :func:`z_score`'s CDF flattens: a candidate three deviations above the rest
    keeps its lead over one at two, which the CDF nearly erases (0.999 against 0.977).

    >>> [round(v, 3) for v in three_sigma([1.0, 2.0, 3.0])]
    [0.296, 0.5, 0.704]
    """
    if not len(values):
        return []
    rescaled, mean, deviation = _standardized(values)
    if not deviation > 0:
        return [0.5] * len(rescaled)
    return np.clip(0.5 + (rescaled - mean) / (6.0 * deviation), 0.0, 1.0).tolist()


#: Normalization methods by the name configurations use.
NORMALIZERS: dict[str, Normalizer] = {"minmax": min_max, "zscore": z_score, "dbsf": three_sigma}


def get_normalizer(name: str) -> Normalizer:
    if name not in NORMALIZERS:
        raise ValueError(
            f"Unknown normalization {name!r}; choose one of {', '.join(sorted(NORMALIZERS))}."
        )
    return NORMALIZERS[name]
