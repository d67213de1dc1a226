"""An index's tables after a change, from the index before it and the changed items alone.

``MemoryWriter.add`` appends a message and replaces the summaries on its path to the top; an index
built anew would read every item again (analyze, embed, fit). The updater reads the items the
change made (new or replacing) and takes the rest over from the previous index, table by table;
without a previous index it builds each table anew (:mod:`rerank_plus.memory.index.tables`).
Either way the tables are the same: the equivalence tests (``test_memory_index_after_add``)
compare them.

The previous index is read through :class:`Previous`, the plain data it holds, so this module
does not import the index.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from itertools import chain
from typing import Protocol

import numpy as np

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.index.embeddings import rows_since
from rerank_plus.memory.index.level import LevelIndex
from rerank_plus.memory.index.tables import (
    Reading,
    content_terms,
    entities,
    fit,
    join_covered,
    postings_of,
    read_terms,
    search_texts,
)
from rerank_plus.memory.index.text_cache import TextCache, copy_without
from rerank_plus.memory.index.updates import (
    changed_frequencies,
    changed_items,
    tail_postings,
    tail_start,
)
from rerank_plus.memory.ingest.embedding import Embedder
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.scoring.bm25 import BM25Reranker, CorpusStatistics

SentenceTerms = tuple[frozenset[str], ...]


class Previous(Protocol):
    """What the updater reads of the index before a change (a
    :class:`~rerank_plus.memory.index.memory_index.MemoryIndex`)."""

    @property
    def analyzer(self) -> Analyzer: ...
    @property
    def items(self) -> Sequence[MemoryItem]: ...
    @property
    def vectors(self) -> np.ndarray | None: ...
    @property
    def levels(self) -> Sequence[LevelIndex]: ...
    @property
    def search_texts(self) -> dict[str, str]: ...
    @property
    def item_terms(self) -> Mapping[str, Reading]: ...
    @property
    def bm25(self) -> BM25Reranker: ...
    @property
    def total_length(self) -> int: ...
    @property
    def content_terms(self) -> dict[str, int]: ...
    @property
    def message_names(self) -> dict[str, None]: ...
    @property
    def message_days(self) -> set[date]: ...
    @property
    def sections(self) -> Mapping[str, str]: ...
    @property
    def _text_caches(self) -> Mapping[int, TextCache]: ...
    @property
    def _sentence_terms(self) -> dict[str, SentenceTerms]: ...


class IndexUpdater:
    """The tables of an index of ``memory``, carried over from ``previous`` (the index of the
    same memory before a change) where the change left the items alone.

    Call :meth:`read_terms` first: the later tables read its :attr:`item_terms` and
    :attr:`fresh`.
    """

    def __init__(self, memory: Memory, analyzer: Analyzer, previous: Previous | None) -> None:
        self.memory = memory
        self.analyzer = analyzer
        self.previous = previous
        #: ``previous`` where it read with the same analyzer (its readings of terms hold)
        self.earlier = previous if previous is not None and previous.analyzer is analyzer else None
        self.gone: list[MemoryItem] = []
        self.made: list[MemoryItem] = list(memory.items)
        if previous is not None:
            self.gone, self.made = changed_items([level.items for level in previous.levels], memory)
        self.item_terms: dict[str, Reading] = {}
        #: the items read anew, not taken over from ``earlier``
        self.fresh: list[MemoryItem] = []

    def search_texts(self) -> dict[str, str]:
        """What each item is searched by (:func:`~rerank_plus.memory.index.tables.search_texts`):
        ``previous``'s, less the items gone, for what the items made since left alone: the
        other items and the windows whose messages are too."""
        memory, previous = self.memory, self.previous
        if previous is None:
            return search_texts(memory)
        found = copy_without(previous.search_texts, [item.id for item in self.gone])
        found.update((item.id, item.text) for item in self.made)
        redo = {item.id: item for item in self.made if item.level == 1}
        for item in chain(self.gone, self.made):
            if item.level == 0 and item.id in memory:
                redo.update((p.id, p) for p in memory.parents(item.id) if p.level == 1)
        join_covered(memory, tuple(redo.values()), found)
        return found

    def read_terms(self, texts: Sequence[str], languages: Sequence[str]) -> dict[str, Reading]:
        """Each item's :data:`~rerank_plus.memory.index.tables.Reading` of its search text in
        its language: ``earlier``'s where the item is searched by the same text in the same
        language, else read now (and the item counted :attr:`fresh`)."""
        earlier = self.earlier
        read_before: Mapping[str, Reading] = {} if earlier is None else earlier.item_terms
        searched_before: Mapping[str, str] = {} if earlier is None else earlier.search_texts
        for item, text, language in zip(self.memory.items, texts, languages, strict=True):
            held = read_before.get(item.id)
            if held is None or held[0] != language or searched_before[item.id] != text:
                held = read_terms(self.analyzer, text, language)
                self.fresh.append(item)
            self.item_terms[item.id] = held
        return self.item_terms

    def fit_bm25(self, bm25: BM25Reranker) -> int:
        """Fit ``bm25`` on every item's terms, as ``fit_analyzed`` does: from ``earlier``'s
        statistics, less its readings of the items read anew and plus the new ones, when
        every other item of ``earlier`` is still here with its reading; else on them all.
        Returns the total length (what the next index starts from)."""
        earlier = self.earlier
        statistics = None if earlier is None else earlier.bm25.statistics
        if earlier is not None and statistics is not None:
            before = earlier.item_terms
            replaced = [before[item.id] for item in self.fresh if item.id in before]
            if len(self.item_terms) - len(self.fresh) + len(replaced) == len(before):
                added = [self.item_terms[item.id] for item in self.fresh]
                total = (
                    earlier.total_length
                    - sum(held[2] for held in replaced)
                    + sum(held[2] for held in added)
                )
                frequencies = changed_frequencies(
                    statistics.document_frequency,
                    [held[1] for held in replaced],
                    [held[1] for held in added],
                )
                count = len(self.item_terms)
                bm25.statistics = CorpusStatistics(count, total / count, frequencies)
                return total
        return fit(bm25, self.item_terms.values())

    def content_terms(self) -> dict[str, int]:
        """Each item's count of distinct terms (:func:`~rerank_plus.memory.index.tables.
        content_terms`): ``previous``'s, less the items gone, for what was neither made nor
        read anew."""
        previous = self.previous
        found = copy_without(
            {} if previous is None else previous.content_terms, [item.id for item in self.gone]
        )
        found.update(
            (item.id, content_terms(item, self.item_terms[item.id]))
            for item in chain(self.made, self.fresh)
        )
        return found

    def postings(self, level: int, row: Sequence[MemoryItem]) -> dict[str, np.ndarray]:
        """Term -> positions in ``row`` (one level): ``earlier``'s, where the items before
        some position kept their objects and readings, updated from that position on."""
        earlier = self.earlier
        if earlier is not None and level < len(earlier.levels):
            before = earlier.levels[level].items
            start = min(
                [tail_start(row, before), *(i.index for i in self.fresh if i.level == level)]
            )
            if start > 0:
                return tail_postings(
                    earlier.levels[level].postings,
                    start,
                    [earlier.item_terms[item.id][1] for item in before[start:]],
                    [self.item_terms[item.id][1] for item in row[start:]],
                )
        return postings_of([self.item_terms[item.id][1] for item in row])

    def vectors(self, embedder: Embedder | None) -> np.ndarray | None:
        """One unit row per item (:func:`~rerank_plus.memory.index.embeddings.rows_since`):
        ``previous``'s rows kept, only the items made embedded."""
        previous, made = self.previous, {item.id for item in self.made}
        if previous is None:
            return rows_since(self.memory, embedder, made)
        return rows_since(self.memory, embedder, made, previous.items, previous.vectors)

    def message_names_and_days(self) -> tuple[dict[str, None], set[date]]:
        """The speakers and entity names of the messages (in order of first occurrence) and
        the days they were said on: ``previous``'s and the new ones' where a change only
        appended messages (the messages come first, so the names keep their order)."""
        added = self.memory.messages
        names: dict[str, None] = {}
        days: set[date] = set()
        previous = self.previous
        if previous is not None and previous.levels:
            before = previous.levels[0].items
            if tail_start(added, before) == len(before):
                added = added[len(before) :]
                names = dict(previous.message_names)
                days = set(previous.message_days)
        names.update(entities(added))
        days.update(item.time.date() for item in added if item.time is not None)
        return names, days

    def kept_readings(
        self, sections: Mapping[str, str]
    ) -> tuple[dict[int, TextCache], dict[str, SentenceTerms]]:
        """What ``previous`` read of the items still here as they were (all but the ones
        gone: replaced or removed), its text caches and sentence terms: their sentences and
        token counts and, where their language and ``sections`` are the same too, their
        sentences' terms and coverage candidates."""
        previous = self.previous
        if previous is None:
            return {}, {}
        stale = {item.id for item in self.gone}
        before = previous.sections
        unsettled = stale | {key for key, section in sections.items() if before.get(key) != section}
        unsettled |= before.keys() - sections.keys()
        unsettled.update(
            item.id
            for item in self.fresh
            if item.id in previous.item_terms
            and previous.item_terms[item.id][0] != self.item_terms[item.id][0]
        )
        caches = {
            key: cache.carried(stale, unsettled) for key, cache in previous._text_caches.items()
        }
        return caches, copy_without(previous._sentence_terms, unsettled)
