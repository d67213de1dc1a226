"""Explicit time windows in a query ("since yesterday", "last week", "à 00h18"), resolved
against ``now``.

Conventions (documented in docs/memory.md):

- Days, weeks (Monday first), months and years are calendar ones in ``now``'s time zone:
  "yesterday" is yesterday 00:00 to today 00:00, "last week" the previous Monday-to-Monday.
- "since X" opens the window at X's start (``end=None``); so does "in the last 2 hours"
  (``now - 2h``) and "depuis 3 jours" ("since 3 days": ``now - 3 days``).
- A clock time ("at 00:18", "à 00h18", "um 15 Uhr") is the most recent such time at or before
  ``now``, to the minute (or the hour when no minutes are given); with a day ("yesterday at
  00:18", "2024-05-01 00:18") it is that time on that day. A date alone is the whole day.
- "on Monday" is the most recent Monday, today included; "last Monday" the one before today.
- "3 days ago" is that calendar day (weeks, months, years alike); "2 hours ago" the hour
  centred on ``now - 2h`` (minutes alike).
- "between/from X and/to Y" spans from X's start to Y's end.
- Parts of a day: morning 00:00-12:00, afternoon 12:00-18:00, evening 18:00-24:00, night
  18:00-06:00 the next day.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from functools import cache
from typing import Any

from rerank_plus.memory.query.cues import words_pattern
from rerank_plus.memory.query.folding import fold
from rerank_plus.memory.query.lexicon import LEXICONS, Lexicon


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

    def contains(self, moment: datetime) -> bool:
        """Whether ``moment`` (aware) falls inside the window."""
        return (self.start is None or moment >= self.start) and (
            self.end is None or moment < self.end
        )


@dataclass(frozen=True, slots=True)
class _Found:
    """A time expression in the folded query: its kind, span, language and parsed parts."""

    kind: str
    start: int
    end: int
    language: str | None
    parts: dict[str, Any]


#: Hours each part of a day covers (start, end), end past 24 for the night.
PART_HOURS = {"morning": (0, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 30)}
_UNIT_DELTAS = {"minute": timedelta(minutes=1), "hour": timedelta(hours=1)}
_DAY_KINDS = frozenset({"day", "weekday", "date"})


def _alternation(mapping: dict[Any, str] | Any) -> list[tuple[Any, re.Pattern[str]]]:
    return [(key, re.compile(rf"(?:{fold(words)})$")) for key, words in mapping.items()]


def _number_pattern(lexicon: Lexicon) -> str:
    words = sorted((fold(word) for word in lexicon.numbers), key=len, reverse=True)
    return r"(?P<n>\d{1,4}|" + "|".join(w.replace(" ", r"\s+") for w in words) + ")"


def _expand(template: str, lexicon: Lexicon) -> str:
    units = "|".join(fold(words) for words in lexicon.units.values())
    periods = "|".join(fold(words) for words in lexicon.periods.values())
    weekdays = "|".join(fold(words) for words in lexicon.weekdays)
    pattern = fold(template).replace(" ", r"\s+")
    return (
        pattern.replace("<n>", _number_pattern(lexicon))  # folded: the placeholders lowercased
        .replace("<unit>", rf"(?P<unit>{units})")
        .replace("<period>", rf"(?P<period>{periods})")
        .replace("<weekday>", rf"(?P<weekday>{weekdays})")
    )


def _word(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)")


@dataclass(frozen=True)
class _LanguagePatterns:
    """One language's time patterns, compiled, with the tables that read their groups."""

    language: str
    lexicon: Lexicon
    patterns: tuple[tuple[str, re.Pattern[str]], ...]
    units: list[tuple[str, re.Pattern[str]]]
    periods: list[tuple[str, re.Pattern[str]]]
    weekdays: list[tuple[int, re.Pattern[str]]]
    days: list[tuple[int, re.Pattern[str]]]
    parts: list[tuple[str, re.Pattern[str]]]
    numbers: dict[str, int]


def _language_patterns(language: str, lexicon: Lexicon) -> _LanguagePatterns:
    def templates(kind: str, items: tuple[str, ...]) -> list[tuple[str, re.Pattern[str]]]:
        return [(kind, _word(_expand(template, lexicon))) for template in items]

    days = "|".join(fold(words) for words in lexicon.days.values())
    parts = "|".join(fold(words) for words in lexicon.parts.values())
    weekdays = "|".join(fold(words) for words in lexicon.weekdays)
    joiner = fold(lexicon.part_joiner).replace(" ", r"\s+")
    patterns = [
        *templates("ago", lexicon.ago),
        *templates("last_n", lexicon.last_n),
        *templates("duration", ("<N> <UNIT>",)),
        *templates("previous_weekday", lexicon.previous_weekday),
        *templates("previous_period", lexicon.previous_period),
        *templates("current_period", lexicon.current_period),
        ("day_part", _word(rf"(?P<day>{days}){joiner}(?P<part>{parts})")),
        ("day", _word(rf"(?P<day>{days})")),
        ("weekday", _word(rf"(?P<weekday>{weekdays})")),
    ]
    for words, offset, part in lexicon.day_parts:
        patterns.append((f"fixed_part:{offset}:{part}", _word(fold(words).replace(" ", r"\s+"))))
    numbers = {re.sub(r"\s+", " ", fold(word)): value for word, value in lexicon.numbers.items()}
    return _LanguagePatterns(
        language,
        lexicon,
        tuple(patterns),
        _alternation(dict(lexicon.units)),
        _alternation(dict(lexicon.periods)),
        _alternation(dict(enumerate(lexicon.weekdays))),
        _alternation(dict(lexicon.days)),
        _alternation(dict(lexicon.parts)),
        numbers,
    )


@cache
def _all_patterns() -> tuple[_LanguagePatterns, ...]:
    return tuple(_language_patterns(code, lexicon) for code, lexicon in LEXICONS.items())


@cache
def _shared_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Clock times and ISO dates, written alike in every language."""
    leads = "|".join(
        sorted(
            {
                fold(lead).replace(" ", r"\s+")
                for lex in LEXICONS.values()
                for lead in lex.clock_leads
            },
            key=len,
            reverse=True,
        )
    )
    lead = rf"(?:(?:{leads})\s+)?"
    hour = r"(?P<h>[01]?\d|2[0-3])"
    meridiem = r"(?:\s?(?P<ap>a\.?\s?m\.?|p\.?\s?m\.?)(?!\w))?"
    return (
        (
            "date",
            re.compile(
                r"(?<!\d)(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})"
                r"(?:[t\s](?P<h>\d{2}):(?P<mi>\d{2})(?::\d{2}(?:\.\d+)?)?"
                r"(?P<tz>z|[+-]\d{2}:?\d{2})?)?(?!\d)"
            ),
        ),
        ("clock", re.compile(rf"(?<!\w){lead}{hour}(?::|\s?h\s?)(?P<mi>[0-5]\d)(?!\d){meridiem}")),
        (
            "clock",
            re.compile(
                rf"(?<!\w){lead}{hour}(?:\s?(?:h|uhr|o\s+clock)(?!\w)|\s?(?P<ap>a\.?\s?m\.?|p\.?\s?m\.?)(?!\w))"
            ),
        ),
    )


@cache
def _connectors() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """ "since" before a time, "between/from" before a range, "and/to" inside it."""
    since = [word for lex in LEXICONS.values() for word in lex.since]
    opening = ["between", "from", "entre", "de", "du", "zwischen", "von", "vom", "desde", "tra",
               "fra", "da", "dal", "dalle"]  # fmt: skip
    inner = ["and", "to", "until", "till", "through", "et", "à", "au", "jusqu à", "und", "bis",
             "y", "hasta", "a", "e", "fino a", "al", "alle", "até"]  # fmt: skip
    return (
        re.compile(words_pattern(since) + r"\s+$"),
        re.compile(words_pattern(opening) + r"\s+$"),
        re.compile(r"^\s*(?:-|" + words_pattern(inner) + r")\s*$"),
    )


def _lookup(table: list[tuple[Any, re.Pattern[str]]], text: str) -> Any:
    text = re.sub(r"\s+", " ", text)
    return next(key for key, pattern in table if pattern.match(text))


def _number(patterns: _LanguagePatterns, text: str | None) -> int:
    if text is None:
        return 1
    text = re.sub(r"\s+", " ", text)
    return int(text) if text.isdigit() else patterns.numbers[text]


def _parts(kind: str, match: re.Match[str], patterns: _LanguagePatterns) -> dict[str, Any]:
    groups = match.groupdict()
    if kind in ("ago", "last_n", "duration"):
        return {
            "n": _number(patterns, groups.get("n")),
            "unit": _lookup(patterns.units, groups["unit"]),
        }
    if kind in ("previous_period", "current_period"):
        return {"period": _lookup(patterns.periods, groups["period"])}
    if kind in ("weekday", "previous_weekday"):
        return {"weekday": _lookup(patterns.weekdays, groups["weekday"])}
    if kind == "day":
        return {"offset": _lookup(patterns.days, groups["day"])}
    if kind == "day_part":
        return {
            "offset": _lookup(patterns.days, groups["day"]),
            "part": _lookup(patterns.parts, groups["part"]),
        }
    return {}


def _find(folded: str) -> list[_Found]:
    found: list[_Found] = []
    for patterns in _all_patterns():
        for kind, pattern in patterns.patterns:
            for match in pattern.finditer(folded):
                if kind.startswith("fixed_part:"):
                    _, offset, part = kind.split(":")
                    parts: dict[str, Any] = {"offset": int(offset), "part": part}
                    kind = "day_part"
                else:
                    parts = _parts(kind, match, patterns)
                found.append(_Found(kind, match.start(), match.end(), patterns.language, parts))
    for kind, pattern in _shared_patterns():
        for match in pattern.finditer(folded):
            found.append(_Found(kind, match.start(), match.end(), None, match.groupdict()))
    return _longest_first(found)


def _longest_first(found: list[_Found]) -> list[_Found]:
    """Non-overlapping expressions, the longest kept where two overlap, in query order."""
    kept: list[_Found] = []
    for item in sorted(found, key=lambda f: (f.start - f.end, f.start)):
        if all(item.end <= other.start or item.start >= other.end for other in kept):
            kept.append(item)
    return sorted(kept, key=lambda f: f.start)


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


def _span(found: _Found, now: datetime) -> tuple[datetime, datetime | None]:
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
        "last_n": lambda: (_minus(now, parts["n"], parts["unit"]), None),
        "duration": lambda: (_minus(now, parts["n"], parts["unit"]), None),
        "clock": lambda: _clock_span(parts, now, None),
        "date": lambda: _date_span(parts, now),
    }
    if found.kind == "day_part":
        day = today + timedelta(days=parts["offset"])
        first, last = PART_HOURS[parts["part"]]
        return (
            _midnight(day, tz) + timedelta(hours=first),
            _midnight(day, tz) + timedelta(hours=last),
        )
    if found.kind == "ago":
        return _ago_span(parts["n"], parts["unit"], now)
    return resolvers[found.kind]()


def _ago_span(n: int, unit: str, now: datetime) -> tuple[datetime, datetime]:
    moment = _minus(now, n, unit)
    if unit in _UNIT_DELTAS:
        half = _UNIT_DELTAS[unit] / 2
        return moment - half, moment + half
    if unit == "day":
        return _day_span(moment.date(), now.tzinfo)
    return _period_span(moment.date(), unit, now.tzinfo)


def _day_of(found: _Found, now: datetime) -> date | None:
    """The calendar day a day-level expression names (for "yesterday at 00:18")."""
    if found.kind == "date" and found.parts.get("h") is None:
        return _date_span(found.parts, now)[0].date()
    if found.kind in ("day", "weekday", "previous_weekday", "day_part"):
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
    found = _find(folded)
    since, opening, inner = _connectors()
    starts: dict[int, int] = {}
    for index, item in enumerate(found):
        lead = since.search(folded, 0, item.start)
        if lead is not None:
            starts[index] = lead.start()
    found_kept = [f for i, f in enumerate(found) if f.kind != "duration" or i in starts]
    if not found_kept:
        return None
    languages = frozenset(f.language for f in found_kept if f.language)

    def make(start: datetime | None, end: datetime | None, first: int, last: int) -> WindowMatch:
        spans = (*((f.start, f.end) for f in found_kept), (first, last))
        return WindowMatch(TimeWindow(start, end, query[first:last].strip()), spans, languages)

    if len(found_kept) >= 2:
        first_item, second = found_kept[0], found_kept[1]
        before = opening.search(folded, 0, first_item.start)
        if before is not None and inner.match(folded[first_item.end : second.start]):
            start, end = _span(first_item, now)[0], _span(second, now)[1]
            return make(start, end, before.start(), second.end)
    for index, item in enumerate(found):
        if index in starts:
            return make(_span(item, now)[0], None, starts[index], item.end)
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
    return make(start, end, item.start, item.end)


def warm_up() -> None:
    """Compile every pattern now rather than on the first query."""
    _all_patterns()
    _shared_patterns()
    _connectors()
