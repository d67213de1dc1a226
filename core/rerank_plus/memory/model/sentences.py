"""Sentence splitting for summaries, contexts and judging: fast, rule-based, multilingual.

A sentence ends at ``.``, ``!``, ``?`` or an ellipsis followed by white space, at the CJK full
stop, exclamation and question marks (U+3002, U+FF01, U+FF1F) with or without space after them,
and at a line break. Transcripts that put a space before the mark ("Yeah .") split the same
way. Abbreviations may split early; the summarizer and the judges only need sentence-sized
pieces, never a parse.
"""

from __future__ import annotations

import re

from rerank_plus.analysis.script import (
    IDEOGRAPHIC_LETTER,
    LETTERS_PER_WORD,
    UNSPACED_LETTER,
    has_unspaced,
)

_BOUNDARY = re.compile(r"(?<=[.!?\u2026])\s+|(?<=[\u3002\uff01\uff1f])\s*|\s*\n+\s*")


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, stripped, empty ones dropped.

    >>> split_sentences("We agreed . Price is 25 Euros! OK?  Fine")
    ['We agreed .', 'Price is 25 Euros!', 'OK?', 'Fine']
    """
    return [piece.strip() for piece in _BOUNDARY.split(text) if piece and piece.strip()]


def word_count(text: str) -> int:
    """Words as white space separates them; in scripts written without spaces, a letter of Han
    or Kana and every :data:`~rerank_plus.analysis.script.LETTERS_PER_WORD` letters of the
    others (Thai, Lao, Khmer ...) count as a word: the unit budgets are compared in across
    methods and window sizes are measured in, so that a Chinese or Thai message is not one word.

    >>> word_count("Budget approved: 40k"), word_count("预算已批准 OK")
    (3, 6)
    """
    if not has_unspaced(text):
        return len(text.split())
    return unspaced_words(text) + len(UNSPACED_LETTER.sub(" ", text).split())


def unspaced_words(text: str) -> int:
    """The words of ``text``'s letters of scripts written without spaces, as
    :func:`word_count` counts them."""
    letters = len(UNSPACED_LETTER.findall(text))
    ideographic = len(IDEOGRAPHIC_LETTER.findall(text))
    return ideographic + -(-(letters - ideographic) // LETTERS_PER_WORD)
