"""Level-aware search: candidates of one level (or a restricted set), scored by the light stage.

Scoring composes the library's parts: the light reranker (BM25 fitted on the memory by default)
fused with the dense cosine through the profile's fusion, a level prior
(:class:`~rerank_plus.PriorBoost` on the item's band), freshness
(:class:`~rerank_plus.FreshnessBoost`) and diversity
(:class:`~rerank_plus.MaximalMarginalRelevance`): one :class:`~rerank_plus.Pipeline`, built
per query from the intent's policy.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple, cast

import numpy as np

from rerank_plus.analysis.language import Detection, resolve_languages
from rerank_plus.combine.boosts import Boost, FreshnessBoost, PriorBoost
from rerank_plus.combine.fusion import ReciprocalRankFusion, WeightedFusion
from rerank_plus.combine.registry import build_fusion
from rerank_plus.compose.pipeline import Pipeline
from rerank_plus.memory.index.memory_index import LevelIndex, MemoryIndex
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.policy import IntentPolicy
from rerank_plus.reranker import Reranker
from rerank_plus.selection.diversity import LexicalSimilarity, MaximalMarginalRelevance

Allowed = Callable[[MemoryItem], bool]

#: How many of the best candidates MMR reorders; a context holds fewer of one level.
DIVERSIFIED = 24
#: What a pool's languages are resolved with when the query's own detection is not asked for:
#: a pool with a reliably detected item falls back to its items' language, never the query's.
_UNASKED = Detection(None, 0.0, reliable=False)


class Hit(NamedTuple):
    """An item with the score the light stage gave it (``dense``: its cosine, when known).

    A named tuple: a query makes hundreds, and a frozen dataclass costs twice as much to
    build."""

    item: MemoryItem
    score: float
    dense: float | None = None


class Ranking(NamedTuple):
    """A pool ranked: its items, their ids and cosines, the order (positions in the pool, best
    first) and the score at each position. Hits are made from it only for what a caller
    keeps."""

    items: Sequence[MemoryItem]
    ids: Sequence[str]
    dense: Sequence[float] | None
    order: list[int]
    scores: Sequence[float]

    def hits(self, positions: Iterable[int] | None = None) -> list[Hit]:
        """The hits at ``positions`` (the whole order when not given), in that order."""
        items, scores, dense = self.items, self.scores, self.dense
        chosen = self.order if positions is None else positions
        return [Hit(items[i], scores[i], None if dense is None else dense[i]) for i in chosen]


def _positions(level: LevelIndex, ids: Collection[str]) -> list[int]:
    """The positions of the items ``ids`` at ``level``, ascending (ids of other levels left
    out): a drill-down's covers, mostly all of the level below."""
    try:
        return sorted(map(level.position.__getitem__, ids))
    except KeyError:
        return sorted(level.position[i] for i in ids if i in level.position)


class StoredVectorSimilarity:
    """MMR's similarity from embeddings already computed (no model call): cosine, clipped."""

    name = "embedding"

    def __init__(self, vectors: Mapping[str, np.ndarray]) -> None:
        self.vectors = vectors

    def matrix(self, texts: Sequence[str]) -> np.ndarray:
        """The matrix as an array: MMR reads it as one."""
        rows = np.array([self.vectors[text] for text in texts])  # np.stack's rows, sooner
        return np.clip(rows @ rows.T, 0.0, 1.0)


class LevelSearch:
    """Scores candidates for one query with the intent's pipeline.

    ``pool`` picks the candidates of a level: every item when the level is small, else the
    dense top ``limit`` and the items holding a query term (best summed IDF first).
    """

    def __init__(
        self,
        index: MemoryIndex,
        reranker: Reranker | None,
        policy: IntentPolicy,
        fusion: Mapping[str, object] | str,
        now: datetime | None,
        entities: Sequence[str] = (),
        *,
        vector: np.ndarray | None = None,
    ) -> None:
        self.index = index
        #: the query's embedding (None: lexical only)
        self.vector = vector
        self.entities = tuple(entity.casefold() for entity in entities if entity.strip())
        light = reranker if reranker is not None else index.bm25
        boosts: list[Boost] = [PriorBoost("band", dict(policy.band_prior))]
        if policy.freshness is not None:
            boosts.append(
                FreshnessBoost(
                    "timestamp",
                    half_life_days=policy.freshness["half_life_days"],
                    weight=policy.freshness["weight"],
                    now=now,
                )
            )
        # whether an item names an entity of the question matters only to this boost
        self.named_boost = bool(self.entities and policy.entity_boost != 1.0)
        if self.named_boost:
            boosts.append(PriorBoost("named", {"yes": policy.entity_boost}))
        # whether an item's time matters: only the freshness boost reads it
        self.timed_boost = policy.freshness is not None
        fuser = build_fusion(fusion, reranker=light)
        self.pipeline = Pipeline(light, fusion=fuser, boosts=boosts)
        # a fusion other than these may read the query's language from the analyzer's cache
        # (the adaptive one does), where the light stage's detection of the query must be
        self.query_read_by_fusion = not isinstance(fuser, (ReciprocalRankFusion, WeightedFusion))
        # the index's own BM25 scores pools from the index's analyses (:meth:`_rank_from_index`)
        self.index_light = reranker is None
        self.mmr_lambda = policy.mmr_lambda
        self.depth = index.memory.depth
        # per query (one LevelSearch serves one query): keyed by level (and the query's terms)
        self._cosines: dict[int, np.ndarray | None] = {}
        self._sums: dict[tuple[int, tuple[str, ...]], np.ndarray] = {}
        self._query_detections: dict[str, Detection] = {}
        self._first_pools: dict[str, Sequence[MemoryItem]] = {}
        self._rankings: dict[tuple[str, tuple[str, ...], tuple[float, ...] | None], Ranking] = {}

    def pool(
        self,
        level: int,
        terms: Sequence[str],
        *,
        limit: int,
        allowed: Allowed | None = None,
        within: Collection[str] | None = None,
    ) -> tuple[list[MemoryItem], list[float] | None]:
        """Candidates at ``level`` (only ids in ``within`` when given) and their cosines."""
        level_index = self.index.levels[level]
        if within is None and allowed is None and len(level_index.items) > limit:
            dense = self._dense(level)
            chosen = dict.fromkeys(self.index.top_dense(dense, limit))
            chosen.update(dict.fromkeys(self.index.top_lexical(self._lexical(level, terms), limit)))
            positions = sorted(chosen) or list(
                range(len(level_index.items) - limit, len(level_index.items))
            )
            cosines = None if dense is None else dense[positions]
        else:
            positions, cosines = self._filtered(level, terms, limit, allowed, within)
        items = [level_index.items[p] for p in positions]
        return items, None if cosines is None else cosines.tolist()

    def _dense(self, level: int) -> np.ndarray | None:
        """The level's cosines with the query's vector, computed once per query: the search,
        the drill-down and the safe drill all read the same levels."""
        if level not in self._cosines:
            self._cosines[level] = self.index.dense(level, self.vector)
        return self._cosines[level]

    def _dense_at(self, level: int, at: np.ndarray) -> np.ndarray | None:
        """The cosines of the positions ``at`` only, unless the whole level's are known: a
        drill-down reads a few covers of a level the search may not have scored (the same
        values: each row's product is computed alone)."""
        if level in self._cosines:
            found = self._cosines[level]
            return None if found is None else found[at]
        return self.index.dense(level, self.vector, at)

    def _lexical(self, level: int, terms: Sequence[str]) -> np.ndarray:
        """:meth:`MemoryIndex.lexical_scores`, computed once per query for each level."""
        key = (level, tuple(terms))
        found = self._sums.get(key)
        if found is None:
            found = self._sums[key] = self.index.lexical_scores(level, terms)
        return found

    def _filtered(
        self,
        level: int,
        terms: Sequence[str],
        limit: int,
        allowed: Allowed | None,
        within: Collection[str] | None,
    ) -> tuple[list[int], np.ndarray | None]:
        """Candidates among the items ``within`` and ``allowed`` admit (the slower path), and
        their cosines."""
        level_index = self.index.levels[level]
        positions = (
            range(len(level_index.items)) if within is None else _positions(level_index, within)
        )
        if allowed is not None:
            positions = [p for p in positions if allowed(level_index.items[p])]
        at = np.array(positions, dtype=np.intp)  # ascending
        cosines = self._dense_at(level, at)
        if len(at) <= limit:
            return at.tolist(), cosines
        chosen: dict[int, None] = {}
        if cosines is not None:  # best cosine first, ties to the earlier position
            chosen.update(dict.fromkeys(at[np.lexsort((at, -cosines))[:limit]].tolist()))
        sums = self._lexical(level, terms)
        held = at[sums[at] > 0]
        chosen.update(dict.fromkeys(held[np.lexsort((held, -sums[held]))[:limit]].tolist()))
        kept = np.array(sorted(chosen), dtype=np.intp) if chosen else at[-limit:]
        # no vector, no shared term: the latest
        return kept.tolist(), None if cosines is None else cosines[np.searchsorted(at, kept)]

    def rank(
        self, query: str, items: Sequence[MemoryItem], dense: Sequence[float] | None
    ) -> list[Hit]:
        """``items`` scored and ordered (MMR over the whole list), best first."""
        return self.ranking(query, items, dense).hits()

    def ranking(
        self, query: str, items: Sequence[MemoryItem], dense: Sequence[float] | None
    ) -> Ranking:
        """:meth:`rank`'s order and scores, computed once per pool: a drill-down from the top
        level covers the very pool the level search ranked there."""
        ids = tuple(item.id for item in items)
        key = (query, ids, None if dense is None else tuple(dense))
        found = self._rankings.get(key)
        if found is None:
            found = self._rankings[key] = self._ranked(query, items, ids, dense)
        return found

    def _ranked(
        self,
        query: str,
        items: Sequence[MemoryItem],
        ids: Sequence[str],
        dense: Sequence[float] | None,
    ) -> Ranking:
        """``items`` (whose ids are ``ids``) scored by the pipeline, then MMR over the best."""
        if not items:
            return Ranking(items, ids, dense, [], [])
        if self.index_light:
            order, scores = self._rank_from_index(query, items, ids, dense)
        else:
            texts = [self.index.search_texts[key] for key in ids]
            metadata = self._metadata(items, ids)
            results = self.pipeline.rank(query, texts, first_stage_scores=dense, metadata=metadata)
            order = [result.index for result in results]
            scores = [0.0] * len(items)  # the pipeline selects nothing: every item has a result
            for result in results:
                scores[result.index] = result.score
        if self.mmr_lambda < 1.0 and len(order) > 1:
            order = self._diversify(order, scores, items)
        return Ranking(items, ids, dense, order, scores)

    def _rank_from_index(
        self,
        query: str,
        items: Sequence[MemoryItem],
        ids: Sequence[str],
        dense: Sequence[float] | None,
    ) -> tuple[list[int], Sequence[float]]:
        """What ``self.pipeline.rank`` gives (order, and score by position), without analyzing
        the texts again: BM25 reads the index's analyses, the pipeline fuses, boosts and orders
        (items the boosts read alike share one metadata mapping, so one product)."""
        bm25 = self.index.bm25
        languages, frequencies, lengths = self._pool_terms(query, items, ids)
        order, scores = self.pipeline.order_scored(
            query,
            bm25.score_analyzed(query, languages, frequencies, lengths),
            first_stage_scores=dense,
            metadata=self._metadata(items, ids),
        )
        return order, scores.raw

    def _pool_terms(
        self, query: str, items: Sequence[MemoryItem], ids: Sequence[str]
    ) -> tuple[Sequence[str], Sequence[Mapping[str, int]], Sequence[int]]:
        """Each item's language for ``query``, as ``BM25Reranker.score`` resolves them
        (``analyzer.languages_for``; the index's BM25 forces no language), and its term counts
        and length in that language (:meth:`MemoryIndex.pool_terms`), from the items'
        detections and analyses the index kept.

        The query's own detection decides an item's language only in a pool where no item is
        reliably detected (it is then the fallback, see ``resolve_languages``), so it is asked
        for only there, or for a fusion that reads it: most new questions' keywords are never
        given to lingua. It is the detection ``languages_for`` makes: the query among the
        texts of its first pool (:meth:`_query_detection`)."""
        first = self._first_pools.setdefault(query, items)
        if not self.query_read_by_fusion:
            own = self._index_terms(ids)
            if own is not None:
                return own
        found = list(map(self.index.detections.__getitem__, ids))
        # no reliable detection: no dominant language (``dominant_language``), the query's
        # is the fallback
        if self.query_read_by_fusion or not any(d.reliable and d.language for d in found):
            detection = self._query_detection(query, first)
        else:
            detection = _UNASKED
        languages = resolve_languages(detection, found, self.index.analyzer.default_language)[1]
        return (languages, *self.index.pool_terms(languages, items))

    def _index_terms(
        self, ids: Sequence[str]
    ) -> tuple[Sequence[str], Sequence[Mapping[str, int]], Sequence[int]] | None:
        """The languages the index resolved the items ``ids`` in, and their term counts and
        lengths as it analyzed them, where a pool resolves them alike: its reliably detected
        items (one at least) are all in the memory's dominant language, which is then the
        pool's too, the fallback of its other items. None otherwise. (Read with ``map`` and
        ``zip``: a pool holds hundreds of messages.)"""
        dominant, reliable = self.index.dominant_language, self.index.reliable_languages
        found = set(map(reliable.__getitem__, ids))
        if dominant is None or dominant not in found or not found <= {dominant, None}:
            return None
        languages, frequencies, lengths = zip(
            *map(self.index.item_terms.__getitem__, ids), strict=True
        )
        return languages, frequencies, lengths

    def _query_detection(self, query: str, first: Sequence[MemoryItem]) -> Detection:
        """``query``'s detection among the texts of ``first``, its first pool, as
        ``analyzer.languages_for`` detects it (the analyzer caches it), asked once."""
        known = self._query_detections.get(query)
        if known is None:
            texts = [self.index.search_texts[item.id] for item in first]
            known = self.index.analyzer.detect_many([query, *texts])[0]
            self._query_detections[query] = known
        return known

    def _metadata(self, items: Sequence[MemoryItem], ids: Sequence[str]) -> list[Mapping[str, Any]]:
        """What the boosts read of each of ``items`` (whose ids are ``ids``; one mapping for
        the items they read alike), mostly from the index's tables of mappings already made
        (one per naming)."""
        fields, timed = self.index.boost_fields, self.timed_boost
        plain = self.index.boost_table(False, timed)
        if not self.named_boost:
            known = list(map(plain.get, ids))  # a mapping made is never empty
            if all(known):  # the usual case: every one made by an earlier query
                return cast(list[Mapping[str, Any]], known)
            return [
                found or fields(item, False, timed)
                for found, item in zip(known, items, strict=True)
            ]
        named = self.index.boost_table(True, timed)
        made: list[Mapping[str, Any]] = []
        for item in items:
            names = self._names(item)
            made.append((named if names else plain).get(item.id) or fields(item, names, timed))
        return made

    def _names(self, item: MemoryItem) -> bool:
        """Whether ``item`` (or a message a window covers) names an entity of the question."""
        haystack = self.index.names_text(item)
        return any(entity in haystack for entity in self.entities)

    def _diversify(
        self, order: list[int], scores: Sequence[float], items: Sequence[MemoryItem]
    ) -> list[int]:
        """MMR over the best :data:`DIVERSIFIED` (the similarity matrix is quadratic); the rest
        keep the relevance order."""
        head, tail = order[:DIVERSIFIED], order[DIVERSIFIED:]
        search_texts = self.index.search_texts
        head_texts = [search_texts[items[i].id] for i in head]
        found = self.index.vector_by_text
        vectors = {text: found[text] for text in head_texts if text in found}
        similarity: StoredVectorSimilarity | LexicalSimilarity = (
            StoredVectorSimilarity(vectors)
            if len(vectors) == len(set(head_texts))
            else LexicalSimilarity(self.index.analyzer)
        )
        top = max(scores) or 1.0
        relevance = [scores[i] / top for i in head]
        mmr = MaximalMarginalRelevance(self.mmr_lambda, similarity)
        return [head[p] for p in mmr.order(relevance, head_texts)] + tail
