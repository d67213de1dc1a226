"""Sentences, their folded forms and token counts of memory items, computed once per item.

Composition reads the same candidates query after query; the index keeps one cache per token
counter, so a sentence is split, folded and counted once.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rerank_plus.memory.items import MemoryItem
from rerank_plus.memory.sentences import split_sentences

_FOLD = re.compile(r"[\W_]+")

#: Token counts kept at most (lines of a context; a memory has far fewer distinct ones).
MAX_COUNTS = 200_000


def fold(sentence: str) -> str:
    """A sentence as the no-repeat rule compares it: case and punctuation folded."""
    return _FOLD.sub(" ", sentence.casefold()).strip()


class TextCache:
    """Per item, its sentences with their folded forms; per line, its token count."""

    def __init__(self, counter: Callable[[str], int]) -> None:
        self.counter = counter
        self._sentences: dict[str, tuple[tuple[str, str], ...]] = {}
        self._tokens: dict[str, int] = {}

    def sentences(self, item: MemoryItem) -> tuple[tuple[str, str], ...]:
        found = self._sentences.get(item.id)
        if found is None:
            found = tuple((s, fold(s)) for s in split_sentences(item.text))
            self._sentences[item.id] = found
        return found

    def tokens(self, text: str) -> int:
        found = self._tokens.get(text)
        if found is None:
            found = self.counter(text)
            if len(self._tokens) < MAX_COUNTS:
                self._tokens[text] = found
        return found
