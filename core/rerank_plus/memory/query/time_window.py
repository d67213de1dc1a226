"""Explicit time windows in a query ("since yesterday", "last week", "à 00h18"), resolved
against ``now``.

Conventions:

- Days, weeks (Monday first), months and years are calendar ones in ``now``'s time zone:
  "yesterday" is yesterday 00:00 to today 00:00, "last week" the previous Monday-to-Monday.
- "since X" opens the window at X's start (``end=None``), as does "X since" where a language
  writes it after the time ("昨天以来", "昨日から"); so does "in the last 2 hours"
  (``now - 2h``) and "depuis 3 jours" ("since 3 days": ``now - 3 days``).
- A clock time ("at 00:18", "à 00h18", "um 15 Uhr") is the most recent such time at or before
  ``now``, to the minute (or the hour when no minutes are given), and the window says it was
  given without a date (``any_day``: a retriever reads it on the latest day its memory has
  messages then); with a day ("yesterday at 00:18", "2024-05-01 00:18") it is that time on
  that day. A date alone is the whole day.
- "on Monday" is the most recent Monday, today included; "last Monday" the one before today.
- "3 days ago" is that calendar day (weeks, months, years alike); "2 hours ago" the hour
  centred on ``now - 2h`` (minutes alike).
- "between/from X and/to Y" spans from X's start to Y's end, as do "X から Y まで",
  "X부터 Y까지" and the like (:func:`.time_ranges.range_span`); a range of two clock
  times ends on its start's day, or the next day when its end is earlier ("22:00 to 2:00").
- A month ("in May", "en mars 2023") or a day of one ("May 3rd", "le 3 mai", "3. Mai") without
  a year is the latest one not after ``now``; a month name alone needs a lead word or a year
  ("may" and "mars" are words too).
- Parts of a day: morning 00:00-12:00, afternoon 12:00-18:00, evening 18:00-24:00, night
  18:00-06:00 the next day.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from rerank_plus.memory.query import time_expressions, time_ranges
from rerank_plus.memory.query.time_expressions import Expression, find_expressions, lead_languages
from rerank_plus.memory.query.time_ranges import range_span, since_after, since_before


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """The time a query restricts itself to: ``[start, end)``, aware datetimes, ``None`` =
    open on that side; ``expression`` is the query's text that says it ("since yesterday");
    ``explicit`` is True for a window the query states (implicit recency, "what's new", gives
    no window: :attr:`QueryAnalysis.recency` says it)."""

    start: datetime | None
    end: datetime | None
    expression: str
    explicit: bool = True
    #: A time of day given without a date ("at 00:18", "from 10:00 to 11:30"): ``start`` and
    #: ``end`` are its latest occurrence at or before ``now``, and a retriever reads it on the
    #: latest day its memory has messages at that time (:mod:`.retrieve.clock_days`).
    any_day: bool = False

    def contains(self, moment: datetime) -> bool:
        """Whether ``moment`` (aware) falls inside the window."""
        return (self.start is None or moment >= self.start) and (
            self.end is None or moment < self.end
        )


#: Hours each part of a day covers (start, end), end past 24 for the night.
PART_HOURS = {"morning": (0, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 30)}
_UNIT_DELTAS = {"minute": timedelta(minutes=1), "hour": timedelta(hours=1)}


# --- resolution -----------------------------------------------------------------------------


def _midnight(day: date, tz: Any) -> datetime:
    return datetime.combine(day, time(0), tzinfo=tz)


def _day_span(day: date, tz: Any) -> tuple[datetime, datetime]:
    return _midnight(day, tz), _midnight(day + timedelta(days=1), tz)


def _shift_months(day: date, months: int) -> date:
    """The first of the month ``months`` after ``day``'s month (negative: before)."""
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _minus(now: datetime, n: int, unit: str) -> datetime:
    """``now`` less ``n`` units: exact for minutes to weeks (in UTC, so daylight saving does not
    shift it), calendar for months and years (the day clamped to the month's length)."""
    if unit in ("month", "year"):
        months = n * (12 if unit == "year" else 1)
        first = _shift_months(now.date(), -months)
        last_day = (_shift_months(first, 1) - timedelta(days=1)).day
        return now.replace(year=first.year, month=first.month, day=min(now.day, last_day))
    delta = {"minute": timedelta(minutes=n), "hour": timedelta(hours=n)}.get(unit) or timedelta(
        days=n * (7 if unit == "week" else 1)
    )
    return (now.astimezone(timezone.utc) - delta).astimezone(now.tzinfo)


def _period_span(day: date, period: str, tz: Any) -> tuple[datetime, datetime]:
    """The calendar week (Monday first), month or year holding ``day``."""
    if period == "week":
        monday = day - timedelta(days=day.weekday())
        return _midnight(monday, tz), _midnight(monday + timedelta(days=7), tz)
    if period == "month":
        first = day.replace(day=1)
        return _midnight(first, tz), _midnight(_shift_months(first, 1), tz)
    first = date(day.year, 1, 1)
    return _midnight(first, tz), _midnight(date(day.year + 1, 1, 1), tz)


def _clock_hour(parts: dict[str, Any]) -> int:
    hour = int(parts["h"])
    meridiem = (parts.get("ap") or "").replace(".", "").replace(" ", "")
    if meridiem == "pm" and hour < 12:
        hour += 12
    elif meridiem == "am" and hour == 12:
        hour = 0
    return hour


def _clock_span(
    parts: dict[str, Any], now: datetime, day: date | None
) -> tuple[datetime, datetime]:
    hour, minute = _clock_hour(parts), parts.get("mi")
    moment = datetime.combine(day or now.date(), time(hour, int(minute or 0)), tzinfo=now.tzinfo)
    if day is None and moment > now:
        moment -= timedelta(days=1)
    return moment, moment + (timedelta(minutes=1) if minute is not None else timedelta(hours=1))


def _clock_range_end(parts: dict[str, Any], start: datetime) -> datetime:
    """The end of a range's second clock time: on the first's day ("from 9:00 to 11:00" asked
    at 9:30 is this morning's, not 9:00 today to 11:00 yesterday), or the next day when it is
    earlier ("from 22:00 to 2:00")."""
    day = start.date()
    moment, end = _clock_span(parts, start, day)
    return end if moment >= start else _clock_span(parts, start, day + timedelta(days=1))[1]


def _date_span(parts: dict[str, Any], now: datetime) -> tuple[datetime, datetime]:
    day = date(int(parts["y"]), int(parts["mo"]), int(parts["d"]))
    tz = now.tzinfo
    if parts.get("tz"):
        offset = parts["tz"].upper()
        tz = datetime.fromisoformat(
            f"2000-01-01T00:00{'+00:00' if offset == 'Z' else offset}"
        ).tzinfo
    if parts.get("h") is None:
        return _day_span(day, tz)
    moment = datetime.combine(day, time(int(parts["h"]), int(parts["mi"])), tzinfo=tz)
    return moment, moment + timedelta(minutes=1)


def _span(found: Expression, now: datetime) -> tuple[datetime, datetime | None]:
    """The window one expression names, relative to ``now`` (aware)."""
    tz, today, parts = now.tzinfo, now.date(), found.parts
    resolvers: dict[str, Callable[[], tuple[datetime, datetime | None]]] = {
        "day": lambda: _day_span(today + timedelta(days=parts["offset"]), tz),
        "weekday": lambda: _day_span(
            today - timedelta(days=(today.weekday() - parts["weekday"]) % 7), tz
        ),
        "previous_weekday": lambda: _day_span(
            today - timedelta(days=(today.weekday() - parts["weekday"] - 1) % 7 + 1), tz
        ),
        "previous_period": lambda: _period_span(
            _period_span(today, parts["period"], tz)[0].date() - timedelta(days=1),
            parts["period"],
            tz,
        ),
        "current_period": lambda: _period_span(today, parts["period"], tz),
        "next_period": lambda: _period_span(
            _period_span(today, parts["period"], tz)[1].date(), parts["period"], tz
        ),
        "day_ahead": lambda: _day_span(today + timedelta(days=parts["offset"]), tz),
        "last_n": lambda: (_minus(now, parts["n"], parts["unit"]), None),
        "duration": lambda: (_minus(now, parts["n"], parts["unit"]), None),
        "clock": lambda: _clock_span(parts, now, None),
        "month": lambda: _month_span(parts, now),
        "day_date": lambda: _day_span(_named_day(parts, today), tz),
        "date": lambda: _date_span(parts, now),
    }
    if found.kind == "day_part":
        day = today + timedelta(days=parts["offset"])
        first, last = PART_HOURS[parts["part"]]
        return (
            _midnight(day, tz) + timedelta(hours=first),
            _midnight(day, tz) + timedelta(hours=last),
        )
    if found.kind in ("ago", "after_n"):
        return _ago_span(parts["n"] * (1 if found.kind == "ago" else -1), parts["unit"], now)
    return resolvers[found.kind]()


def resolve(found: Expression, now: datetime) -> tuple[datetime, datetime | None]:
    """The span ``found`` names against ``now`` (aware): ``[start, end)``, ``end`` None for
    a window open to ``now`` ("in the last 3 days"). The ``[annotation]`` table's times ahead
    resolve alike: "tomorrow" the next calendar day, "next week" the next Monday-to-Monday,
    "in 3 days" that calendar day (as "3 days ago")."""
    return _span(found, now)


def _month_span(parts: dict[str, Any], now: datetime) -> tuple[datetime, datetime]:
    """The month named, in the year given or the latest one not after ``now``'s month."""
    year = parts["year"] or (now.year if parts["month"] <= now.month else now.year - 1)
    return _period_span(date(year, parts["month"], 1), "month", now.tzinfo)


def _named_day(parts: dict[str, Any], today: date) -> date:
    """The day named ("May 3"), in the year given or the latest one not after ``today``; a
    February 29 without a year is the latest one there was."""
    if parts["year"]:
        return date(parts["year"], parts["month"], parts["day"])
    year = today.year
    while True:
        try:
            day = date(year, parts["month"], parts["day"])
        except ValueError:  # February 29 of a common year
            year -= 1
            continue
        if day <= today:
            return day
        year -= 1


def _ago_span(n: int, unit: str, now: datetime) -> tuple[datetime, datetime]:
    moment = _minus(now, n, unit)
    if unit in _UNIT_DELTAS:
        half = _UNIT_DELTAS[unit] / 2
        return moment - half, moment + half
    if unit == "day":
        return _day_span(moment.date(), now.tzinfo)
    return _period_span(moment.date(), unit, now.tzinfo)


def _day_of(found: Expression, now: datetime) -> date | None:
    """The calendar day a day-level expression names (for "yesterday at 00:18")."""
    if found.kind == "date" and found.parts.get("h") is None:
        return _date_span(found.parts, now)[0].date()
    if found.kind in ("day", "weekday", "previous_weekday", "day_part", "day_date"):
        return _span(found, now)[0].date()
    if found.kind == "ago" and found.parts["unit"] == "day":
        return _span(found, now)[0].date()
    return None


@dataclass(frozen=True, slots=True)
class WindowMatch:
    """A resolved window and the spans of the query it was read from (the intent and the
    keywords leave those words out), and the languages whose words matched."""

    window: TimeWindow
    spans: tuple[tuple[int, int], ...]
    languages: frozenset[str]


def find_window(query: str, folded: str, now: datetime) -> WindowMatch | None:
    """The explicit window ``query`` states, resolved against ``now`` (aware), or None.

    ``folded`` is :func:`fold` of ``query`` (same length). With several expressions, a range
    "between X and Y" wins, then "since X", then a clock time with a day, then the first one.
    """
    found = find_expressions(folded)
    since = since_before()
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}  # where a "since" written after the time ends ("昨天以来")
    for index, item in enumerate(found):
        lead = since.search(folded, 0, item.start) or since.match(folded[item.start : item.end])
        after = since_after().match(folded, item.end)
        if lead is not None:
            starts[index] = lead.start() if lead.string is folded else item.start
        elif after is not None:
            starts[index] = item.start
        if after is not None and index in starts:
            ends[index] = after.end()
    found_kept = [f for i, f in enumerate(found) if f.kind != "duration" or i in starts]
    if not found_kept:
        return None
    languages = frozenset(f.language for f in found_kept if f.language) | lead_languages(
        [f.parts["lead"] for f in found_kept if f.kind == "clock" and f.parts.get("lead")]
    )

    def make(
        start: datetime | None, end: datetime | None, first: int, last: int, any_day: bool = False
    ) -> WindowMatch:
        spans = (*((f.start, f.end) for f in found_kept), (first, last))
        window = TimeWindow(start, end, query[first:last].strip(), any_day=any_day)
        return WindowMatch(window, spans, languages)

    if len(found_kept) >= 2:
        first_item, second = found_kept[0], found_kept[1]
        joined = range_span(folded, first_item, second)
        if joined is not None:
            start, end = _span(first_item, now)[0], _span(second, now)[1]
            clocks_only = first_item.kind == second.kind == "clock"
            if clocks_only:
                end = _clock_range_end(second.parts, start)
            return make(start, end, *joined, any_day=clocks_only)
    for index, item in enumerate(found):
        if index in starts:
            return make(_span(item, now)[0], None, starts[index], ends.get(index, item.end))
    clocks = [f for f in found_kept if f.kind == "clock"]
    days = [
        (f, day) for f in found_kept if f.kind != "clock" and (day := _day_of(f, now)) is not None
    ]
    if clocks and days:
        clock, (other, day) = clocks[0], days[0]
        start, end = _clock_span(clock.parts, now, day)
        first, last = min(clock.start, other.start), max(clock.end, other.end)
        return make(start, end, first, last)
    item = found_kept[0]
    start, end = _span(item, now)
    return make(start, end, item.start, item.end, any_day=item.kind == "clock")


def warm_up() -> None:
    """Compile every pattern now rather than on the first query."""
    time_expressions.warm_up()
    time_ranges.warm_up()
