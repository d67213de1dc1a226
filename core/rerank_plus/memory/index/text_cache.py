"""Sentences, their folded forms and token counts of memory items, computed once per item.

Composition reads the same candidates query after query; the index keeps one cache per token
counter, so a sentence is split, folded and counted once, and an item shown in part (its
sentences already shown elided) is elided and counted once for a given set of those.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Hashable, Iterable
from typing import Any, TypeVar

from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.sentences import split_sentences

_FOLD = re.compile(r"[\W_]+")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: Token counts kept at most (lines of a context; a memory has far fewer distinct ones).
MAX_COUNTS = 200_000
#: Elided texts kept at most (an item less the sentences a context showed before it).
MAX_ELIDED = 100_000


def copy_without(table: dict[K, V], keys: Iterable[K]) -> dict[K, V]:
    """A copy of ``table`` less ``keys``. Copied at once: a question still reading the
    previous index may be adding to it in another thread (a dict's copy is made at once, an
    iteration is not)."""
    found = table.copy()
    for key in keys:
        found.pop(key, None)
    return found


def fold(sentence: str) -> str:
    """A sentence as the no-repeat rule compares it: case and punctuation folded."""
    return _FOLD.sub(" ", sentence.casefold()).strip()


class TextCache:
    """Per item, its sentences with their folded forms (and those forms as a set); per line, its
    token count."""

    def __init__(self, counter: Callable[[str], int]) -> None:
        self.counter = counter
        self._sentences: dict[str, tuple[tuple[str, str], ...]] = {}
        self._folded: dict[str, frozenset[str]] = {}
        self._whole: dict[str, str] = {}
        self._tokens: dict[Hashable, int] = {}
        self._tables: dict[Hashable, dict[str, Any]] = {}
        self._item_tables: set[Hashable] = set()
        self._elided: dict[tuple[str, frozenset[str]], tuple[str, int]] = {}
        #: per item id, its keys in ``_tokens`` and ``_elided``; the lists are shared with
        #: the caches carried from this one, so a list may name keys a table lacks (dropping
        #: one of those does nothing)
        self._item_keys: dict[str, list[Any]] = {}

    def carried(self, stale: Collection[str], unsettled: Collection[str]) -> TextCache:
        """A cache for the memory after a change, holding what this one knows of every item
        but the ``stale`` ones (replaced or removed; the others are the same item objects:
        same text, level, index, time, speaker): after ``MemoryWriter.add`` only the new message and
        the summaries it touched are read again. A table of facts that depend on an item's
        place in the memory too (its language, its section) also drops the ``unsettled``
        items, whose place changed. Costs copies of the tables and the stale items' entries."""
        fresh = TextCache(self.counter)
        fresh._sentences = copy_without(self._sentences, stale)
        fresh._folded = copy_without(self._folded, stale)
        fresh._whole = copy_without(self._whole, stale)
        fresh._tokens = self._tokens.copy()
        fresh._elided = self._elided.copy()
        # read after the copies: a key is listed before it is stored (see :meth:`_list`), so
        # every key they hold is listed by now
        fresh._item_keys = self._item_keys.copy()
        for item_id in stale:
            for key in tuple(fresh._item_keys.pop(item_id, ())):
                fresh._tokens.pop(key, None)
                fresh._elided.pop(key, None)
        fresh._tables = {
            name: copy_without(table, stale if name in self._item_tables else unsettled)
            for name, table in self._tables.copy().items()
        }
        fresh._item_tables = set(self._item_tables)
        return fresh

    def _list(self, key: tuple[Any, ...]) -> None:
        """List ``key`` (an item's id first) under its item, for :meth:`carried` to drop: one
        append to a list, so a question in another thread listing one too loses neither."""
        self._item_keys.setdefault(key[0], []).append(key)

    def sentences(self, item: MemoryItem) -> tuple[tuple[str, str], ...]:
        found = self._sentences.get(item.id)
        if found is None:
            found = tuple((s, fold(s)) for s in split_sentences(item.text))
            self._sentences[item.id] = found
        return found

    def folded(self, item: MemoryItem) -> frozenset[str]:
        """The folded forms of ``item``'s sentences: one set test tells whether any is shown."""
        found = self._folded.get(item.id)
        if found is None:
            found = self._folded[item.id] = frozenset(f for _, f in self.sentences(item))
        return found

    def whole(self, item: MemoryItem) -> str:
        """``item``'s text as a context shows it whole (stripped), one string per item."""
        found = self._whole.get(item.id)
        if found is None:
            found = self._whole[item.id] = item.text.strip()
        return found

    def tokens(self, text: str) -> int:
        found = self._tokens.get(text)
        if found is None:
            found = self.counter(text)
            if len(self._tokens) < MAX_COUNTS:
                self._tokens[text] = found
        return found

    def tokens_of(self, key: tuple[Any, ...], make: Callable[[], str]) -> int:
        """The token count of the text ``make`` builds, kept under ``key`` (an item's id and
        what of it is counted), so a known line is neither built nor hashed again."""
        found = self._tokens.get(key)
        if found is None:
            found = self.counter(make())
            if len(self._tokens) < MAX_COUNTS:
                self._list(key)
                self._tokens[key] = found
        return found

    def table(self, name: Hashable, of_item_alone: bool = False) -> dict[str, Any]:
        """What a composer derives of each item (its facts about it), by item id, kept under
        ``name`` for every later query: one lookup per candidate, no key built.
        ``of_item_alone``: the facts depend on the item and nothing else of the memory (see
        :meth:`carried`)."""
        found = self._tables.get(name)
        if found is None:
            found = self._tables[name] = {}
        if of_item_alone:
            self._item_tables.add(name)
        return found

    def elided(
        self, key: tuple[str, frozenset[str]], make: Callable[[], tuple[str, int]]
    ) -> tuple[str, int]:
        """An item's text less the sentences already shown, and its line's tokens, as ``make``
        gives them, kept under ``key`` (the item's id and which of its sentences were shown):
        the same overlaps (a window summary and the messages it quotes) recur query after
        query, and a new question mostly meets ones an earlier question made."""
        found = self._elided.get(key)
        if found is None:
            found = make()
            if len(self._elided) < MAX_ELIDED:
                self._list(key)
                self._elided[key] = found
        return found
