"""What retrieval reads from a memory, computed once per memory version.

Per level: the items, their embeddings as one matrix (from ``item.embedding`` or embedded once),
and an inverted index of analyzed terms, so a query finds its candidates without scoring every
item; one BM25 fitted on the whole memory gives the light reranker collection-wide IDF. The
tables are built by :class:`~rerank_plus.memory.index.updater.IndexUpdater`, which after a
change (``MemoryWriter.add``) takes over what the previous index read of the items left alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from functools import cached_property
from typing import Any

import numpy as np

from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.language import dominant_language, resolve_languages
from rerank_plus.memory.index import item_readings, tables
from rerank_plus.memory.index.dense_trust import message_likeness
from rerank_plus.memory.index.item_readings import BoostKey
from rerank_plus.memory.index.level import LevelIndex, band, level_tables
from rerank_plus.memory.index.salience import salience
from rerank_plus.memory.index.tables import Reading
from rerank_plus.memory.index.text_cache import TextCache
from rerank_plus.memory.index.updater import IndexUpdater, Previous
from rerank_plus.memory.ingest.embedding import Embedder
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.query.specificity import Vocabulary
from rerank_plus.scoring.bm25 import BM25Reranker, lucene_idf

__all__ = ["LevelIndex", "MemoryIndex", "band"]


class MemoryIndex:
    """Embeddings and term postings of every level, and a BM25 fitted on the whole memory."""

    def __init__(
        self,
        memory: Memory,
        embedder: Embedder | None,
        analyzer: Analyzer,
        previous: Previous | None = None,
    ) -> None:
        """``previous``: the index of the same memory before a change (``MemoryWriter.add``), whose
        readings of the items the change left alone are kept."""
        self.memory = memory
        self.version = memory.version
        self.analyzer = analyzer
        self.embedder = embedder
        self.items = items = memory.items
        update = IndexUpdater(memory, analyzer, previous)
        self.search_texts = update.search_texts()
        texts = [self.search_texts[item.id] for item in items]
        self._detect_languages(texts)
        # what the light stage's BM25 reads of each item, kept so that a candidate pool is
        # scored without analyzing its items again (see :meth:`pool_terms`); an item searched
        # by the same text in the same language as in ``previous`` keeps its reading
        self.item_terms: dict[str, Reading] = update.read_terms(texts, self.languages)
        #: the items read anew, not taken over from ``previous``
        self.fresh: list[MemoryItem] = update.fresh
        self.bm25 = BM25Reranker(analyzer=analyzer)
        #: the sum of the items' term counts (what ``fit(texts)`` reads)
        self.total_length = update.fit_bm25(self.bm25) if any(text.strip() for text in texts) else 0
        self.content_terms: dict[str, int] = update.content_terms()
        statistics = self.bm25.statistics
        self.document_frequency = statistics.document_frequency if statistics else {}
        self.n_items = len(items)
        #: one unit row per item, level by level (each level's rows are a view of it)
        self.vectors = vectors = update.vectors(self.embedder)
        self.vector_by_text = {} if vectors is None else dict(zip(texts, vectors, strict=True))
        self.levels: list[LevelIndex] = level_tables(memory, vectors, update.postings)
        self._read_chronology(update)
        self._text_caches: dict[int, TextCache]
        self._sentence_terms: dict[str, tuple[frozenset[str], ...]]
        self._text_caches, self._sentence_terms = update.kept_readings(self.sections)
        self._names: dict[str, str] = {}
        self._boost_fields: dict[tuple[bool, bool], dict[str, Mapping[str, Any]]] = {}
        self._shared_fields: dict[BoostKey, Mapping[str, Any]] = {}

    def _detect_languages(self, texts: Sequence[str]) -> None:
        """Each item's detection and language, and what the languages' resolution read."""
        analyzer, items = self.analyzer, self.items
        # each item's detection, kept so that a candidate pool resolves its languages without
        # asking the analyzer's cache again (as ``analyzer.languages_for("", texts)`` would)
        query_detection, *detections = analyzer.detect_many(["", *texts])
        self.detections = dict(zip((item.id for item in items), detections, strict=True))
        _, languages = resolve_languages(query_detection, detections, analyzer.default_language)
        self.languages = languages
        # what that resolution read: the memory's most frequent reliable language (the fallback
        # of the items not reliably detected; None where no item is), and each item's language
        # where its own detection decides it (None where it falls back)
        self.dominant_language = dominant_language(detections)
        self.reliable_languages = {
            item.id: detection.language if detection.reliable and detection.language else None
            for item, detection in zip(items, detections, strict=True)
        }

    def _read_chronology(self, update: IndexUpdater) -> None:
        """Who and what the memory names, when it was said, and where each item sits."""
        memory = self.memory
        # the names and days of the messages: ``previous``'s and the new ones' after an add
        self.message_names: dict[str, None]
        self.message_days: set[date]
        self.message_names, self.message_days = update.message_names_and_days()
        #: speakers and entity names: what a query may name
        self.known_entities = tuple(
            {**self.message_names, **tables.entities(self.items[len(memory.messages) :])}
        )
        #: each covered message's window (what a region reads of its best message)
        self.window_of = {cover: window for window in memory.level(1) for cover in window.covers}
        self.timed = bool(self.message_days)
        self.spans_days = len(self.message_days) > 1
        self.span_starts = tables.span_starts(self.items)
        #: what a coverage fill reads as the part of the conversation of each window and message
        self.sections = tables.sections(memory)

    def names_text(self, item: MemoryItem) -> str:
        """What an item says of names, case-folded: its searched text, speaker, tags and
        entities, and for a window the speakers of its messages (cached)."""
        found = self._names.get(item.id)
        if found is None:
            searched = self.search_texts[item.id]
            found = self._names[item.id] = item_readings.names_text(item, self.memory, searched)
        return found

    def boost_fields(self, item: MemoryItem, named: bool, timed: bool) -> Mapping[str, Any]:
        """The metadata the light stage's boosts read of ``item``: its band, whether it names
        an entity of the question, its time when ``timed`` (kept per item, read-only). Items
        that read alike share one mapping, so the pipeline computes their boost product once."""
        table = self.boost_table(named, timed)
        found = table.get(item.id)
        if found is None:
            key = item_readings.boost_key(item, self.memory.depth, named, timed)
            found = self._shared_fields.get(key)
            if found is None:
                found = self._shared_fields[key] = item_readings.boost_fields(key)
            table[item.id] = found
        return found

    def boost_table(self, named: bool, timed: bool) -> dict[str, Mapping[str, Any]]:
        """:meth:`boost_fields` already made, by item id: a pool reads most of them here."""
        key = (named, timed)
        table = self._boost_fields.get(key)
        if table is None:
            table = self._boost_fields[key] = {}
        return table

    def pool_terms(
        self, languages: Sequence[str], items: Sequence[MemoryItem]
    ) -> tuple[list[Mapping[str, int]], list[int]]:
        """Term counts and lengths of ``items``, each analyzed in its ``languages`` entry: the
        index's own analysis when the language is the one the index chose, else analyzed now
        (a candidate pool may resolve a short item to another language)."""
        frequencies: list[Mapping[str, int]] = []
        lengths: list[int] = []
        for item, language in zip(items, languages, strict=True):
            own_language, counts, length = self.item_terms[item.id]
            if language != own_language:
                analysis = self.analyzer.analyze(self.search_texts[item.id], language)
                counts, length = analysis.term_frequencies, len(analysis.terms)
            frequencies.append(counts)
            lengths.append(length)
        return frequencies, lengths

    @cached_property
    def salience(self) -> dict[str, float]:
        """Each term's coverage weight (:func:`~rerank_plus.memory.context.coverage.salience`), from
        the messages that use it."""
        messages = self.levels[0].postings if self.levels else {}
        return salience({term: len(found) for term, found in messages.items()})

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """How many messages use each term, a message's speaker counting as a word of it (in a
        chat of two, each name is in half the messages): what tells a question's common words
        from the ones that narrow it (:mod:`rerank_plus.memory.query.specificity`)."""
        messages = self.memory.messages
        speakers: dict[str, frozenset[str]] = {}
        counts: Counter[str] = Counter()
        for item in messages:
            terms = self.item_terms[item.id][1].keys()
            if not item.speaker:
                counts.update(terms)
                continue
            found = speakers.get(item.speaker)
            if found is None:
                found = speakers[item.speaker] = frozenset(
                    self.analyzer.analyze(item.speaker).terms
                )
            counts.update(found.union(terms))
        return Vocabulary(len(messages), counts)

    @cached_property
    def message_likeness(self) -> float | None:
        """How alike two different messages' embeddings are on average (None without them):
        see :mod:`rerank_plus.memory.index.dense_trust`."""
        return message_likeness(self.levels[0].vectors if self.levels else None)

    @cached_property
    def peak_salience(self) -> float:
        """The weight of the memory's most used term: what a section of the conversation not
        shown yet is worth to a coverage fill (see
        :func:`~rerank_plus.memory.context.coverage.pick`)."""
        return max(self.salience.values(), default=0.0)

    @cached_property
    def places(self) -> dict[str, float]:
        """Where each message and window sits in the conversation, 0 the first message and 1
        the last (a window at the mean of its messages'): the timeline a broad question's
        context is spread over (see :class:`~rerank_plus.memory.context.coverage.Timeline`)."""
        return tables.places(self.memory)

    @cached_property
    def session_starts(self) -> frozenset[int]:
        """The messages that start a session (see :func:`.tables.session_starts`): a quoted
        stretch breaks there."""
        return tables.session_starts(self.memory)

    def sentence_terms(self, item: MemoryItem) -> tuple[frozenset[str], ...]:
        """The analyzed terms of each of ``item``'s sentences, in its own language
        (:func:`~rerank_plus.memory.index.item_readings.sentence_terms`); kept for every
        later query."""
        found = self._sentence_terms.get(item.id)
        if found is None:
            language = self.item_terms[item.id][0]
            found = item_readings.sentence_terms(self.analyzer, item.text, language)
            self._sentence_terms[item.id] = found
        return found

    def text_cache(self, counter: Callable[[str], int]) -> TextCache:
        """Sentences and token counts kept across queries, one cache per token counter."""
        cache = self._text_caches.get(id(counter))
        if cache is None or cache.counter is not counter:
            cache = self._text_caches[id(counter)] = TextCache(counter)
        return cache

    def idf(self, term: str) -> float:
        """The term's Lucene IDF over every item of the memory (what the BM25 fitted reads)."""
        return lucene_idf(self.n_items, self.document_frequency.get(term, 0))

    def lexical_scores(self, level: int, terms: Sequence[str]) -> np.ndarray:
        """Per position at ``level``, the summed IDF of the query terms it holds (0: none): a
        candidate generator, not a score (BM25 scores the candidates). IDF is always positive,
        so a position holds a term exactly when its sum is above 0."""
        postings = self.levels[level].postings
        sums = np.zeros(len(self.levels[level].items))
        for term in dict.fromkeys(terms):
            positions = postings.get(term)
            if positions is not None:
                sums[positions] += self.idf(term)
        return sums

    @staticmethod
    def top_lexical(sums: np.ndarray, limit: int) -> list[int]:
        """The ``limit`` positions with the highest summed IDF (``lexical_scores``), best first,
        ties to the earlier position."""
        held = np.flatnonzero(sums)
        if len(held) > limit:
            values = sums[held]
            kth = np.partition(values, len(values) - limit)[len(values) - limit]
            held = held[values >= kth]  # every top-limit position, and its ties
        return held[np.argsort(-sums[held], kind="stable")[:limit]].tolist()

    @staticmethod
    def top_dense(cosines: np.ndarray | None, limit: int) -> list[int]:
        """The ``limit`` positions closest to the query (none without embeddings), ties to the
        earlier position; ``cosines`` is :meth:`dense`'s row for the level."""
        if cosines is None:
            return []
        if len(cosines) > limit:
            best = np.argpartition(-cosines, limit - 1)[:limit]
        else:
            best = np.arange(len(cosines))
        best = np.sort(best)  # then a stable sort by cosine keeps ties in position order
        return best[np.argsort(-cosines[best], kind="stable")].tolist()

    def dense(
        self, level: int, query_vector: np.ndarray | None, at: np.ndarray | None = None
    ) -> np.ndarray | None:
        """Cosine of the query with every item of ``level``, or with the positions ``at`` only
        (None without embeddings)."""
        vectors = self.levels[level].vectors
        if vectors is None or query_vector is None or vectors.shape[1] != query_vector.shape[0]:
            return None
        # einsum, not BLAS: a matrix-vector product this small costs more in BLAS's thread
        # start-up than in arithmetic, and far more on a busy machine. Each row's product is
        # computed alone, so the cosines of a few rows equal those of the whole level.
        return np.einsum("ij,j->i", vectors if at is None else vectors[at], query_vector)
