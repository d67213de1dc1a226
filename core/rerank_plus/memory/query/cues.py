"""The lexicons compiled once into one pattern per kind and language, and the cues a query holds.

Short queries are where language detection is least reliable ("latest" alone, "seit
gestern"), so every language's cues are tried on every query; a cue also tells which language
it is in, which the analysis uses when detection is unsure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from rerank_plus.analysis.script import script_class
from rerank_plus.memory.query.deferred import DeferredPattern
from rerank_plus.memory.query.folding import WORD_CHARACTER, fold
from rerank_plus.memory.query.lexicon import LEXICONS, Lexicon
from rerank_plus.memory.query.lexicon.schema import INTENT_CUES, SHAPE_CUES

#: The kinds of cue matched as plain word lists (see :class:`.lexicon.Lexicon`).
KINDS = (*INTENT_CUES, *SHAPE_CUES)


@dataclass(frozen=True, slots=True)
class Cue:
    """One cue found in the folded query: its kind, language and span."""

    kind: str
    language: str
    start: int
    end: int


def words_pattern(
    fragments: tuple[str, ...] | list[str], *, whole: bool = True, apart: bool = True
) -> str:
    """One alternation matching any fragment from a word's start (a space allows any
    whitespace), and to a word's end unless ``whole`` is False (entity leads end with the space
    before the name). Where words are not written ``apart`` (Chinese, Japanese, Thai) a word
    boundary never falls inside a run of letters, so only digits bound the match."""
    folded = sorted({fold(fragment) for fragment in fragments}, key=len, reverse=True)
    body = "|".join(spaced(fragment) for fragment in folded)
    before, after = (
        (rf"(?<!{WORD_CHARACTER})", rf"(?!{WORD_CHARACTER})") if apart else (r"(?<!\d)", r"(?!\d)")
    )
    return rf"{before}(?:{body})" + (after if whole else "")


def lexicon_pattern(
    lexicons: list[Lexicon], fragments: Callable[[Lexicon], tuple[str, ...]], *, whole: bool = True
) -> str:
    """:func:`words_pattern` of the ``fragments`` of ``lexicons``, each bounded as its language
    is written (spaced or not); a pattern that never matches when there are none."""
    return (
        "|".join(
            words_pattern(found, whole=whole, apart=apart)
            for apart in (True, False)
            if (found := [f for lex in lexicons if lex.spaced is apart for f in fragments(lex)])
        )
        or r"(?!)"
    )


def spaced(fragment: str) -> str:
    """A fragment's spaces as whitespace: " ?" any or none, " " one or more."""
    return fragment.replace(" ?", r"\s*").replace(" ", r"\s+")


@dataclass(frozen=True)
class _Group:
    """The ``kind`` cues of the languages written in one script, as one pattern (one scan of
    the query), each language's own (which say whose a match is), and the script's letters,
    without which the group is not tried (None: always tried)."""

    script: re.Pattern[str] | None
    merged: DeferredPattern
    languages: tuple[tuple[str, DeferredPattern], ...]


@cache
def _compiled(kind: str) -> tuple[_Group, ...]:
    """The ``kind`` cues, one group per script."""
    whole = kind not in ("entity_leads", "name_leads")

    def of_kind(lexicon: Lexicon) -> tuple[str, ...]:
        return tuple(getattr(lexicon, kind))

    scripts = dict.fromkeys(lexicon.script for lexicon in LEXICONS.values())
    groups = []
    for script in scripts:
        members = {code: lex for code, lex in LEXICONS.items() if lex.script == script}
        groups.append(
            _Group(
                re.compile(script_class(script)) if script else None,
                DeferredPattern(lexicon_pattern(list(members.values()), of_kind, whole=whole)),
                tuple(
                    (code, DeferredPattern(lexicon_pattern([lexicon], of_kind, whole=whole)))
                    for code, lexicon in members.items()
                    if of_kind(lexicon)
                ),
            )
        )
    return tuple(groups)


def find_cues(folded: str, kind: str) -> list[Cue]:
    """Every ``kind`` cue in ``folded`` (a :func:`fold`-ed query), once per language it is a
    cue of ("meeting" is English and German), in the query's order."""
    plain = folded.isascii()  # most queries, once folded: no letter of any other script
    found = [
        Cue(kind, language, match.start(), match.end())
        for group in _compiled(kind)
        if group.script is None or (not plain and group.script.search(folded))
        for match in group.merged.finditer(folded)
        for language, pattern in group.languages
        if _same_span(pattern.match(folded, match.start()), match.end())
    ]
    return sorted(found, key=lambda cue: cue.start)


def _same_span(match: re.Match[str] | None, end: int) -> bool:
    """Whether ``match`` ends at ``end`` (matched in the whole text, so that a cue's lookahead
    still sees what follows it)."""
    return match is not None and match.end() == end


def warm_up() -> None:
    """Compile every pattern now rather than on the first query."""
    for kind in KINDS:
        for group in _compiled(kind):
            for pattern in (group.merged, *(pattern for _, pattern in group.languages)):
                pattern.compiled  # noqa: B018  (compiles it)
