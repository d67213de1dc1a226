"""The keys of a lexicon file, the table each belongs to, and the checks that turn a key's TOML
value into the :class:`.Lexicon` field of the same name (the file layout: :mod:`.loader`).

A check raises :class:`Invalid` with where in the value it went wrong and how to fix it; the
loader puts the file and the key in front.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from types import MappingProxyType
from typing import Any

from rerank_plus.analysis.script import script_class
from rerank_plus.memory.query.lexicon.table import Lexicon

#: The units, parts of the day and periods a table may name (what the time grammar reads).
UNITS = ("minute", "hour", "day", "week", "month", "year")
PARTS = ("morning", "afternoon", "evening", "night")
PERIODS = ("week", "month", "year")


class Invalid(Exception):
    """A value that breaks the schema: ``where`` inside the key ("[3]", ".part"), and the
    message."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


#: Checks one fragment (a regular expression) at ``where`` and returns it as the lexicon holds
#: it: named fragments written in, NFKC.
Expand = Callable[[str, str], str]
#: Turns a key's TOML value into the field's value.
Check = Callable[[Any, Expand], Any]


def _kind(value: Any) -> str:
    """How TOML calls the kind of ``value``."""
    kinds = ((bool, "a boolean"), (int, "an integer"), (str, "a string"), (list, "an array"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "a table")


def _fragment(value: Any, expand: Expand, where: str = "") -> str:
    """One fragment: a string, or an array of strings joined as written (a long expression
    in pieces)."""
    if isinstance(value, list) and value and all(isinstance(piece, str) for piece in value):
        value = "".join(value)
    if not isinstance(value, str):
        raise Invalid(
            where,
            f"must be a string (a regular-expression fragment), got {_kind(value)}; "
            "write it in single quotes, e.g. 'summar\\w*'",
        )
    return expand(value, where)


def _array(value: Any, example: str) -> list[Any]:
    if not isinstance(value, list):
        raise Invalid(
            "", f"must be an array, got {_kind(value)}; write it in brackets, e.g. {example}"
        )
    return value


def _fragments(value: Any, expand: Expand) -> tuple[str, ...]:
    items = _array(value, "['summar\\w*', 'recap\\w*'], or [] for none")
    return tuple(_fragment(item, expand, f"[{i}]") for i, item in enumerate(items))


def _counted(count: int, what: str) -> Check:
    """Exactly ``count`` fragments, in the order ``what`` says (or none, for ``count=12``:
    months are optional)."""

    def check(value: Any, expand: Expand) -> tuple[str, ...]:
        found = _fragments(value, expand)
        if len(found) != count and not (count == 12 and not found):
            raise Invalid("", f"must have {count} entries, {what}; got {len(found)}")
        return found

    return check


def _table(names: tuple[str, ...]) -> Check:
    """A table of fragments keyed by some of ``names`` ("minute", "hour" ...)."""

    def check(value: Any, expand: Expand) -> Mapping[str, str]:
        if not isinstance(value, dict):
            raise Invalid("", f"must be a table, got {_kind(value)}; write {names[0]} = '...'")
        for name in value:
            if name not in names:
                raise Invalid(f".{name}", f"is not one of {', '.join(names)}; rename it")
        return MappingProxyType(
            {name: _fragment(words, expand, f".{name}") for name, words in value.items()}
        )

    return check


def _days(value: Any, expand: Expand) -> Mapping[int, str]:
    """Day offset (0 today, -1 yesterday) -> its words."""
    if not isinstance(value, dict):
        raise Invalid("", f"must be a table, got {_kind(value)}; write -1 = 'yesterday'")
    days = {}
    for key, words in value.items():
        offset = key.removeprefix("-")
        if not offset.isdigit() or not offset.isascii():
            raise Invalid(
                f".{key}",
                "is not a day offset; name each day by a whole number of days from today "
                "(0 today, -1 yesterday), e.g. -1 = 'yesterday'",
            )
        days[int(key)] = _fragment(words, expand, f".{key}")
    return MappingProxyType(days)


def _days_ahead(value: Any, expand: Expand) -> Mapping[int, str]:
    """Day offset after today (1 tomorrow) -> its words."""
    days = _days(value, expand)
    for offset in days:
        if offset < 1:
            raise Invalid(
                f".{offset}", "is not a day ahead; name days after today, e.g. 1 = 'tomorrow'"
            )
    return days


def _numbers(value: Any, expand: Expand) -> Mapping[str, int]:
    """Number word -> its value (plain words, not fragments)."""
    if not isinstance(value, dict):
        raise Invalid("", f"must be a table, got {_kind(value)}; write two = 2")
    for word, number in value.items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise Invalid(f".{word}", f"must be a whole number, got {number!r}; write {word} = 2")
    return MappingProxyType({expand(word, f".{word}"): number for word, number in value.items()})


def _day_parts(value: Any, expand: Expand) -> tuple[tuple[str, int, str], ...]:
    """Single words for a day and a part of it: { words = 'tonight', day = 0, part = 'evening' }."""
    found = []
    for i, item in enumerate(_array(value, "[{ words = 'tonight', day = 0, part = 'evening' }]")):
        if not isinstance(item, dict) or set(item) != {"words", "day", "part"}:
            raise Invalid(
                f"[{i}]",
                "must be a table of words, day and part, e.g. "
                "{ words = 'tonight', day = 0, part = 'evening' }",
            )
        day, part = item["day"], item["part"]
        if isinstance(day, bool) or not isinstance(day, int):
            raise Invalid(f"[{i}].day", f"must be a whole number of days (0 today), got {day!r}")
        if part not in PARTS:
            raise Invalid(f"[{i}].part", f"must be one of {', '.join(PARTS)}, got {part!r}")
        found.append((_fragment(item["words"], expand, f"[{i}].words"), day, part))
    return tuple(found)


def _flag(value: Any, expand: Expand) -> bool:
    if not isinstance(value, bool):
        raise Invalid("", f"must be true or false, got {_kind(value)}")
    return value


def _scripts(value: Any, expand: Expand) -> tuple[str, ...]:
    names = _array(value, '["Han", "Kana"], or [] for every query')
    for i, name in enumerate(names):
        if not isinstance(name, str) or script_class([name]) == "[]":
            raise Invalid(
                f"[{i}]",
                f"{name!r} is no script of rerank_plus.analysis.script; use its names "
                '("Latin", "Han", "Kana", "Hangul", "Thai", "Devanagari" ...)',
            )
    return tuple(names)


def _single(value: Any, expand: Expand) -> str:
    return _fragment(value, expand)


#: The intent cues, each a list of fragments matched as whole words (the ``[intent]`` table).
INTENT_CUES = (
    "summary",
    "breadth",
    "scope",
    "future",
    "recency",
    "entity_leads",
    "entity_trails",
    "name_leads",
    "name_trails",
    "asking",
    "topic_leads",
)

#: The shape cues, each a list of fragments matched as whole words (the ``[shape]`` table):
#: what form of answer a question asks for, beside its intent (:mod:`..shape`).
SHAPE_CUES = ("time_questions", "list_questions", "current_questions")

#: Every key a file may have besides ``[language] code`` and ``[time] numbers_from``: its
#: table and its check. The keys are the :class:`.Lexicon` fields, which document them.
KEYS: dict[str, tuple[str, Check]] = {
    "spaced": ("language", _flag),
    "script": ("language", _scripts),
    **{key: ("intent", _fragments) for key in INTENT_CUES},
    **{key: ("shape", _fragments) for key in SHAPE_CUES},
    **{
        key: ("time", _fragments)
        for key in (
            "since",
            "since_after",
            "range_opening",
            "range_inner",
            "range_endings",
            "range_closing",
            "ago",
            "last_n",
            "previous_weekday",
            "previous_period",
            "current_period",
            "clock_leads",
            "clock_times",
            "month_alone",
            "day_dates",
        )
    },
    "numbers": ("time", _numbers),
    "units": ("time", _table(UNITS)),
    "days": ("time", _days),
    "parts": ("time", _table(PARTS)),
    "day_parts": ("time", _day_parts),
    "part_joiner": ("time", _single),
    "weekdays": ("time", _counted(7, "Monday first")),
    "periods": ("time", _table(PERIODS)),
    "months": ("time", _counted(12, "January first")),
    "days_ahead": ("annotation", _days_ahead),
    **{key: ("annotation", _fragments) for key in ("next_period", "after_n", "either_way")},
}

#: How to write the required keys that are not arrays (an array: ``key = []`` if none).
EXAMPLES = {
    "numbers": "numbers = { one = 1 }, or numbers_from = 'han'",
    "units": "units = { day = 'days?' }",
    "days": "days = { 0 = 'today', -1 = 'yesterday' }",
    "parts": "parts = { morning = 'morning' }",
    "periods": "periods = { week = 'week' }",
    "part_joiner": "part_joiner = ' '",
    "weekdays": "weekdays = [seven entries, Monday first]",
}

#: The keys a file must have: the fields without a default (``[]`` says "none").
REQUIRED = frozenset(
    spec.name
    for spec in fields(Lexicon)
    if spec.default is MISSING and spec.default_factory is MISSING
)
