"""A time of day asked without a date ("quelle commande à 00:18 ?", "what did Ben say at
14:05?"), read on the latest day before ``now`` whose messages were sent at that time, not on
today alone; the other days with messages then are named, so that the answer can say Ben also
spoke at 14:05 on other days.

A message is at that time when its own clock, as its header shows it (its time in its own UTC
offset), falls in the span the question names: the minute ("00:18"), the hour ("um 9 Uhr") or
a range ("from 22:00 to 2:00", which runs into the next day and counts as the day it starts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.query.time_window import TimeWindow

#: Other days named in the guidance, at most (the trace lists them all).
NAMED_DAYS = 5
_DAY_MINUTES = 24 * 60


@dataclass(frozen=True)
class ClockDays:
    """Which day a dateless time of day is read on (``day``), the messages sent then on that
    day (``ids``), and the other days with messages then, latest first, with their speakers."""

    day: date
    ids: frozenset[str]
    other_days: tuple[tuple[date, tuple[str, ...]], ...]


def _minutes(moment: datetime) -> float:
    return moment.hour * 60 + moment.minute + moment.second / 60


def clock_days(
    window: TimeWindow, messages: Sequence[MemoryItem], now: datetime
) -> ClockDays | None:
    """The days ``messages`` sent before ``now`` hold ``window``'s time of day (see the module
    docstring), or None when none does (or the window has no time of day)."""
    if not window.any_day or window.start is None or window.end is None:
        return None
    first = _minutes(window.start)
    length = (window.end - window.start) / timedelta(minutes=1)
    by_day: dict[date, list[MemoryItem]] = {}
    for item in messages:
        if item.time is None or item.time > now:
            continue
        clock = _minutes(item.time)
        if (clock - first) % _DAY_MINUTES >= length:
            continue
        day = item.time.date() - timedelta(days=1 if clock < first else 0)
        by_day.setdefault(day, []).append(item)
    if not by_day:
        return None
    days = sorted(by_day, reverse=True)
    others = tuple(
        (day, tuple(dict.fromkeys(m.speaker for m in by_day[day] if m.speaker))) for day in days[1:]
    )
    return ClockDays(days[0], frozenset(m.id for m in by_day[days[0]]), others)


def guidance_notes(window: TimeWindow, found: ClockDays) -> list[str]:
    """What the guidance says of the day read, and of the other days with messages then."""
    notes = [
        f'"{window.expression}" gives no date: read on {found.day.isoformat()}, the latest day '
        "with messages at that time."
    ]
    if found.other_days:
        named = [
            f"{day.isoformat()} ({', '.join(speakers)})" if speakers else day.isoformat()
            for day, speakers in found.other_days[:NAMED_DAYS]
        ]
        more = len(found.other_days) - NAMED_DAYS
        notes.append(
            f"Messages were also sent at that time on {', '.join(named)}"
            + (f" and {more} other days." if more > 0 else ".")
        )
    return notes
