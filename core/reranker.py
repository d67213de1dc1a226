"""The one interface every reranker implements: score a batch, then rank it."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rerank_plus.results import RankedResult
from rerank_plus.selection.order import order_results, select_results
from rerank_plus.validation import (
    check_documents,
    check_first_stage_scores,
    check_metadata,
    check_query,
    check_threshold,
    check_top_n,
)


@dataclass(frozen=True, slots=True)
class Scores:
    """What a scorer returns for one query and its candidates, aligned with the candidates.

    ``raw`` holds the scorer's own values, ``relevance`` the same values mapped to [0, 1], and
    ``explanations`` (only when asked for) one mapping per candidate saying where its score
    came from. ``kept``, when given, marks the candidates that survive (a cascade's earlier
    stage cuts the rest); ``rank`` returns only those.
    """

    raw: Sequence[float]
    relevance: Sequence[float]
    explanations: Sequence[Mapping[str, Any]] | None = None
    kept: Sequence[bool] | None = None


class Reranker(ABC):
    """Re-scores a first stage's candidates against the query and keeps the best.

    Subclasses implement :meth:`score`, one batch-shaped method; this class turns it into the
    ``rank`` contract every reranker shares: results are a subset of the input indices, without
    duplicates, best first, ties in input order, never longer than ``top_n``, none below
    ``threshold``, and the input list is never mutated.
    """

    @abstractmethod
    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        """Score every document against the query (inputs are already validated, non-empty)."""

    def score_candidates(
        self,
        query: str,
        documents: Sequence[str],
        *,
        first_stage_scores: Sequence[float] | None = None,
        explain: bool = False,
        metadata: Sequence[Mapping[str, Any]] | None = None,
    ) -> Scores:
        """Score with the first stage's scores and the documents' metadata at hand; plain
        scorers ignore both.

        Rerankers that combine their own score with the first stage's (fusion) or read metadata
        (boosts) override this. ``metadata`` is passed only when the caller gave it, so overrides
        that do not read metadata need not accept the keyword.
        """
        return self.score(query, documents, explain=explain)

    def rank(
        self,
        query: str,
        documents: Sequence[str],
        top_n: int | None = None,
        threshold: float | None = None,
        *,
        first_stage_scores: Sequence[float] | None = None,
        explain: bool = False,
        metadata: Sequence[Mapping[str, Any]] | None = None,
    ) -> list[RankedResult]:
        """Rank ``documents`` for ``query`` and keep the best.

        ``first_stage_scores``, aligned with ``documents``, are the retriever's own scores
        (vector similarity); rerankers that fuse scores use them, the others ignore them.
        ``metadata``, one mapping per document (node or document metadata), is read by
        rerankers that boost on it (:class:`rerank_plus.Pipeline`) and ignored by the others.

        >>> from rerank_plus import BM25Reranker
        >>> docs = ["Paris is the capital of France.", "Berlin is in Germany."]
        >>> [r.index for r in BM25Reranker().rank("capital of France", docs, top_n=1)]
        [0]
        """
        query = check_query(query)
        texts = check_documents(documents)
        top_n = check_top_n(top_n)
        threshold = check_threshold(threshold)
        first_stage = check_first_stage_scores(first_stage_scores, len(texts))
        extra = {} if metadata is None else {"metadata": check_metadata(metadata, len(texts))}
        if not texts:
            return []
        scores = self.score_candidates(
            query, texts, first_stage_scores=first_stage, explain=explain, **extra
        )
        explanations = scores.explanations if explain else None
        results = [
            RankedResult(
                index=i,
                score=float(scores.raw[i]),
                relevance_score=float(scores.relevance[i]),
                explanation=explanations[i] if explanations is not None else None,
            )
            for i in range(len(texts))
            if scores.kept is None or scores.kept[i]
        ]
        return select_results(order_results(results), top_n, threshold)

    async def arank(
        self,
        query: str,
        documents: Sequence[str],
        top_n: int | None = None,
        threshold: float | None = None,
        *,
        first_stage_scores: Sequence[float] | None = None,
        explain: bool = False,
        metadata: Sequence[Mapping[str, Any]] | None = None,
    ) -> list[RankedResult]:
        """:meth:`rank` in a worker thread, so scoring never blocks the event loop."""
        return await asyncio.to_thread(
            self.rank,
            query,
            documents,
            top_n,
            threshold,
            first_stage_scores=first_stage_scores,
            explain=explain,
            metadata=metadata,
        )
