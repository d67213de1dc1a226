"""Relative time words in a message, dated against the message's own time: "yesterday
[2023-05-07]", "letzten Samstag [2023-05-06]", read with the query grammar of every language
(:mod:`.time_expressions`) plus each lexicon's ``[annotation]`` table (times ahead).

What is dated, and how the date is written:

- a day ("yesterday", "today", "tomorrow", "last night", "this morning", "last Saturday",
  "3 days ago", "in 2 days"): ``[2023-05-07]``;
- a week ("last week", "this week", "next week", "2 weeks ago"): ``[week of 2023-05-01]``, its
  Monday; a month: ``[2023-04]``; a year: ``[2022]``;
- a stretch up to the message, counted ("in the last 3 days"): ``[since 2023-05-05]``
  ("the last day", uncounted, is as often "the last day of the trip").

Left alone: times of day and spans of minutes or hours (the header gives the message's time),
dates already written out, a weekday or month named alone ("on Saturday", "in May": before or
after the message, only the verb tells), words a lexicon lists as ``either_way`` (Hindi "कल",
yesterday or tomorrow), and words that only look like times ("may", "mars", "Jan" as a name:
a month needs a lead word or a year, and a month alone is not dated anyway). "Today" meaning
nowadays ("today's kids") is dated as the day it was said.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from rerank_plus.memory.query.folding import fold
from rerank_plus.memory.query.time_expressions import Expression, either_way, find_expressions
from rerank_plus.memory.query.time_window import resolve

#: The kinds of expression that name a day.
_DAY_KINDS = frozenset({"day", "day_part", "previous_weekday", "day_ahead"})
#: The kinds that count units back or ahead ("3 days ago", "in 2 weeks").
_COUNTED = frozenset({"ago", "after_n"})
#: The kinds that name a calendar period ("last week", "this month", "next year").
_PERIODS = frozenset({"previous_period", "current_period", "next_period"})
#: Units dated by a count: minutes and hours are left to the message's own time.
_DATED_UNITS = frozenset({"day", "week", "month", "year"})
#: What may follow a match inside its word ("yesterday's"): the note goes after it.
_WORD_TAIL = re.compile(r"(?:['\u2019]\w+)?")


@dataclass(frozen=True, slots=True)
class DatedTime:
    """A relative time in a text: where it is (``start``, ``end``, character offsets) and the
    note that dates it (``label``: "2023-05-07", "week of 2023-05-01", "since ...")."""

    start: int
    end: int
    label: str


def _label(found: Expression, moment: datetime) -> str | None:
    """The date ``found`` names against ``moment``, as the note writes it; None where it is
    left alone (see the module docstring)."""
    kind, parts = found.kind, found.parts
    if kind in _DAY_KINDS:
        return f"{resolve(found, moment)[0]:%Y-%m-%d}"
    if kind == "last_n" and parts["counted"] and parts["unit"] in _DATED_UNITS:
        return f"since {resolve(found, moment)[0]:%Y-%m-%d}"
    if kind in _COUNTED and parts["unit"] in _DATED_UNITS:
        return _period_label(parts["unit"], resolve(found, moment)[0])
    if kind in _PERIODS:
        return _period_label(parts["period"], resolve(found, moment)[0])
    return None


def _period_label(unit: str, start: datetime) -> str:
    if unit == "week":
        return f"week of {start:%Y-%m-%d}"
    if unit == "month":
        return f"{start:%Y-%m}"
    if unit == "year":
        return f"{start:%Y}"
    return f"{start:%Y-%m-%d}"


def relative_times(
    text: str, moment: datetime, languages: Collection[str] | None = None, *, own_day: bool = True
) -> list[DatedTime]:
    """The relative times of ``text`` said at ``moment`` (aware), in text order, read in
    ``languages`` (codes; None: every language with a lexicon); ``own_day=False`` leaves out
    those that name the day it was said ("today", "this morning": a header with the date
    says it already)."""
    folded = fold(text)
    found: list[DatedTime] = []
    for expression in find_expressions(folded, languages=languages, dating=True):
        label = _label(expression, moment)
        if label is None or either_way(folded, expression):
            continue
        if not own_day and expression.kind in _DAY_KINDS and expression.parts.get("offset") == 0:
            continue
        found.append(DatedTime(expression.start, expression.end, label))
    return found


def annotate(
    text: str, moment: datetime, languages: Collection[str] | None = None, *, own_day: bool = True
) -> str:
    """``text`` with each relative time followed by its date in brackets, after the end of
    its word (see :func:`relative_times`).

    >>> from datetime import UTC, datetime
    >>> annotate("I saw Ana yesterday's evening.", datetime(2023, 5, 8, 14, 0, tzinfo=UTC))
    "I saw Ana yesterday's [2023-05-07] evening."
    """
    pieces: list[str] = []
    after = 0
    for dated in relative_times(text, moment, languages, own_day=own_day):
        tail = _WORD_TAIL.match(text, dated.end)  # matches, if only the empty string
        end = dated.end if tail is None else tail.end()
        pieces += [text[after:end], f" [{dated.label}]"]
        after = end
    pieces.append(text[after:])
    return "".join(pieces)
