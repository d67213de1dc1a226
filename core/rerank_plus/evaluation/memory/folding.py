"""How judges read text: case and punctuation folded, transcript markers out, words counted.

QMSum transcripts mark noises with braces (``{vocalsound}``, ``{disfmarker}``); they are not
words anyone said, so folding drops them. Everything that is not a letter or a digit becomes
a space, so ``"Price is 25 Euros!"`` and ``"price is 25 euros"`` read the same.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

from rerank_plus.analysis.script import UNSPACED_LETTER, has_unspaced
from rerank_plus.analysis.stopwords import stop_words
from rerank_plus.memory.model.sentences import split_sentences, word_count

#: A sentence counts for the judges when it has at least this many folded words.
MIN_SENTENCE_WORDS = 5

_MARKER = re.compile(r"\{[^{}\s]*\}")
_NOT_WORD = re.compile(r"[\W_]+")

#: What an English contraction leaves once apostrophes split words ("user's" -> "user", "s").
_CLITICS = frozenset({"s", "t", "d", "ll", "m", "re", "ve"})


def fold(text: str) -> str:
    """Case folded, markers out, every run of non-word characters one space.

    >>> fold("Yeah {vocalsound} , the Price is 25 Euros!")
    'yeah the price is 25 euros'
    """
    return _NOT_WORD.sub(" ", _MARKER.sub(" ", text).casefold()).strip()


def judged_sentences(text: str) -> list[str]:
    """The folded sentences of ``text`` with at least :data:`MIN_SENTENCE_WORDS` words: the
    units the judges look for in a context (shorter ones, "Yeah .", prove nothing)."""
    folded = (fold(sentence) for sentence in split_sentences(text))
    return [s for s in folded if word_count(s) >= MIN_SENTENCE_WORDS]


class FoldedContext:
    """A context folded once, so that many sentences can be looked up in it."""

    def __init__(self, text: str) -> None:
        self.padded = f" {fold(text)} "

    def __contains__(self, folded_sentence: str) -> bool:
        """Whether the sentence appears on word boundaries (so "art" is not in "start")."""
        return f" {folded_sentence} " in self.padded


@cache
def english_stop_words() -> frozenset[str]:
    """The project's English stop words (spaCy's list) with contraction remnants, folded."""
    return frozenset(fold(word) for word in stop_words("en")) | _CLITICS


def content_words(text: str) -> Counter[str]:
    """Folded words of ``text`` that are not English stop words, with their counts; in scripts
    written without spaces each letter is a word (ROUGE-1 on Chinese reads characters).

    >>> sorted(content_words("The user's remote, the remote!").items())
    [('remote', 2), ('user', 1)]
    >>> sorted(content_words("预算 OK").items())
    [('ok', 1), ('算', 1), ('预', 1)]
    """
    stop = english_stop_words()
    folded = fold(text)
    if has_unspaced(folded):
        folded = UNSPACED_LETTER.sub(lambda letter: f" {letter.group()} ", folded)
    return Counter(word for word in folded.split() if word not in stop)
