"""Metadata boosts: multiply a document's score by a factor read from its metadata.

* :class:`FreshnessBoost`: ``1 + weight * 0.5 ** (age / half_life)``, an exponential decay on a
  timestamp field, for "what's new" questions. A document from now gets ``1 + weight``, one a
  half-life old ``1 + weight / 2``, a very old one about 1.
* :class:`PriorBoost`: a factor per value of a field (summary level, source type, ...).

A factor of 1 is "unboosted". Missing or malformed metadata gives 1 and a ``problem`` line in
the explanation, never an error: one bad record must not fail a whole query.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime
from typing import Any, Protocol

Boosted = tuple[float, dict[str, Any]]


class Boost(Protocol):
    def factor(self, metadata: Mapping[str, Any]) -> Boosted:
        """The factor for one document, and what the explanation should say about it."""
        ...


def _positive(name: str, value: Any, *, allow_zero: bool = False) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}.")
    return float(value)


def parse_timestamp(value: Any) -> datetime:
    """A timezone-aware datetime from a datetime, a date, epoch seconds or an ISO 8601 string.

    Naive values are taken as UTC. Raises ValueError (or TypeError) on anything else.

    >>> parse_timestamp("2024-05-01T12:00:00Z").isoformat()
    '2024-05-01T12:00:00+00:00'
    """
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, date):
        moment = datetime(value.year, value.month, value.day)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        moment = datetime.fromtimestamp(float(value), tz=UTC)
    elif isinstance(value, str):
        text = value.strip()
        moment = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    else:
        raise TypeError(
            f"a timestamp must be a datetime, date, number or ISO string, not {value!r}"
        )
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class FreshnessBoost:
    """Favour recent documents: factor ``1 + weight * 0.5 ** (age_days / half_life_days)``.

    ``now`` fixes the reference time (tests, replays); by default it is the time of each call.
    Timestamps in the future count as age 0.

    >>> now = datetime(2024, 1, 31, tzinfo=UTC)
    >>> boost = FreshnessBoost(half_life_days=30, weight=1.0, now=now)
    >>> boost.factor({"timestamp": "2024-01-01"})[0]
    1.5
    """

    def __init__(
        self,
        field: str = "timestamp",
        half_life_days: float = 30.0,
        weight: float = 0.5,
        now: datetime | str | float | None = None,
    ) -> None:
        if not isinstance(field, str) or not field:
            raise ValueError(f"field must be a metadata key (a non-empty str), got {field!r}.")
        self.field = field
        self.half_life_days = _positive("half_life_days", half_life_days)
        self.weight = _positive("weight", weight, allow_zero=True)
        self.now = None if now is None else parse_timestamp(now)

    def factor(self, metadata: Mapping[str, Any]) -> Boosted:
        explanation: dict[str, Any] = {"boost": "freshness", "field": self.field}
        if self.field not in metadata:
            return 1.0, {**explanation, "factor": 1.0, "problem": f"no {self.field!r} field"}
        try:
            moment = parse_timestamp(metadata[self.field])
        except (TypeError, ValueError, OverflowError, OSError):
            problem = f"malformed timestamp {metadata[self.field]!r}"
            return 1.0, {**explanation, "factor": 1.0, "problem": problem}
        now = self.now or datetime.now(UTC)
        age_days = max(0.0, (now - moment).total_seconds() / 86400.0)
        decay = 0.5 ** (age_days / self.half_life_days)
        value = 1.0 + self.weight * decay
        return value, {**explanation, "age_days": age_days, "decay": decay, "factor": value}

    def __repr__(self) -> str:
        return (
            f"FreshnessBoost(field={self.field!r}, half_life_days={self.half_life_days}, "
            f"weight={self.weight})"
        )


class PriorBoost:
    """A factor per value of a metadata field; values not listed (or missing) get ``default``.

    >>> PriorBoost("level", {"L3": 1.3, "L1": 0.9}).factor({"level": "L3"})[0]
    1.3
    """

    def __init__(self, field: str, weights: Mapping[str, float], default: float = 1.0) -> None:
        if not isinstance(field, str) or not field:
            raise ValueError(f"field must be a metadata key (a non-empty str), got {field!r}.")
        if not isinstance(weights, Mapping) or not weights:
            raise ValueError(f"weights must map field values to factors, got {weights!r}.")
        self.field = field
        self.weights = {
            str(key): _positive(f"weights[{key!r}]", value, allow_zero=True)
            for key, value in weights.items()
        }
        self.default = _positive("default", default, allow_zero=True)

    def factor(self, metadata: Mapping[str, Any]) -> Boosted:
        explanation: dict[str, Any] = {"boost": "prior", "field": self.field}
        if self.field not in metadata:
            problem = f"no {self.field!r} field"
            return self.default, {**explanation, "factor": self.default, "problem": problem}
        value = metadata[self.field]
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            problem = f"malformed {self.field!r} value {value!r}"
            return self.default, {**explanation, "factor": self.default, "problem": problem}
        found = self.weights.get(str(value))
        if found is None:
            problem = f"value {value!r} has no weight"
            return self.default, {**explanation, "factor": self.default, "problem": problem}
        return found, {**explanation, "value": value, "factor": found}

    def __repr__(self) -> str:
        return f"PriorBoost(field={self.field!r}, weights={self.weights!r})"


#: Boost kinds by the name configurations use (the ``type`` key).
BOOSTS: dict[str, Callable[..., Boost]] = {"freshness": FreshnessBoost, "prior": PriorBoost}


def build_boost(options: Mapping[str, Any]) -> Boost:
    """``{"type": "freshness", "half_life_days": 7}`` -> ``FreshnessBoost(half_life_days=7)``."""
    settings = dict(options)
    kind = settings.pop("type", None)
    if kind not in BOOSTS:
        raise ValueError(f"Unknown boost type {kind!r}; choose one of {', '.join(sorted(BOOSTS))}.")
    try:
        return BOOSTS[kind](**settings)
    except TypeError as error:
        raise ValueError(f"Bad options for boost {kind!r}: {error}.") from error
