"""What a method hands back for one query, and the word budget every method is held to.

The contract is ``method.context(meeting, query, words) -> str``: at most ``words`` words,
pieces (windows, turns, sentences, summaries) separated by a blank line in the method's order,
the most relevant first. A method may instead return a :class:`MethodContext`, which also
carries the pieces explicitly and what the policy reports (intent, tokens per block and
level).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rerank_plus.memory.model.sentences import word_count

PIECE_SEPARATOR = "\n\n"
_BLANK_LINE = re.compile(r"\n\s*\n")


@dataclass(frozen=True, slots=True)
class MethodContext:
    """One method's context for one query: the text, its pieces in the method's order, and
    (for the policy) its intent and the tokens it spent per block and per level."""

    text: str
    pieces: tuple[str, ...]
    intent: str | None = None
    tokens_by_block: Mapping[str, int] = field(default_factory=dict)
    tokens_by_level: Mapping[str, int] = field(default_factory=dict)
    details: Mapping[str, Any] = field(default_factory=dict)


def as_method_context(value: Any, method: str) -> MethodContext:
    """A method's return value as a :class:`MethodContext` (a str is split into pieces at its
    blank lines)."""
    if isinstance(value, MethodContext):
        return value
    if isinstance(value, str):
        pieces = tuple(p.strip() for p in _BLANK_LINE.split(value) if p.strip())
        return MethodContext(value, pieces)
    raise TypeError(
        f"method {method!r} returned {type(value).__name__}; context() must return a str (pieces "
        "separated by blank lines) or a MethodContext."
    )


def truncate_words(text: str, words: int) -> str:
    """The first ``words`` words of ``text`` as
    :func:`~rerank_plus.memory.model.sentences.word_count` counts them, cut at a word boundary
    (lines kept); in scripts written without spaces, inside a run of letters (a Chinese window is
    one run, and is many words).

    >>> truncate_words("Ben: one two\\nAnna: three four", 4)
    'Ben: one two\\nAnna:'
    >>> truncate_words("预算已批准 OK", 3)
    '预算已'
    """
    if word_count(text) <= words:
        return text.strip()
    kept: list[str] = []
    left = words
    for line in text.split("\n"):
        size = word_count(line)
        if size <= left:
            if size:
                kept.append(line.strip())
                left -= size
            continue
        tokens: list[str] = []
        for token in line.split():
            size = word_count(token)  # a sum over tokens never counts fewer than the whole
            if size > left:
                tokens.append(_head_within(token, left))
                break
            tokens.append(token)
            left -= size
        kept.append(" ".join(token for token in tokens if token))
        break
    return "\n".join(line for line in kept if line)


def _head_within(token: str, words: int) -> str:
    """The longest start of ``token`` that counts at most ``words`` words (a run of letters
    of a script written without spaces is cut between letters; a prefix never counts more
    than a longer one)."""
    return token[
        : bisect_right(range(1, len(token) + 1), words, key=lambda end: word_count(token[:end]))
    ]


def fill(pieces: Iterable[str], words: int) -> list[str]:
    """Pieces in order while they fit in ``words`` words; the first that does not fit is
    truncated at a word boundary and ends the context.

    >>> fill(["one two", "three four five", "six"], 4)
    ['one two', 'three four']
    """
    kept: list[str] = []
    left = words
    for piece in pieces:
        size = word_count(piece)
        if not size:
            continue
        if size > left:
            if left > 0:
                kept.append(truncate_words(piece, left))
            break
        kept.append(piece)
        left -= size
    return kept


def join_pieces(pieces: Iterable[str]) -> str:
    return PIECE_SEPARATOR.join(pieces)
