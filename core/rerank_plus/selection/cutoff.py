"""Dynamic cutoff: stop the result list where relevance drops sharply.

A fixed top-n returns 5 results whether 1 or 9 are good. A cutoff reads the relevance scores
(best first) and keeps the head before the drop. Two documented rules:

* :class:`GapCutoff` (default): cut at the largest drop between neighbours, if that drop is at
  least ``min_gap`` (on the [0, 1] relevance scale); no drop that large, no cut.
* :class:`RatioCutoff`: keep results whose relevance is at least ``ratio`` times the best one.

Both always keep ``min_keep`` results (1 by default) when there are that many.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol


class Cutoff(Protocol):
    def keep(self, relevance: Sequence[float]) -> int:
        """How many of the results (relevance best first) to keep."""
        ...


def _check(name: str, value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(f"{name} must be a number in [{low:g}, {high:g}], got {value!r}.")
    return float(value)


def _check_min_keep(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"min_keep must be a positive int, got {value!r}.")
    return value


class GapCutoff:
    """Cut at the largest drop between neighbouring relevance scores, when it is >= ``min_gap``.

    >>> GapCutoff(min_gap=0.2).keep([0.9, 0.85, 0.4, 0.35])
    2
    >>> GapCutoff(min_gap=0.2).keep([0.9, 0.8, 0.7])
    3
    """

    name = "gap"

    def __init__(self, min_gap: float = 0.15, min_keep: int = 1) -> None:
        self.min_gap = _check("min_gap", min_gap, 0.0, 1.0)
        self.min_keep = _check_min_keep(min_keep)

    def keep(self, relevance: Sequence[float]) -> int:
        best_drop, cut = 0.0, len(relevance)
        for i in range(self.min_keep - 1, len(relevance) - 1):
            drop = relevance[i] - relevance[i + 1]
            if drop > best_drop:
                best_drop, cut = drop, i + 1
        return cut if best_drop >= self.min_gap and best_drop > 0 else len(relevance)

    def __repr__(self) -> str:
        return f"GapCutoff(min_gap={self.min_gap}, min_keep={self.min_keep})"


class RatioCutoff:
    """Keep results whose relevance reaches ``ratio`` times the best result's.

    >>> RatioCutoff(ratio=0.5).keep([0.8, 0.5, 0.39, 0.9])
    2
    """

    name = "ratio"

    def __init__(self, ratio: float = 0.5, min_keep: int = 1) -> None:
        self.ratio = _check("ratio", ratio, 0.0, 1.0)
        self.min_keep = _check_min_keep(min_keep)

    def keep(self, relevance: Sequence[float]) -> int:
        if not relevance:
            return 0
        floor = self.ratio * relevance[0]
        count = 0
        while count < len(relevance) and relevance[count] >= floor:
            count += 1
        return max(count, min(self.min_keep, len(relevance)))

    def __repr__(self) -> str:
        return f"RatioCutoff(ratio={self.ratio}, min_keep={self.min_keep})"


#: Cutoff rules by the name configurations use.
CUTOFFS: dict[str, Callable[..., Cutoff]] = {"gap": GapCutoff, "ratio": RatioCutoff}


def build_cutoff(options: Mapping[str, Any] | str) -> Cutoff:
    """``"gap"`` or ``{"method": "ratio", "ratio": 0.6}``."""
    settings = {"method": options} if isinstance(options, str) else dict(options)
    method = settings.pop("method", "gap")
    if method not in CUTOFFS:
        raise ValueError(f"Unknown cutoff {method!r}; choose one of {', '.join(sorted(CUTOFFS))}.")
    try:
        return CUTOFFS[method](**settings)
    except TypeError as error:
        raise ValueError(f"Bad options for cutoff {method!r}: {error}.") from error
