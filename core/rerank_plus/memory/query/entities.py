"""The names a query is about: the target of an entity question, known names, quoted strings
and capitalized names.

Known entities (speakers, the memory's entity names) are matched case- and accent-insensitively
as whole words and reported as the caller spelled them. A capitalized word counts only away
from the start of a sentence, and not in German, where every noun is capitalized, nor in a query
written in Title Case; words that carry no content (stop words, scope words like "Meeting",
times like "Monday") are never names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from rerank_plus.analysis.script import script_class
from rerank_plus.memory.query.folding import INNER_MARKS, fold
from rerank_plus.memory.query.lexicon import LEXICONS

#: A word: letters and digits, with the Thai and Devanagari vowel signs and marks inside it
#: (not ``\w``).
_WORD = re.compile(rf"\w[\w\u0e31\u0e34-\u0e3a\u0e47-\u0e4e{INNER_MARKS}]*")
#: A word as written: letters first, then letters, digits, inner apostrophes or hyphens.
_NAME_WORD = re.compile(r"[^\W\d_][\w]*(?:['\u2019\-][\w]+)*")
_QUOTED = (re.compile(r'"([^"]+)"'), re.compile(r"(?<!\w)'([^']+)'(?!\w)"))
#: What ends a sentence, or opens one inside another ("¿", a quotation).
_SENTENCE_MARKS = frozenset('.!?:;\u00bf\u00a1"\u00ab\u201c')
_POSSESSIVE = re.compile(r"['\u2019]s$", re.IGNORECASE)
#: Where an entity question's target stops: punctuation closing the clause.
_TARGET_END = re.compile(r"[?!.;,\n]")
#: Share of capitalized words past which a query is in Title Case (capitals say nothing).
TITLE_CASE_SHARE = 0.6
#: Languages that capitalize every noun.
CAPITALIZED_NOUNS = frozenset({"de", "lb"})

Span = tuple[int, int]


@dataclass(frozen=True)
class KnownNames:
    """Known names by their folded words ("project manager" -> "Project Manager"): a query's
    word n-grams are looked up, so thousands of names cost one lookup per n-gram, not one
    pattern alternative each."""

    spelled: dict[str, str]
    longest: int
    #: The names written in a script without spaces ("张伟"), looked up at every character of
    #: a run of letters (no word boundary falls inside it), and their lengths, longest first.
    inner: dict[str, str]
    inner_lengths: tuple[int, ...]

    def spelling(self, text: str) -> str | None:
        """The caller's spelling of ``text`` when it is a known name."""
        return self.spelled.get(_key(text))


def _key(text: str) -> str:
    return " ".join(_WORD.findall(fold(text)))


@lru_cache(maxsize=64)
def known_names(names: tuple[str, ...]) -> KnownNames:
    spelled: dict[str, str] = {}
    for name in names:
        key = _key(name)
        if key:
            spelled.setdefault(key, name.strip())
    inner = {key: name for key, name in spelled.items() if _unspaced_letter().search(key)}
    return KnownNames(
        spelled,
        max((key.count(" ") + 1 for key in spelled), default=0),
        inner,
        tuple(sorted({len(key) for key in inner}, reverse=True)),
    )


@cache
def _unspaced_letter() -> re.Pattern[str]:
    """A letter of a script written without spaces (Chinese, Japanese, Thai)."""
    return re.compile(
        script_class(script for lex in LEXICONS.values() if not lex.spaced for script in lex.script)
    )


def _trimmed(folded: str, start: int, end: int, empty: Callable[[str], bool]) -> Span:
    """``[start, end)`` without the words at either end that carry no content."""
    words = [m.span() for m in _WORD.finditer(folded, start, end)]
    while words and empty(folded[words[0][0] : words[0][1]]):
        words.pop(0)
    while words and empty(folded[words[-1][0] : words[-1][1]]):
        words.pop()
    if not words:
        return start, start
    return words[0][0], words[-1][1]


def target_entities(
    query: str,
    folded: str,
    leads: Iterable[Span],
    stops: Sequence[Span],
    empty: Callable[[str], bool],
) -> list[tuple[Span, str]]:
    """What follows each entity lead ("where do we talk about" -> "the budget"), up to the
    clause's end or a time expression, without leading and trailing words of no content."""
    found = []
    for _, lead_end in leads:
        end = len(folded)
        closing = _TARGET_END.search(folded, lead_end)
        if closing is not None:
            end = closing.start()
        for stop_start, _ in stops:
            if lead_end <= stop_start < end:
                end = stop_start
        start, end = _trimmed(folded, lead_end, end, empty)
        name = _POSSESSIVE.sub("", query[start:end].strip(" \"'"))
        if name:
            found.append(((start, end), name))
    return found


def preceding_entities(
    query: str,
    folded: str,
    trails: Iterable[Span],
    stops: Sequence[Span],
    empty: Callable[[str], bool],
) -> list[tuple[Span, str]]:
    """What stands before each entity trail ("预算" of "预算在哪里讨论过"), from the clause's
    start or the end of a ``stops`` span, without leading and trailing words of no content."""
    found = []
    for trail_start, _ in trails:
        start = max((m.end() for m in _TARGET_END.finditer(folded, 0, trail_start)), default=0)
        for _, stop_end in stops:
            if start < stop_end <= trail_start:
                start = stop_end
        start, end = _trimmed(folded, start, trail_start, empty)
        name = query[start:end].strip(" \"'")
        if name:
            found.append(((start, end), name))
    return found


def looks_like_a_name(
    query: str,
    span: Span,
    names: tuple[str, ...],
    quotes: Iterable[Span],
    *,
    first_word: bool = True,
) -> bool:
    """Whether the text at ``span`` is capitalized, inside ``quotes``, or a known name; a
    capital at the query's start counts only with ``first_word`` (a question capitalizes
    whatever opens it)."""
    start, end = span
    capital = query[start : start + 1].isupper() and (first_word or bool(query[:start].strip()))
    if capital or any(s <= start and end <= e for s, e in quotes):
        return True
    return known_names(names).spelling(query[start:end]) is not None


def spelled_as_known(name: str, names: tuple[str, ...]) -> str:
    """``name`` as the caller spelled it when it is one of the known ``names``."""
    return known_names(names).spelling(name) or name


def known_entities_in(folded: str, names: tuple[str, ...]) -> list[tuple[Span, str]]:
    """The known names in the query as whole words, the longest first where two overlap."""
    known = known_names(names)
    if not known.spelled:
        return []
    words = list(_WORD.finditer(folded))
    found: list[tuple[Span, str]] = []
    index = 0
    while index < len(words):
        for size in range(min(known.longest, len(words) - index), 0, -1):
            run = words[index : index + size]
            name = known.spelled.get(" ".join(word.group() for word in run))
            if name is not None:
                found.append(((run[0].start(), run[-1].end()), name))
                index += size
                break
        else:
            index += 1
    if known.inner and not folded.isascii():
        found += _inside_runs(folded, known, found)
    return sorted(found)


def _inside_runs(
    folded: str, known: KnownNames, taken: list[tuple[Span, str]]
) -> list[tuple[Span, str]]:
    """The names written without spaces inside runs of letters ("张伟说了什么"), the longest
    first at each character, none overlapping ``taken``."""
    found: list[tuple[Span, str]] = []
    start = 0
    while start < len(folded):
        for length in known.inner_lengths:
            span = (start, start + length)
            name = known.inner.get(folded[start : start + length])
            if name is not None and all(span[1] <= s or span[0] >= e for (s, e), _ in taken):
                found.append((span, name))
                start += length
                break
        else:
            start += 1
    return found


def quoted_entities(query: str, folded: str) -> list[tuple[Span, str]]:
    found = []
    for pattern in _QUOTED:
        for match in pattern.finditer(folded):
            text = query[match.start(1) : match.end(1)].strip()
            if text:
                found.append((match.span(1), text))
    return found


def capitalized_entities(
    query: str, blocked: Sequence[Span], empty: Callable[[str], bool]
) -> list[tuple[Span, str]]:
    """Runs of capitalized words away from a sentence's start (and acronyms anywhere), not
    inside ``blocked`` spans (times, cues), not made only of words without content."""
    words = list(_NAME_WORD.finditer(query))
    capitalized = [w for w in words if w.group()[0].isupper()]
    if len(words) >= 3 and len(capitalized) >= TITLE_CASE_SHARE * len(words):
        return []
    if query.isupper():
        return []
    runs: list[list[re.Match[str]]] = []
    previous_end = 0
    for word in words:
        text = word.group()
        at_start = previous_end == 0 or not _SENTENCE_MARKS.isdisjoint(
            query[previous_end : word.start()]
        )
        previous_end = word.end()
        if text.islower():  # most words: no capital, no name
            continue
        is_acronym = len(text) >= 2 and text.isupper()
        if not (is_acronym or (text[0].isupper() and not at_start) or _inner_capital(text)):
            continue
        if any(s <= word.start() < e for s, e in blocked):
            continue
        if runs and query[runs[-1][-1].end() : word.start()] in (" ", "-"):
            runs[-1].append(word)
        else:
            runs.append([word])
    found = []
    for run in runs:
        kept = list(run)
        while kept and empty(fold(kept[0].group())):
            kept.pop(0)
        while kept and empty(fold(kept[-1].group())):
            kept.pop()
        if kept:
            start, end = kept[0].start(), kept[-1].end()
            found.append(((start, end), _POSSESSIVE.sub("", query[start:end])))
    return found


def _inner_capital(word: str) -> bool:
    """ "iPhone", "SmartKom": a capital past the first letter marks a name anywhere."""
    return any(c.isupper() for c in word[1:]) and not word.isupper()


def outside(found: list[tuple[Span, str]], taken: Iterable[Span]) -> list[tuple[Span, str]]:
    """The names of ``found`` that overlap none of the ``taken`` spans."""
    taken = list(taken)
    return [
        (span, name) for span, name in found if all(span[1] <= s or span[0] >= e for s, e in taken)
    ]


def merge_entities(*groups: list[tuple[Span, str]]) -> tuple[str, ...]:
    """The names of every group, earlier groups first, each once (case- and accent-folded)."""
    unique: dict[str, str] = {}
    for group in groups:
        for _, name in group:
            unique.setdefault(re.sub(r"\s+", " ", fold(name)), name)
    return tuple(unique.values())
