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
KINDS = ("summary", "breadth", "scope", "recency", "entity_leads")


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
    body = "|".join(fragment.replace(" ", r"\s+") for fragment in folded)
    return rf"(?<!\w)(?:{body})" + (r"(?!\w)" if whole else "")


@cache
def _compiled(kind: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    whole = kind != "entity_leads"
    return tuple(
        (language, re.compile(words_pattern(getattr(lexicon, kind), whole=whole)))
        for language, lexicon in LEXICONS.items()
    )


def find_cues(folded: str, kind: str) -> list[Cue]:
    """Every ``kind`` cue of every language in ``folded`` (a :func:`fold`-ed query)."""
    return [
        Cue(kind, language, match.start(), match.end())
        for language, pattern in _compiled(kind)
        for match in pattern.finditer(folded)
    ]


def warm_up() -> None:
    """Compile every pattern now rather than on the first query."""
    for kind in KINDS:
        _compiled(kind)
