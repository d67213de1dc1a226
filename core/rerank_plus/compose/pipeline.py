"""A reranker composed of parts: score -> fuse with the first stage -> boost -> select.

Each part is optional and explained: with ``rank(..., explain=True)`` every result carries the
base reranker's own explanation, the fusion inputs and weights, each boost's factor (and any
metadata problem), and the selection trace (which rules cut how many results, where this one
stood before diversity, its token count).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import Any, Unpack

import numpy as np

from rerank_plus.combine.boosts import Boost
from rerank_plus.combine.fusion import Fusion
from rerank_plus.reranker import Context, RankRequest, Reranker, Scores
from rerank_plus.results import RankedResult
from rerank_plus.selection.budget import TokenBudget
from rerank_plus.selection.cutoff import Cutoff
from rerank_plus.selection.diversity import MaximalMarginalRelevance
from rerank_plus.selection.order import select_results
from rerank_plus.validation import check_threshold, check_top_n

logger = logging.getLogger(__name__)

#: Scores aligned with the candidates, as a list or an array.
Values = Sequence[float] | np.ndarray


class Pipeline(Reranker):
    """``reranker`` -> ``fusion`` with first-stage scores -> ``boosts`` -> selection.

    Selection runs in this order: ``threshold`` (on the final relevance), the dynamic
    ``cutoff`` (on the relevance order), ``diversity`` (MMR reorder), ``top_n``, then the token
    ``budget``. ``top_n`` and ``threshold`` given to :meth:`rank` override the pipeline's own.

    Fusion needs ``first_stage_scores``; without them it is skipped (and the explanation says
    so). Boosts multiply the (fused) relevance by each factor; ``relevance_score`` is capped at
    1, ``score`` keeps the uncapped product so that capped results still order by it.

    >>> from rerank_plus import BM25Reranker
    >>> from rerank_plus.combine import WeightedFusion
    >>> docs = ["Paris is in France.", "The capital of France is Paris."]
    >>> vec = [0.9, 0.1]
    >>> lexical = Pipeline(BM25Reranker(), fusion=WeightedFusion(alpha=0.8), top_n=1)
    >>> [r.index for r in lexical.rank("capital of France", docs, first_stage_scores=vec)]
    [1]
    >>> semantic = Pipeline(BM25Reranker(), fusion=WeightedFusion(alpha=0.2), top_n=1)
    >>> [r.index for r in semantic.rank("capital of France", docs, first_stage_scores=vec)]
    [0]
    """

    def __init__(
        self,
        reranker: Reranker,
        *,
        fusion: Fusion | None = None,
        boosts: Sequence[Boost] = (),
        cutoff: Cutoff | None = None,
        diversity: MaximalMarginalRelevance | None = None,
        budget: TokenBudget | None = None,
        top_n: int | None = None,
        threshold: float | None = None,
    ) -> None:
        if not isinstance(reranker, Reranker):
            raise TypeError(
                "reranker must be a Reranker such as BM25Reranker(), "
                f"got {type(reranker).__name__}."
            )
        self.reranker = reranker
        self.fusion = fusion
        self.boosts = list(boosts)
        for position, boost in enumerate(self.boosts):
            if not callable(getattr(boost, "factor", None)):
                raise TypeError(
                    f"boosts[{position}] is {type(boost).__name__}, not a boost. Pass objects "
                    "such as PriorBoost('level', {'L3': 1.3}); dicts go to from_config."
                )
        self.cutoff = cutoff
        self.diversity = diversity
        self.budget = budget
        self.top_n = check_top_n(top_n)
        self.threshold = check_threshold(threshold)

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        return self.score_candidates(query, documents, explain=explain)

    def score_candidates(
        self, query: str, documents: Sequence[str], **context: Unpack[Context]
    ) -> Scores:
        """The reranker's scores, fused with the first stage's, boosted on the metadata."""
        base = self.reranker.score_candidates(query, documents, **context)
        return self._combine(query, len(documents), base, context)

    def score_many(
        self,
        queries: Sequence[str],
        documents: Sequence[Sequence[str]],
        contexts: Sequence[Context],
    ) -> list[Scores]:
        """The reranker scores every query in one call (shared batches), then each is combined."""
        bases = self.reranker.score_many(queries, documents, contexts)
        return [
            self._combine(query, len(texts), base, context)
            for query, texts, base, context in zip(queries, documents, bases, contexts, strict=True)
        ]

    def _combine(self, query: str, n: int, base: Scores, context: Context) -> Scores:
        """Fusion with the first stage, then the boosts, on the reranker's scores ``base``."""
        explain = context.get("explain", False)
        first_stage_scores = context.get("first_stage_scores")
        fusion = self.fusion
        if (
            fusion is not None
            and first_stage_scores is not None
            and not explain
            and not self.boosts
            and base.kept is None
        ):  # the common case, kept lean: fusion is most of what a pipeline adds to a rerank
            values = fusion.fuse(base.raw, first_stage_scores, query=query).values
            return Scores(values, list(values))
        if not explain and base.kept is None:
            given = context.get("metadata")
            every = given if given is not None else [{}] * n
            products = [self.boost_product(fields) for fields in every] if self.boosts else None
            floats = Scores([float(v) for v in base.raw], [float(v) for v in base.relevance])
            raw, relevance = self._boosted(query, floats, first_stage_scores, products)
            return Scores(_floats(raw), _floats(relevance))
        alive = [i for i in range(n) if base.kept is None or base.kept[i]]
        relevance = [float(v) for v in base.relevance]
        raw = [float(v) for v in base.raw]
        notes = self._reranker_notes(base, raw, relevance) if explain else []
        if fusion is not None and first_stage_scores is not None and alive:
            fused = fusion.fuse(
                [raw[i] for i in alive], [first_stage_scores[i] for i in alive], query=query
            )
            for position, i in enumerate(alive):
                relevance[i] = raw[i] = fused.values[position]
                if explain:
                    notes[i]["fusion"] = {
                        "first_stage_score": float(first_stage_scores[i]),
                        **fused.details[position],
                        "fused": fused.values[position],
                    }
        elif self.fusion is not None and explain:
            for note in notes:
                note["fusion"] = {"skipped": "no first_stage_scores were given"}
        if self.boosts:
            metadata = context.get("metadata")
            items: Sequence[Mapping[str, Any]] = metadata if metadata is not None else [{}] * n
            for i in alive:
                product = 1.0
                applied = []
                for boost in self.boosts:
                    value, note = boost.factor(items[i])
                    product *= value
                    applied.append(note)
                raw[i] = relevance[i] * product
                relevance[i] = min(1.0, raw[i])
                if explain:
                    notes[i]["boosts"] = applied
        return Scores(raw, relevance, notes if explain else None, base.kept)

    def order_scored(
        self,
        query: str,
        scores: Scores,
        *,
        first_stage_scores: Sequence[float] | None = None,
        metadata: Sequence[Mapping[str, Any]] | None = None,
    ) -> tuple[list[int], Scores]:
        """What :meth:`rank` does after scoring, for candidates already scored by this
        pipeline's reranker (``scores``, say from ``BM25Reranker.score_analyzed`` on an index's
        own analyses): fusion with ``first_stage_scores``, the boosts on ``metadata``, then
        the candidates' positions best first and their final scores (``raw`` is a result's
        ``score``, ``relevance`` its ``relevance_score``).

        Nothing is validated (the caller made the inputs, aligned and finite), nothing is
        explained and no selection rule runs: the order is :meth:`rank`'s before its
        selection. Candidates sharing one metadata mapping (the same object) share its boost
        product, computed once.
        """
        products: list[float] | None = None
        if self.boosts:
            items = metadata if metadata is not None else [{}] * len(scores.raw)
            keys = list(map(id, items))
            distinct = dict(zip(keys, items, strict=True))
            known = {key: self.boost_product(fields) for key, fields in distinct.items()}
            products = list(map(known.__getitem__, keys))
        raw, relevance = self._boosted(query, scores, first_stage_scores, products)
        # best relevance first, then the uncapped score, then the input order: how rank orders
        # its results (order_results)
        order = np.lexsort((-np.asarray(raw), -np.asarray(relevance))).tolist()
        return order, Scores(_floats(raw), _floats(relevance))

    def boost_product(self, metadata: Mapping[str, Any]) -> float:
        """The product of the boosts' factors for one candidate's ``metadata``."""
        product = 1.0
        for boost in self.boosts:
            product *= boost.factor(metadata)[0]
        return product

    def _boosted(
        self,
        query: str,
        base: Scores,
        first_stage_scores: Sequence[float] | None,
        products: Sequence[float] | None,
    ) -> tuple[Values, Values]:
        """Fusion, then each candidate's boost product (``products``, None without boosts)
        and the cap at 1, on every candidate of ``base`` (none cut, nothing explained): the
        final raw scores and relevance."""
        if self.fusion is not None and first_stage_scores is not None and len(base.raw):
            fused = self.fusion.fuse(base.raw, first_stage_scores, query=query).values
            raw: Values = fused
            relevance: Values = fused
        else:
            raw, relevance = base.raw, base.relevance
        if products is None:
            return raw, relevance
        boosted = np.asarray(relevance, dtype=np.float64) * np.asarray(products, dtype=np.float64)
        return boosted, np.where(boosted < 1.0, boosted, 1.0)  # min(1, raw)

    def _reranker_notes(
        self, base: Scores, raw: list[float], relevance: list[float]
    ) -> list[dict[str, Any]]:
        """Each candidate's explanation starts with the base reranker's own."""
        return [
            {
                "reranker": {
                    "name": type(self.reranker).__name__,
                    "score": raw[i],
                    "relevance_score": relevance[i],
                    **(dict(base.explanations[i]) if base.explanations is not None else {}),
                }
            }
            for i in range(len(raw))
        ]

    def select(self, ordered: list[RankedResult], request: RankRequest) -> list[RankedResult]:
        """Threshold, cutoff, diversity, top-n, then the token budget; ``top_n`` and
        ``threshold`` given to ``rank`` override the pipeline's own."""
        documents = request.documents
        top_n = self.top_n if request.top_n is None else request.top_n
        threshold = self.threshold if request.threshold is None else request.threshold
        cut: dict[str, int] = {}
        kept = select_results(ordered, threshold=threshold)
        cut["threshold"] = len(ordered) - len(kept)
        explain = request.explain
        relevance_rank = {r.index: rank for rank, r in enumerate(kept, start=1)} if explain else {}
        if self.cutoff is not None:
            count = self.cutoff.keep([r.relevance_score for r in kept])
            cut["cutoff"], kept = len(kept) - count, kept[:count]
        closest: dict[int, float] = {}
        if self.diversity is not None and kept:
            order, similar = self.diversity.order_explained(
                [r.relevance_score for r in kept], [documents[r.index] for r in kept], top_n
            )
            closest = {kept[p].index: similar[p] for p in order}
            kept = [kept[p] for p in order]
        if top_n is not None:
            cut["top_n"], kept = max(0, len(kept) - top_n), kept[:top_n]
        tokens: list[int] = []
        if self.budget is not None:
            tokens = self.budget.count([documents[r.index] for r in kept])
            count = self.budget.fit(tokens)
            cut["token_budget"], kept = len(kept) - count, kept[:count]
        logger.debug("pipeline: %d candidates, %d kept, cut %s", len(documents), len(kept), cut)
        if not explain:
            return kept
        stopped = next((rule for rule, count in reversed(cut.items()) if count), None)
        out = []
        total = 0
        for position, result in enumerate(kept):
            selection: dict[str, Any] = {
                "relevance_rank": relevance_rank[result.index],
                "rank": position + 1,
                "cut": dict(cut),
                "stopped_by": stopped,
            }
            if self.diversity is not None:
                selection["mmr_lambda"] = self.diversity.lambda_
                selection["max_similarity_to_above"] = closest.get(result.index, 0.0)
            if tokens:
                total += tokens[position]
                selection["tokens"], selection["tokens_total"] = tokens[position], total
            explanation = {**(result.explanation or {}), "selection": selection}
            out.append(dataclasses.replace(result, explanation=explanation))
        return out


def _floats(values: Values) -> list[float]:
    """``values`` as a list of Python floats (an array's own values, not numpy scalars)."""
    return values.tolist() if isinstance(values, np.ndarray) else list(values)
