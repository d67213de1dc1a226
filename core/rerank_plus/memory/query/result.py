"""What :func:`~rerank_plus.memory.query.analyze_query` returns, and the checks of what it is
given."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from rerank_plus.memory.query.time_window import TimeWindow


@dataclass(frozen=True, slots=True)
class QueryAnalysis:
    """What a query asks for (see :func:`~rerank_plus.memory.query.analyze_query`)."""

    query: str
    #: "synthesis" | "detail" | "recent" | "entity".
    intent: str
    #: The rule that decided the intent, in a short sentence (for traces).
    reason: str
    #: ISO 639-1 code the keywords were analyzed in; None where no language fits.
    language: str | None
    #: The analysis layer's terms of the query's topic (lemmas, no stop words, no cue words).
    keywords: tuple[str, ...]
    #: Names the query is about: an entity question's target first, then known entities,
    #: quoted strings and capitalized names.
    entities: tuple[str, ...]
    window: TimeWindow | None
    #: The query asks for recent things: a recency cue, or a window reaching ``now``.
    recency: bool
    #: A detail question's shape (:mod:`.shape`): "time" (when something happened), "list"
    #: (a set spread over time), "current" (what holds now of something that changes) or
    #: "plain" (every other question, and every question of another intent).
    shape: str = "plain"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (datetimes as ISO 8601 text)."""
        window = None
        if self.window is not None:
            window = {
                "start": self.window.start.isoformat() if self.window.start else None,
                "end": self.window.end.isoformat() if self.window.end else None,
                "expression": self.window.expression,
                "explicit": self.window.explicit,
            }
        return {
            "query": self.query,
            "intent": self.intent,
            "reason": self.reason,
            "language": self.language,
            "keywords": list(self.keywords),
            "entities": list(self.entities),
            "window": window,
            "recency": self.recency,
            "shape": self.shape,
        }


def check_now(now: Any) -> tuple[datetime, str]:
    """``now`` as an aware datetime, and a note for the reason when it was not given."""
    if now is None:
        return datetime.now(timezone.utc), "now not given: the current UTC time"
    if not isinstance(now, datetime):
        raise TypeError(
            f"now must be a datetime, got {type(now).__name__} {now!r}; pass e.g. "
            "datetime.now(timezone.utc) or datetime.fromisoformat('2024-05-01T09:30:00+00:00')."
        )
    if now.tzinfo is None or now.utcoffset() is None:
        return now.replace(tzinfo=timezone.utc), "naive now taken as UTC"
    return now, ""


def check_names(known_entities: Iterable[str]) -> tuple[str, ...]:
    if isinstance(known_entities, str):
        raise TypeError(
            "known_entities must be a sequence of names, got one str; wrap it: "
            f"known_entities=({known_entities!r},)."
        )
    names = tuple(known_entities)
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise TypeError(
                f"known_entities[{index}] must be a str, got {type(name).__name__} {name!r}; "
                "pass names as text."
            )
    return names
