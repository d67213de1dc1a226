"""Per-query score normalization: put two scorers' values on one [0, 1] scale before fusing.

Scores of different scorers (a BM25 sum, a cosine, a logit) live on different scales, and even
one scorer's range moves from query to query, so fusion normalizes within each query's
candidates. Constant input (one candidate, or all equal) carries no ordering information and maps
to 0.5 with either method: neutral, so the other input decides.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

Normalizer = Callable[[Sequence[float]], list[float]]


def min_max(values: Sequence[float]) -> list[float]:
    """``(x - min) / (max - min)``: the best candidate gets 1, the worst 0.

    >>> min_max([2.0, 4.0, 3.0])
    [0.0, 1.0, 0.5]
    >>> min_max([7.0, 7.0])
    [0.5, 0.5]
    """
    if not values:
        return []
    low, high = min(values), max(values)
    if not high > low:
        return [0.5] * len(values)
    span = high - low
    return [min(1.0, max(0.0, (value - low) / span)) for value in values]


def z_score(values: Sequence[float]) -> list[float]:
    """Standard score ``(x - mean) / std`` mapped to [0, 1] by the normal CDF ``Phi``.

    Unlike min-max, one outlier does not squash the others towards 0: a candidate far above the
    rest gets close to 1 and the rest stay near 0.5.

    >>> [round(v, 3) for v in z_score([1.0, 2.0, 3.0])]
    [0.11, 0.5, 0.89]
    """
    if not values:
        return []
    mean = math.fsum(values) / len(values)
    deviation = math.sqrt(math.fsum((value - mean) ** 2 for value in values) / len(values))
    if not deviation > 0:
        return [0.5] * len(values)
    return [0.5 * (1.0 + math.erf((value - mean) / deviation / math.sqrt(2.0))) for value in values]


#: Normalization methods by the name configurations use.
NORMALIZERS: dict[str, Normalizer] = {"minmax": min_max, "zscore": z_score}


def get_normalizer(name: str) -> Normalizer:
    if name not in NORMALIZERS:
        raise ValueError(
            f"Unknown normalization {name!r}; choose one of {', '.join(sorted(NORMALIZERS))}."
        )
    return NORMALIZERS[name]
