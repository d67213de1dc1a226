"""What retrieval reads from a memory, computed once per memory version.

Per level: the items, their embeddings as one matrix (from ``item.embedding`` or embedded once),
and an inverted index of analyzed terms, so a query finds its candidates without scoring every
item; one BM25 fitted on the whole memory gives the light reranker collection-wide IDF.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property
from itertools import accumulate, chain, pairwise
from types import MappingProxyType
from typing import Any

import numpy as np

from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.language import dominant_language, resolve_languages
from rerank_plus.memory.index.dense_trust import message_likeness
from rerank_plus.memory.index.salience import salience
from rerank_plus.memory.index.text_cache import TextCache, copy_without
from rerank_plus.memory.index.updates import (
    changed_frequencies,
    changed_items,
    postings,
    tail_postings,
    tail_start,
)
from rerank_plus.memory.ingest.embedding import Embedder
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.sentences import split_sentences
from rerank_plus.scoring.bm25 import BM25Reranker, CorpusStatistics


def band(level: int, depth: int) -> str:
    """What part of the hierarchy a level is: ``messages`` (L0), ``windows`` (L1), ``top`` (the
    highest summary level above L1) or ``upper`` (in between)."""
    if level == 0:
        return "messages"
    if level == 1:
        return "windows"
    return "top" if level == depth - 1 else "upper"


@dataclass
class LevelIndex:
    """One level's items, embeddings (unit rows, or None), and term -> item positions."""

    items: tuple[MemoryItem, ...]
    vectors: np.ndarray | None
    postings: dict[str, np.ndarray]
    position: dict[str, int]


class MemoryIndex:
    """Embeddings and term postings of every level, and a BM25 fitted on the whole memory."""

    def __init__(
        self,
        memory: Memory,
        embedder: Embedder | None,
        analyzer: Analyzer,
        previous: MemoryIndex | None = None,
    ) -> None:
        """``previous``: the index of the same memory before a change (``Memory.add``), whose
        readings of the items the change left alone are kept."""
        self.memory = memory
        self.version = memory.version
        self.analyzer = analyzer
        self.embedder = embedder
        self.items = items = memory.items
        gone, made = ([], list(items)) if previous is None else changed_items(previous, memory)
        self.search_texts = self._search_texts(memory, previous, gone, made)
        texts = [self.search_texts[item.id] for item in items]
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
        earlier = previous if previous is not None and previous.analyzer is analyzer else None
        # what the light stage's BM25 reads of each item, kept so that a candidate pool is
        # scored without analyzing its items again (see :meth:`pool_terms`); an item searched
        # by the same text in the same language as in ``earlier`` keeps its reading
        self.item_terms: dict[str, tuple[str, Mapping[str, int], int]] = {}
        #: the items read anew, not taken over from ``earlier``
        self.fresh: list[MemoryItem] = []
        read_before = {} if earlier is None else earlier.item_terms
        searched_before = {} if earlier is None else earlier.search_texts
        for item, text, language in zip(items, texts, languages, strict=True):
            held = read_before.get(item.id)
            if held is None or held[0] != language or searched_before[item.id] != text:
                counts = analyzer.analyze(text, language).term_frequencies
                held = (language, counts, sum(counts.values()))
                self.fresh.append(item)
            self.item_terms[item.id] = held
        self.bm25 = BM25Reranker(analyzer=analyzer)
        # what fit(texts) reads, read once; the sum of the items' term counts
        self._total_length = self._fit_bm25(earlier) if any(text.strip() for text in texts) else 0
        # previous's, less the items gone, for what was neither made nor read anew
        self.content_terms: dict[str, int] = copy_without(
            {} if previous is None else previous.content_terms, [item.id for item in gone]
        )
        self.content_terms.update(
            (item.id, len(self.item_terms[item.id][1]) if item.level == 0 else 0)
            for item in chain(made, self.fresh)
        )
        statistics = self.bm25.statistics
        self.document_frequency = statistics.document_frequency if statistics else {}
        self.n_items = len(items)
        vectors = self._vectors_since(previous, {item.id for item in made}, embedder)
        #: one unit row per item, level by level (each level's rows are a view of it)
        self.vectors = vectors
        self.vector_by_text = {} if vectors is None else dict(zip(texts, vectors, strict=True))
        self.levels: list[LevelIndex] = []
        start = 0
        for level in range(memory.depth):
            row = memory.level(level)
            block = None if vectors is None else vectors[start : start + len(row)]
            self.levels.append(
                LevelIndex(
                    row,
                    block,
                    self._postings(earlier, level, row),
                    {item.id: i for i, item in enumerate(row)},
                )
            )
            start += len(row)
        # the names and days of the messages: ``previous``'s and the new ones' where an add
        # appended messages (the messages come first, so the names keep their order)
        added = memory.messages
        self._message_names: dict[str, None] = {}
        self._message_days: set[date] = set()
        if previous is not None and previous.levels:
            before = previous.levels[0].items
            if tail_start(added, before) == len(before):
                added = added[len(before) :]
                self._message_names = dict(previous._message_names)
                self._message_days = set(previous._message_days)
        self._message_names.update(self._entities(added))
        self._message_days.update(item.time.date() for item in added if item.time is not None)
        #: speakers and entity names: what a query may name
        self.known_entities = tuple(
            {**self._message_names, **self._entities(items[len(memory.messages) :])}
        )
        #: each covered message's window (what a region reads of its best message)
        self.window_of = {cover: window for window in memory.level(1) for cover in window.covers}
        self.timed = bool(self._message_days)
        self.spans_days = len(self._message_days) > 1
        self.span_starts = self._span_starts(items)
        #: what a coverage fill reads as the part of the conversation of each window and message
        self.sections = self._sections(memory)
        self._text_caches: dict[int, TextCache] = {}
        self._sentence_terms: dict[str, tuple[frozenset[str], ...]] = {}
        if previous is not None:
            self._keep_readings(previous, {item.id for item in gone})
        self._names: dict[str, str] = {}
        self._boost_fields: dict[tuple[bool, bool], dict[str, Mapping[str, Any]]] = {}
        self._shared_fields: dict[tuple[str, bool, datetime | None], Mapping[str, Any]] = {}

    def _fit_bm25(self, earlier: MemoryIndex | None) -> int:
        """Fit the BM25 on every item's terms, as ``fit_analyzed`` does: from ``earlier``'s
        statistics, less its readings of the items read anew and plus the new ones, when
        every other item of ``earlier`` is still here with its reading; else on them all.
        Returns the total length (what the next index starts from)."""
        statistics = None if earlier is None else earlier.bm25.statistics
        if earlier is not None and statistics is not None:
            before = earlier.item_terms
            replaced = [before[item.id] for item in self.fresh if item.id in before]
            if len(self.item_terms) - len(self.fresh) + len(replaced) == len(before):
                added = [self.item_terms[item.id] for item in self.fresh]
                total = (
                    earlier._total_length
                    - sum(held[2] for held in replaced)
                    + sum(held[2] for held in added)
                )
                frequencies = changed_frequencies(
                    statistics.document_frequency,
                    [held[1] for held in replaced],
                    [held[1] for held in added],
                )
                count = len(self.item_terms)
                self.bm25.statistics = CorpusStatistics(count, total / count, frequencies)
                return total
        self.bm25.fit_analyzed([held[1] for held in self.item_terms.values()])
        return sum(held[2] for held in self.item_terms.values())

    def _postings(
        self, earlier: MemoryIndex | None, level: int, row: Sequence[MemoryItem]
    ) -> dict[str, np.ndarray]:
        """Term -> positions in ``row`` (one level): ``earlier``'s, where the items before
        some position kept their objects and readings, updated from that position on."""
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
        found = postings([self.item_terms[item.id][1] for item in row])
        return {term: np.array(at, dtype=np.intp) for term, at in found.items()}

    @staticmethod
    def _search_texts(
        memory: Memory,
        previous: MemoryIndex | None,
        gone: Sequence[MemoryItem],
        made: Sequence[MemoryItem],
    ) -> dict[str, str]:
        """What each item is searched by: a window summary (L1) by its text and the messages it
        covers (a summary keeps a few lines; the question may ask for any other), every other
        item by its own text. ``previous``'s, less the ``gone`` items, for what the items
        ``made`` since left alone: the other items and the windows whose messages are too."""
        if previous is None:
            found = {item.id: item.text for item in memory.items}
            windows = memory.level(1)
        else:
            found = copy_without(previous.search_texts, [item.id for item in gone])
            found.update((item.id, item.text) for item in made)
            redo = {item.id: item for item in made if item.level == 1}
            for item in chain(gone, made):
                if item.level == 0 and item.id in memory:
                    redo.update((p.id, p) for p in memory.parents(item.id) if p.level == 1)
            windows = tuple(redo.values())
        for window in windows:
            covered = [found[c] for c in window.covers if memory.get(c).level == 0]
            found[window.id] = "\n".join([window.text, *covered])
        return found

    def _vectors_since(
        self, previous: MemoryIndex | None, made: set[str], embedder: Embedder | None
    ) -> np.ndarray | None:
        """The rows of every item (:meth:`_vectors`, windows moved toward their messages):
        ``previous``'s rows for the items it held (a window unchanged covers the same
        messages, so its row is too), so an add embeds and averages only the items it
        ``made`` (new or replaced)."""
        items = self.items
        if previous is None or previous.vectors is None or not made or len(made) == len(items):
            return self._window_vectors(self.memory, self._vectors(items, embedder))
        kept = [n for n, item in enumerate(items) if item.id not in made]
        made_rows = [n for n, item in enumerate(items) if item.id in made]
        fresh = self._vectors([items[n] for n in made_rows], embedder)
        if fresh is None or fresh.shape[1] != previous.vectors.shape[1]:
            # rows that do not mix (new items without embeddings, another width): every row
            # made anew, which says what is wrong
            return self._window_vectors(self.memory, self._vectors(items, embedder))
        row_before = {item.id: row for row, item in enumerate(previous.items)}
        matrix = np.empty((len(items), fresh.shape[1]), dtype=np.float32)
        matrix[kept] = previous.vectors[[row_before[items[n].id] for n in kept]]
        matrix[made_rows] = fresh
        return self._window_vectors(self.memory, matrix, made)

    @staticmethod
    def _window_vectors(
        memory: Memory, vectors: np.ndarray | None, windows: Collection[str] | None = None
    ) -> np.ndarray | None:
        """Window rows moved toward their messages: the unit mean of the summary's vector and
        its covered messages' vectors, matching what :meth:`_search_texts` searches. Only the
        ``windows`` named, when given (the others' rows are moved already)."""
        if vectors is None or memory.depth < 2:
            return vectors
        row_of = {item.id: row for row, item in enumerate(memory.items)}
        out = vectors.copy()
        for window in memory.level(1):
            if windows is not None and window.id not in windows:
                continue
            rows = [row_of[window.id]] + [
                row_of[c] for c in window.covers if memory.get(c).level == 0
            ]
            mean = vectors[rows].mean(axis=0)
            out[row_of[window.id]] = mean / max(float(np.linalg.norm(mean)), 1e-12)
        return out

    def names_text(self, item: MemoryItem) -> str:
        """What an item says of names, case-folded: its searched text, speaker, tags and
        entities, and for a window the speakers of its messages (cached)."""
        found = self._names.get(item.id)
        if found is None:
            speakers = [item.speaker or ""]
            if item.level == 1:
                speakers += [self.memory.get(c).speaker or "" for c in item.covers]
            found = " ".join(
                [self.search_texts[item.id], *speakers, *item.tags, *item.entity_names]
            ).casefold()
            self._names[item.id] = found
        return found

    def boost_fields(self, item: MemoryItem, named: bool, timed: bool) -> Mapping[str, Any]:
        """The metadata the light stage's boosts read of ``item``: its band, whether it names
        an entity of the question, its time when ``timed`` (kept per item, read-only). Items
        that read alike share one mapping, so the pipeline computes their boost product once."""
        table = self.boost_table(named, timed)
        found = table.get(item.id)
        if found is None:
            moment = (item.end_time or item.time) if timed and item.time else None
            fields = (band(item.level, self.memory.depth), named, moment)
            found = self._shared_fields.get(fields)
            if found is None:
                found = self._shared_fields[fields] = MappingProxyType(
                    {
                        "band": fields[0],
                        "named": "yes" if named else "no",
                        **({"timestamp": moment} if moment else {}),
                    }
                )
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
        messages = self.memory.level(0)
        last = max(len(messages) - 1, 1)
        found = {message.id: message.index / last for message in messages}
        for window in self.memory.level(1):
            spots = [found[key] for key in window.covers if key in found]
            if spots:
                found[window.id] = sum(spots) / len(spots)
        return found

    @staticmethod
    def _sections(memory: Memory) -> dict[str, str]:
        """The part of the conversation each window and message belongs to: the summary right
        above its window (the window itself in a memory without one)."""
        found: dict[str, str] = {}
        for window in memory.level(1):
            parents = memory.parents(window.id)
            section = parents[0].id if parents else window.id
            found[window.id] = section
            found.update(dict.fromkeys(window.covers, section))
        return found

    def sentence_terms(self, item: MemoryItem) -> tuple[frozenset[str], ...]:
        """The analyzed terms of each of ``item``'s sentences (as :func:`split_sentences`
        cuts them), in its own language; kept for every later query. The item is analyzed
        once and its words' terms shared out to its sentences (a sentence is a run of whole
        words), unless the analysis reads the text whole (a trained pipeline): then each
        sentence is analyzed."""
        found = self._sentence_terms.get(item.id)
        if found is None:
            language = self.item_terms[item.id][0]
            sentences = split_sentences(item.text)
            pieces = self.analyzer.analyze(item.text, language).pieces
            sizes = [len(sentence.split()) for sentence in sentences]
            if len(pieces) == sum(sizes):  # one piece per word
                starts = [0, *accumulate(sizes)]
                found = tuple(
                    frozenset(term for piece in pieces[start:end] for term in piece[2])
                    for start, end in pairwise(starts)
                )
            else:
                found = tuple(
                    frozenset(self.analyzer.analyze(sentence, language).terms)
                    for sentence in sentences
                )
            self._sentence_terms[item.id] = found
        return found

    def _keep_readings(self, previous: MemoryIndex, stale: set[str]) -> None:
        """Take over what ``previous`` read of the items still here as they were (all but
        the ``stale`` ones: replaced or removed): their sentences and token counts and, where
        their language and section are the same too, their sentences' terms and coverage
        candidates."""
        sections, before = self.sections, previous.sections
        unsettled = stale | {key for key, section in sections.items() if before.get(key) != section}
        unsettled |= before.keys() - sections.keys()
        unsettled.update(
            item.id
            for item in self.fresh
            if item.id in previous.item_terms
            and previous.item_terms[item.id][0] != self.item_terms[item.id][0]
        )
        self._text_caches = {
            key: cache.carried(stale, unsettled) for key, cache in previous._text_caches.items()
        }
        self._sentence_terms = copy_without(previous._sentence_terms, unsettled)

    def text_cache(self, counter: Callable[[str], int]) -> TextCache:
        """Sentences and token counts kept across queries, one cache per token counter."""
        cache = self._text_caches.get(id(counter))
        if cache is None or cache.counter is not counter:
            cache = self._text_caches[id(counter)] = TextCache(counter)
        return cache

    @staticmethod
    def _entities(items: Sequence[MemoryItem]) -> dict[str, None]:
        """Speakers and entity names of ``items``, in order of first occurrence."""
        names: dict[str, None] = {}
        for item in items:
            if item.speaker:
                names[item.speaker] = None
            names.update(dict.fromkeys(item.entity_names))
        return names

    @staticmethod
    def _span_starts(items: Sequence[MemoryItem]) -> dict[str, int]:
        """The position of each item's first covered message: chronology across levels."""
        starts: dict[str, int] = {}
        for item in items:  # level by level, so covered items come first
            if item.level == 0:
                starts[item.id] = item.index
            else:
                starts[item.id] = min((starts[c] for c in item.covers if c in starts), default=0)
        return starts

    @staticmethod
    def _vectors(items: Sequence[MemoryItem], embedder: Embedder | None) -> np.ndarray | None:
        """One unit row per item: stored embeddings where every item has one, else embedded
        (only the items without one) when an embedder is given, else None."""
        if not items:
            return None
        stored = [item.embedding for item in items]
        missing = [i for i, vector in enumerate(stored) if vector is None]
        if not missing:
            fresh = None
        elif embedder is None:
            return None
        else:
            fresh = embedder.embed([items[i].text for i in missing])
        width = len(next(v for v in stored if v is not None)) if len(missing) < len(items) else 0
        width = width or (fresh.shape[1] if fresh is not None else 0)
        matrix = np.zeros((len(items), width), dtype=np.float32)
        for i, vector in enumerate(stored):
            if vector is not None:
                if len(vector) != width:
                    raise ValueError(
                        f"item {items[i].id!r} has an embedding of {len(vector)} values, others "
                        f"{width}; embed every item with the same model."
                    )
                matrix[i] = vector
        if fresh is not None:
            matrix[missing] = fresh
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.maximum(norms, 1e-12)

    def idf(self, term: str) -> float:
        frequency = self.document_frequency.get(term, 0)
        return math.log(1.0 + (self.n_items - frequency + 0.5) / (frequency + 0.5))

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
