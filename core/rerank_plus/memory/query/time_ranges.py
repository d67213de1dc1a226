"""The words around time expressions: "since" before or after one ("since yesterday",
"昨天以来"), and the words that join two into a range ("between Monday and Wednesday",
"月曜日から水曜日まで"), from every lexicon.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from rerank_plus.memory.query.cues import lexicon_pattern, spaced, words_pattern
from rerank_plus.memory.query.folding import fold
from rerank_plus.memory.query.lexicon import LEXICONS, Lexicon
from rerank_plus.memory.query.time_expressions import Expression


@cache
def since_before() -> re.Pattern[str]:
    """ "since" before a time (or leading its match: "since May", where a month needs its
    lead word)."""
    since = lexicon_pattern(list(LEXICONS.values()), lambda lex: lex.since)
    return re.compile(rf"(?:(?:{since})\s*$|^(?:{since})\s)")


@dataclass(frozen=True)
class _RangeWords:
    """Every lexicon's range words, each where it may stand: outside the two times or taken in
    by one ("da marzo", "수요일까지")."""

    opening: re.Pattern[str]  # ends where the first time starts
    opening_lead: re.Pattern[str]  # leads the first time's text
    inner: re.Pattern[str]  # the whole text between the two times
    inner_lead: re.Pattern[str]  # leads the second time's text
    ending: re.Pattern[str]  # ends the first time's text
    closing: re.Pattern[str]  # starts where the second time ends
    closing_tail: re.Pattern[str]  # ends the second time's text


@cache
def _range_words() -> _RangeWords:
    lexicons = list(LEXICONS.values())

    def words(field: Callable[[Lexicon], tuple[str, ...]]) -> str:
        return lexicon_pattern(lexicons, field)

    # before the first time, a space where the language writes one ("between Monday", "从周一")
    opening = "|".join(
        words_pattern(found, apart=apart) + (r"\s+$" if apart else r"\s*$")
        for apart in (True, False)
        if (found := [f for lex in lexicons if lex.spaced is apart for f in lex.range_opening])
    )
    endings = "|".join(spaced(fold(e)) for lex in lexicons for e in lex.range_endings)
    return _RangeWords(
        re.compile(opening or r"(?!)"),
        re.compile(rf"(?:{words(lambda lex: lex.range_opening)})\s*"),
        re.compile(rf"\s*(?:-|{words(lambda lex: lex.range_inner)})\s*"),
        re.compile(rf"(?:{words(lambda lex: lex.range_inner)})\s*"),
        re.compile(rf"(?:{endings or '(?!)'})$"),
        re.compile(rf"\s*(?:{words(lambda lex: lex.range_closing)})"),
        re.compile(rf"(?:{words(lambda lex: lex.range_closing)})$"),
    )


def range_span(folded: str, first: Expression, second: Expression) -> tuple[int, int] | None:
    """Where two time expressions are written as one range, connectors included ("between
    Monday and Wednesday", "月曜日から水曜日まで"), or None: an inner word must join them, and
    an opening word stand before the first or a closing word after the second."""
    words = _range_words()

    def leads(pattern: re.Pattern[str], item: Expression) -> bool:
        found = pattern.match(folded, item.start, item.end)
        return found is not None and found.end() < item.end

    def tails(pattern: re.Pattern[str], item: Expression) -> bool:
        found = pattern.search(folded, item.start, item.end)
        return found is not None and found.start() > item.start

    gap = folded[first.end : second.start]
    joined = words.inner.fullmatch(gap) is not None or (
        not gap.strip() and (leads(words.inner_lead, second) or tails(words.ending, first))
    )
    if not joined:
        return None
    before = words.opening.search(folded, 0, first.start)
    after = words.closing.match(folded[second.end :])  # "11:30まで": a digit may lead it
    framed = before is not None or after is not None
    if not (framed or leads(words.opening_lead, first) or tails(words.closing_tail, second)):
        return None
    return (
        first.start if before is None else before.start(),
        second.end if after is None else second.end + after.end(),
    )


@cache
def since_after() -> re.Pattern[str]:
    """ "since" after a time ("昨天以来", "昨日から"), matched where the time ends."""
    return re.compile(
        r"\s*(?:" + lexicon_pattern(list(LEXICONS.values()), lambda lex: lex.since_after) + ")"
    )


def warm_up() -> None:
    """Compile every pattern now rather than on the first query."""
    since_before()
    _range_words()
    since_after()
