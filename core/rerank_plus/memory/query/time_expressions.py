"""Time expressions in a folded query, found with each language's lexicon: which kind
("day", "ago", "clock"...), where, in which language, and what their parts say ("3", "day").
:mod:`.time_window` turns them into a window against ``now``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from rerank_plus.analysis.script import script_class
from rerank_plus.memory.query.cues import spaced, words_pattern
from rerank_plus.memory.query.deferred import DeferredPattern
from rerank_plus.memory.query.folding import WORD_CHARACTER, fold
from rerank_plus.memory.query.lexicon import LEXICONS, Lexicon


@dataclass(frozen=True, slots=True)
class Expression:
    """A time expression in the folded query: its kind, span, language and parsed parts."""

    kind: str
    start: int
    end: int
    language: str | None
    parts: dict[str, Any]


#: The kinds a message's dating reads (the query grammar's and the ``[annotation]`` table's
#: times ahead, :mod:`.time_annotations`): no clock time, date, month or lone weekday.
DATED_KINDS = frozenset(
    {"ago", "last_n", "previous_weekday", "previous_period", "current_period", "day_part", "day"}
)

#: Clock times and ISO dates have digits: without one, their patterns are not run.
_DIGIT = re.compile(r"\d")


def _alternation(mapping: dict[Any, str] | Any) -> list[tuple[Any, DeferredPattern]]:
    return [(key, DeferredPattern(rf"(?:{fold(words)})$")) for key, words in mapping.items()]


def _number_pattern(lexicon: Lexicon, group: str = "n", digits: str = r"\d{1,4}") -> str:
    words = sorted((fold(word) for word in lexicon.numbers), key=len, reverse=True)
    return rf"(?P<{group}>{digits}|" + "|".join(w.replace(" ", r"\s+") for w in words) + ")"


def _expand(template: str, lexicon: Lexicon) -> str:
    units = "|".join(fold(words) for words in lexicon.units.values())
    periods = "|".join(fold(words) for words in lexicon.periods.values())
    weekdays = "|".join(fold(words) for words in lexicon.weekdays)
    months = "|".join(fold(words) for words in lexicon.months)
    pattern = spaced(fold(template))
    return (
        pattern.replace("<n>", _number_pattern(lexicon))  # folded: the placeholders lowercased
        .replace("<unit>", rf"(?P<unit>{units})")
        .replace("<period>", rf"(?P<period>{periods})")
        .replace("<weekday>", rf"(?P<weekday>{weekdays})")
        .replace("<month>", rf"(?P<month>{months})")
        .replace("<day>", r"(?P<d>[0-3]?\d)")
        .replace("<year>", r"(?P<y>\d{4})")
        .replace("<hour>", _number_pattern(lexicon, "h", r"[01]?\d|2[0-3]"))
        .replace("<minute>", r"(?P<mi>[0-5]?\d)")
        .replace("<pm>", r"(?P<pm>)")
    )


def _word(pattern: str, apart: bool) -> DeferredPattern:
    """``pattern`` as whole words, or, in a language not written ``apart``, not inside a
    number."""
    if apart:
        return DeferredPattern(rf"(?<!{WORD_CHARACTER})(?:{pattern})(?!{WORD_CHARACTER})")
    return DeferredPattern(rf"(?<!\d)(?:{pattern})(?!\d)")


@dataclass(frozen=True)
class _LanguagePatterns:
    """One language's time patterns, compiled, with the tables that read their groups."""

    language: str
    #: The letters of the language's script, without which none of its patterns can match
    #: (None: any query may hold them).
    script: re.Pattern[str] | None
    #: Words without which none of the patterns can match: most queries name no time, and one
    #: search for these spares the dozen pattern scans.
    trigger: DeferredPattern
    patterns: tuple[tuple[str, DeferredPattern], ...]
    units: list[tuple[str, DeferredPattern]]
    periods: list[tuple[str, DeferredPattern]]
    weekdays: list[tuple[int, DeferredPattern]]
    months: list[tuple[int, DeferredPattern]]
    days: list[tuple[int, DeferredPattern]]
    parts: list[tuple[str, DeferredPattern]]
    numbers: dict[str, int]
    #: What dating a message reads (:mod:`.time_annotations`): the patterns of the kinds it
    #: dates, with the ``[annotation]`` table's times ahead ("tomorrow", "in 3 days"), the
    #: words without which none can match (no month: a month alone is not dated, and "may"
    #: is a common word), and the days ahead.
    dating: tuple[tuple[str, DeferredPattern], ...]
    dating_trigger: DeferredPattern
    ahead_days: list[tuple[int, DeferredPattern]]
    #: Words that may point either way in running text (never annotated), or None.
    either_way: re.Pattern[str] | None


def _language_patterns(language: str, lexicon: Lexicon) -> _LanguagePatterns:
    def templates(kind: str, items: tuple[str, ...]) -> list[tuple[str, DeferredPattern]]:
        return [(kind, _word(_expand(template, lexicon), apart)) for template in items]

    apart = lexicon.spaced

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
        *templates("month", lexicon.month_alone),
        *templates("day_date", lexicon.day_dates),
        *templates("clock", lexicon.clock_times),
        ("day_part", _word(rf"(?P<day>{days}){joiner}(?P<part>{parts})", apart)),
        ("day", _word(rf"(?P<day>{days})", apart)),
        ("weekday", _word(rf"(?P<weekday>{weekdays})", apart)),
    ]
    for words, offset, part in lexicon.day_parts:
        patterns.append((f"fixed_part:{offset}:{part}", _word(spaced(fold(words)), apart)))
    numbers = {re.sub(r"\s+", " ", fold(word)): value for word, value in lexicon.numbers.items()}
    trigger_words = [
        *lexicon.units.values(),
        *lexicon.periods.values(),
        *lexicon.days.values(),
        *lexicon.weekdays,
        *(words for words, _, _ in lexicon.day_parts),
        *lexicon.months,
    ]
    dating_words = trigger_words[: -len(lexicon.months) or None]
    if lexicon.clock_times:  # a clock's hour, in digits or words ("14点", "三点")
        trigger_words += [r"\d+", *map(re.escape, lexicon.numbers)]
    trigger = words_pattern([f"(?:{words})" for words in trigger_words], apart=apart)
    dating = [
        (kind, pattern)
        for kind, pattern in patterns
        if kind in DATED_KINDS or kind.startswith("fixed_part:")
    ]
    dating += [
        *templates("after_n", lexicon.after_n),
        *templates("next_period", lexicon.next_period),
    ]
    if lexicon.days_ahead:
        days_ahead = "|".join(fold(words) for words in lexicon.days_ahead.values())
        dating.append(("day_ahead", _word(rf"(?P<day>{days_ahead})", apart)))
        dating_words += lexicon.days_ahead.values()
    if not apart:  # a unit after digits ("3日前"): no boundary falls between them
        dating_words.append(r"\d+")
    dating_trigger = words_pattern([f"(?:{words})" for words in dating_words], apart=apart)
    either_way = (
        re.compile("|".join(f"(?:{fold(words)})" for words in lexicon.either_way))
        if lexicon.either_way
        else None
    )
    return _LanguagePatterns(
        language,
        re.compile(script_class(lexicon.script)) if lexicon.script else None,
        DeferredPattern(trigger),
        tuple(patterns),
        _alternation(dict(lexicon.units)),
        _alternation(dict(lexicon.periods)),
        _alternation(dict(enumerate(lexicon.weekdays))),
        _alternation({number: words for number, words in enumerate(lexicon.months, 1)}),
        _alternation(dict(lexicon.days)),
        _alternation(dict(lexicon.parts)),
        numbers,
        tuple(dating),
        DeferredPattern(dating_trigger),
        _alternation(dict(lexicon.days_ahead)),
        either_way,
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
    lead = rf"(?:(?P<lead>{leads})\s+)?"
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
def _clock_leads() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple(
        (code, re.compile(words_pattern(lexicon.clock_leads)))
        for code, lexicon in LEXICONS.items()
        if lexicon.clock_leads
    )


def lead_languages(leads: list[str]) -> frozenset[str]:
    """The languages a clock time's lead word is in ("à" French, "um" German)."""
    return frozenset(
        code for lead in leads for code, pattern in _clock_leads() if pattern.fullmatch(lead)
    )


def _lookup(table: list[tuple[Any, DeferredPattern]], text: str) -> Any:
    text = re.sub(r"\s+", " ", text)
    return next(key for key, pattern in table if pattern.match(text))


#: A unit in the plural with no count ("in the last months", "ces dernières semaines", "in den
#: letzten Monaten") reads as a few, as "the past few months" does (the lexicons' "few", "paar",
#: "几" are 3); read as one, "which books did she finish in the last weeks?" kept one week of a
#: chat kept over two months.
FEW = 3


def _plural(patterns: _LanguagePatterns, unit: str, text: str) -> bool:
    """Whether ``text``, a word of ``unit``, is an inflected form: a shorter start of it (three
    letters at least, so French "h" does not make "heure" plural) is the unit too ("months",
    "Monaten", "semaines"; French "mois" reads as one)."""
    pattern = next(found for key, found in patterns.units if key == unit)
    text = re.sub(r"\s+", " ", text)
    return any(pattern.match(text[:end]) for end in range(3, len(text)))


def _number(patterns: _LanguagePatterns, text: str | None) -> int:
    if text is None:
        return 1
    text = re.sub(r"\s+", " ", text)
    return int(text) if text.isdigit() else patterns.numbers[text]


def _parts(kind: str, match: re.Match[str], patterns: _LanguagePatterns) -> dict[str, Any] | None:
    """What a matched expression says, read from its groups; None for a date that does not
    exist ("February 30")."""
    groups = match.groupdict()
    if kind in ("month", "day_date"):
        year = int(groups["y"]) if groups.get("y") else None
        month = _lookup(patterns.months, groups["month"])
        day = int(groups["d"]) if groups.get("d") else 1
        try:
            date(year or 2000, month, day)  # 2000: a leap year, so February 29 passes
        except ValueError:
            return None
        return {"year": year, "month": month, "day": day}
    if kind in ("ago", "last_n", "duration", "after_n"):
        unit = _lookup(patterns.units, groups["unit"])
        counted = groups.get("n") is not None  # "the last 3 days", not "the last day"
        few = not counted and _plural(patterns, unit, groups["unit"])
        return {
            "n": FEW if few else _number(patterns, groups.get("n")),
            "unit": unit,
            "counted": counted,
        }
    if kind in ("previous_period", "current_period", "next_period"):
        return {"period": _lookup(patterns.periods, groups["period"])}
    if kind in ("weekday", "previous_weekday"):
        return {"weekday": _lookup(patterns.weekdays, groups["weekday"])}
    if kind == "clock":  # the hour in digits or words ("三点"): a number past 23 is no hour
        hour = _number(patterns, groups["h"])
        pm = groups.get("pm") is not None
        return (
            None if hour > 23 else {"h": hour, "mi": groups.get("mi"), "ap": "pm" if pm else None}
        )
    if kind == "day":
        return {"offset": _lookup(patterns.days, groups["day"])}
    if kind == "day_ahead":
        return {"offset": _lookup(patterns.ahead_days, groups["day"])}
    if kind == "day_part":
        return {
            "offset": _lookup(patterns.days, groups["day"]),
            "part": _lookup(patterns.parts, groups["part"]),
        }
    return {}


def find_expressions(
    folded: str, *, languages: Collection[str] | None = None, dating: bool = False
) -> list[Expression]:
    """The time expressions of ``folded`` (the longest where two overlap, in text order), in
    ``languages`` (codes; None: every language with a lexicon); with ``dating``, only the
    kinds :mod:`.time_annotations` dates, times ahead included (a query never reads those)."""
    found: list[Expression] = []
    plain = folded.isascii()
    for patterns in _all_patterns():
        if languages is not None and patterns.language not in languages:
            continue
        if patterns.script is not None and (plain or patterns.script.search(folded) is None):
            continue
        trigger = patterns.dating_trigger if dating else patterns.trigger
        if trigger.search(folded) is None:
            continue
        for kind, pattern in patterns.dating if dating else patterns.patterns:
            for match in pattern.finditer(folded):
                name, parts = kind, _parts(kind, match, patterns)
                if kind.startswith("fixed_part:"):
                    _, offset, part = kind.split(":")
                    name, parts = "day_part", {"offset": int(offset), "part": part}
                if parts is not None:
                    found.append(
                        Expression(name, match.start(), match.end(), patterns.language, parts)
                    )
    for kind, shared in _shared_patterns() if not dating and _DIGIT.search(folded) else ():
        for match in shared.finditer(folded):
            found.append(Expression(kind, match.start(), match.end(), None, match.groupdict()))
    return _longest_first(found)


def _longest_first(found: list[Expression]) -> list[Expression]:
    """Non-overlapping expressions, the longest kept where two overlap, in query order."""
    kept: list[Expression] = []
    for item in sorted(found, key=lambda f: (f.start - f.end, f.start)):
        if all(item.end <= other.start or item.start >= other.end for other in kept):
            kept.append(item)
    return sorted(kept, key=lambda f: f.start)


def either_way(folded: str, found: Expression) -> bool:
    """Whether ``found`` is written with words its language uses either way in running text
    (the ``[annotation]`` table's ``either_way``: Hindi "कल", yesterday or tomorrow)."""
    for patterns in _all_patterns():
        if patterns.language == found.language and patterns.either_way is not None:
            return patterns.either_way.fullmatch(folded, found.start, found.end) is not None
    return False


def warm_up() -> None:
    """Compile every pattern now rather than on the first query."""
    for patterns in _all_patterns():
        tables: tuple[Sequence[tuple[Any, DeferredPattern]], ...] = (
            patterns.patterns,
            patterns.dating,
            patterns.units,
            patterns.periods,
            patterns.weekdays,
            patterns.months,
            patterns.days,
            patterns.parts,
            patterns.ahead_days,
        )
        for pattern in (
            patterns.trigger,
            patterns.dating_trigger,
            *(p for t in tables for _, p in t),
        ):
            pattern.compiled  # noqa: B018  (compiles it)
    _shared_patterns()
