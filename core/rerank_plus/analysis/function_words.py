"""Function-word evidence: how many of a text's words are each language's stop words.

Running text is about a third function words ("the", "de", "und", "и"), and they are the words
that set one language apart from another written in the same script. Counting them costs a few
dictionary lookups per text, where a statistical detector compares character n-grams against
every candidate language (about a millisecond per text among the ~50 Latin-script languages).
The detector uses the count to confirm that a text is in its candidate set's language, and to
overrule n-gram guesses on texts whose function words say otherwise (lowercase technical
English taken for Catalan or Tagalog).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache, lru_cache
from itertools import chain

from rerank_plus.analysis.languages import profile
from rerank_plus.analysis.spacy_data import spacy_stop_words

#: A text agrees with a language when at least this many of its words are that language's
#: function words...
MIN_FUNCTION_WORDS = 2
#: ... and at least this share of its words (running text: 0.3-0.5 in the public sets, under
#: 0.2 in 1 to 5% of their texts; a title or a list of names: less, and lingua decides).
MIN_FUNCTION_WORD_SHARE = 0.2
#: The share of function words that backs an outlier text's own language (see ``backs``).
MIN_BACKING_SHARE = 0.1


#: A word of ASCII text (most text: a cheaper search than the one for every script).
_ASCII_WORD = re.compile("[a-z]+")


@cache
def _word_pattern() -> re.Pattern[str]:
    """A word: letters and the combining marks between them (no digits, no underscore); built
    on first use (reading the Unicode tables takes ~70 ms)."""
    return re.compile(f"[^\\W\\d_](?:[^\\W\\d_]|[{_mark_ranges()}])*")


def _mark_ranges() -> str:
    """A character class of the combining marks of the Basic Multilingual Plane: the vowel
    signs of Devanagari and its neighbours, the tone marks of Yoruba, which ``\\w`` leaves
    out, so that "है" would read as "ह" without them."""
    ranges: list[list[int]] = []
    for code in range(0x300, 0x10000):
        if unicodedata.category(chr(code)).startswith("M"):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "".join(f"{chr(a)}-{chr(b)}" if a < b else chr(a) for a, b in ranges)


def _key(word: str) -> str:
    # casefold() keeps the dot of a Turkish capital İ as a combining mark: drop it, as fold
    # does; NFC, so that a letter and its marks read the same however the text encodes them
    folded = word.casefold()
    if folded.isascii():
        return folded
    return unicodedata.normalize("NFC", folded.replace("i\u0307", "i"))


def _stop_words(code: str) -> frozenset[str]:
    if not profile(code).stop_words:
        return frozenset()
    return spacy_stop_words(code)


@lru_cache(maxsize=32)
def _with_lists(languages: tuple[str, ...]) -> frozenset[str]:
    return frozenset(code for code in languages if _stop_words(code))


@lru_cache(maxsize=32)
def _languages_of_word(languages: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Each stop word of ``languages`` -> the languages whose list has it."""
    owners: dict[str, list[str]] = {}
    for code in languages:
        for word in _stop_words(code):
            owners.setdefault(_key(word), []).append(code)
    return {word: tuple(codes) for word, codes in owners.items()}


def has_function_words(language: str, languages: tuple[str, ...]) -> bool:
    """Whether ``language`` is among ``languages`` and has a (non-empty) stop-word list."""
    return language in _with_lists(languages)


class FunctionWordCounts:
    """The function words of one text, counted per language of ``languages``."""

    __slots__ = ("counts", "words")

    def __init__(self, text: str, languages: tuple[str, ...]) -> None:
        owners = _languages_of_word(languages)
        key = _key(text)
        words = (_ASCII_WORD if key.isascii() else _word_pattern()).findall(key)
        self.words = len(words)
        # map and filter run in C: most of the cost of detecting a set whose texts all agree
        self.counts = Counter(chain.from_iterable(filter(None, map(owners.get, words))))

    def agrees_with(self, language: str) -> bool:
        """Whether the text is plainly in ``language``: enough of its words are its function
        words, and no other language has more of them (a tie between close languages, which
        share most function words, keeps ``language``)."""
        return self.supports(language) and self.counts[language] >= max(self.counts.values())

    def agreeing(self) -> list[str]:
        """The languages the text plainly agrees with (:meth:`agrees_with`): those with the
        most function words in it, when they are enough; several only on a tie."""
        if not self.counts:
            return []
        most = max(self.counts.values())
        leaders = [code for code, found in self.counts.items() if found == most]
        return [code for code in leaders if self.supports(code)]

    def shows(self, language: str) -> bool:
        """Whether some of the text's words (one at least, and a tenth of them) are function
        words of ``language``: running text in a language always shows some, a made-up string
        ("qzxv bkwp mrtl") shows none, whatever language a detector finds its letters close to."""
        return self.counts.get(language, 0) >= max(1.0, MIN_BACKING_SHARE * self.words)

    def backs(self, language: str, against: str) -> bool:
        """Whether a tenth of the text's words at least are function words of ``language``
        (half the share that agreeing asks: the text is an outlier, often short), and as many
        as of ``against`` at least (close languages share most of theirs: a tie backs either).
        A stray "de" in a list of names backs nothing."""
        found = self.counts.get(language, 0)
        enough = max(1.0, MIN_BACKING_SHARE * self.words)
        return found >= enough and found >= self.counts.get(against, 0)

    def supports(self, language: str) -> bool:
        """Whether enough of the text's words are function words of ``language``."""
        found = self.counts.get(language, 0)
        return found >= max(MIN_FUNCTION_WORDS, MIN_FUNCTION_WORD_SHARE * self.words)
