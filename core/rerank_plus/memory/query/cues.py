"""The lexicons compiled once into one pattern per kind and language, and the cues a query holds.

Short queries are where language detection is least reliable ("latest" alone, "seit
gestern"), so every language's cues are tried on every query; a cue also tells which language
it is in, which the analysis uses when detection is unsure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from rerank_plus.memory.query.folding import fold
from rerank_plus.memory.query.lexicon import LEXICONS

#: The kinds of cue matched as plain word lists (see :class:`.lexicon.Lexicon`).
KINDS = ("summary", "breadth", "scope", "future", "recency", "entity_leads", "name_leads")


@dataclass(frozen=True, slots=True)
class Cue:
    """One cue found in the folded query: its kind, language and span."""

    kind: str
    language: str
    start: int
    end: int


def words_pattern(fragments: tuple[str, ...] | list[str], *, whole: bool = True) -> str:
    """One alternation matching any fragment from a word's start (a space allows any
    whitespace), and to a word's end unless ``whole`` is False (entity leads end with the space
    before the name)."""
    folded = sorted({fold(fragment) for fragment in fragments}, key=len, reverse=True)
    body = "|".join(spaced(fragment) for fragment in folded)
    return rf"(?<!\w)(?:{body})" + (r"(?!\w)" if whole else "")


def spaced(fragment: str) -> str:
    """A fragment's spaces as whitespace: " ?" any or none, " " one or more."""
    return fragment.replace(" ?", r"\s*").replace(" ", r"\s+")


@cache
def _compiled(kind: str) -> tuple[re.Pattern[str], tuple[tuple[str, re.Pattern[str]], ...]]:
    """Every language's ``kind`` cues as one pattern (one scan of the query), and each
    language's own, which say whose a match is."""
    whole = kind not in ("entity_leads", "name_leads")
    every = [fragment for lexicon in LEXICONS.values() for fragment in getattr(lexicon, kind)]
    return re.compile(words_pattern(every, whole=whole)), tuple(
        (language, re.compile(words_pattern(getattr(lexicon, kind), whole=whole)))
        for language, lexicon in LEXICONS.items()
    )


def find_cues(folded: str, kind: str) -> list[Cue]:
    """Every ``kind`` cue in ``folded`` (a :func:`fold`-ed query), once per language it is a
    cue of ("meeting" is English and German)."""
    merged, languages = _compiled(kind)
    return [
        Cue(kind, language, match.start(), match.end())
        for match in merged.finditer(folded)
        for language, pattern in languages
        if _same_span(pattern.match(folded, match.start()), match.end())
    ]


def _same_span(match: re.Match[str] | None, end: int) -> bool:
    """Whether ``match`` ends at ``end`` (matched in the whole text, so that a cue's lookahead
    still sees what follows it)."""
    return match is not None and match.end() == end


def warm_up() -> None:
    """Compile every pattern now rather than on the first query."""
    for kind in KINDS:
        _compiled(kind)
