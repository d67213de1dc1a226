"""The one interface every reranker implements: score a batch, then rank it.

The rank flow lives here once: :meth:`Reranker.rank` validates the input, asks
``score_candidates`` for scores, turns them into results best first (:func:`order_scores`) and
hands those to ``select`` (threshold, then top-n). Composed rerankers (fusion, pipelines,
cascades) change a step, never the flow.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, TypedDict, TypeVar, Unpack, final

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

P = ParamSpec("P")
R = TypeVar("R")


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


class Context(TypedDict, total=False):
    """What comes with the candidates besides the query, already validated by ``rank``.

    ``first_stage_scores`` (the retriever's own scores) and ``metadata`` (one mapping per
    document) are aligned with the documents; scorers that do not read them ignore them.
    """

    first_stage_scores: Sequence[float] | None
    explain: bool
    metadata: Sequence[Mapping[str, Any]] | None


@dataclass(frozen=True, slots=True)
class RankInput:
    """One query with its candidates, as :meth:`Reranker.rank_many` takes them: the arguments
    of one :meth:`Reranker.rank` call that differ from query to query."""

    query: str
    documents: Sequence[str]
    first_stage_scores: Sequence[float] | None = None
    metadata: Sequence[Mapping[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class RankRequest:
    """One ``rank`` call after validation: what the selection step reads besides the results."""

    query: str
    documents: list[str]
    top_n: int | None = None
    threshold: float | None = None
    explain: bool = False


def order_scores(scores: Scores, *, explain: bool) -> list[RankedResult]:
    """The candidates ``scores`` keeps as results, best first, ties in input order."""
    explanations = scores.explanations if explain else None
    return order_results(
        [
            RankedResult(
                index=i,
                score=float(scores.raw[i]),
                relevance_score=float(scores.relevance[i]),
                explanation=explanations[i] if explanations is not None else None,
            )
            for i in range(len(scores.raw))
            if scores.kept is None or scores.kept[i]
        ]
    )


def _in_worker_thread(method: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(method, *args, **kwargs)

    run.__doc__ = f":meth:`{method.__name__}` in a worker thread, so it never blocks the loop."
    return run


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
        self, query: str, documents: Sequence[str], **context: Unpack[Context]
    ) -> Scores:
        """Score with the first stage's scores and the documents' metadata at hand; plain
        scorers ignore both.

        Rerankers that combine their own score with the first stage's (fusion), read metadata
        (boosts) or run other rerankers (cascades) override this, taking ``**context: Any``
        and passing it on.
        """
        return self.score(query, documents, explain=context.get("explain", False))

    def score_many(
        self,
        queries: Sequence[str],
        documents: Sequence[Sequence[str]],
        contexts: Sequence[Context],
    ) -> list[Scores]:
        """Score several queries' candidates at once (inputs validated, none empty).

        The default scores one query after the other; neural scorers override this to pack
        the pairs of many queries into shared batches.
        """
        return [
            self.score_candidates(query, texts, **context)
            for query, texts, context in zip(queries, documents, contexts, strict=True)
        ]

    def select(self, ordered: list[RankedResult], request: RankRequest) -> list[RankedResult]:
        """Keep what ``threshold`` and then ``top_n`` allow of the results, best first.

        :class:`rerank_plus.Pipeline` overrides this with its selection rules.
        """
        return select_results(ordered, request.top_n, request.threshold)

    @final
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
        request, first_stage, items = checked_request(
            query,
            documents,
            top_n,
            threshold,
            explain=explain,
            first_stage_scores=first_stage_scores,
            metadata=metadata,
        )
        if not request.documents:
            return []
        scores = self.score_candidates(
            request.query,
            request.documents,
            first_stage_scores=first_stage,
            explain=explain,
            metadata=items,
        )
        return self.select(order_scores(scores, explain=explain), request)

    arank = _in_worker_thread(rank)

    @final
    def rank_many(
        self,
        inputs: Sequence[RankInput],
        top_n: int | None = None,
        threshold: float | None = None,
        *,
        explain: bool = False,
    ) -> list[list[RankedResult]]:
        """:meth:`rank` for many queries in one call, one result list per input, in order.

        The results equal one ``rank`` call per input; rerankers that can share work across
        queries (a cross-encoder's batches) do it here, so bulk jobs and servers call this.
        """
        if isinstance(inputs, (str, bytes, RankInput)) or not isinstance(inputs, Sequence):
            raise TypeError(
                f"inputs must be a sequence of RankInput, got {type(inputs).__name__}. "
                "Wrap a single query in a list, or call rank()."
            )
        checked = []
        for position, item in enumerate(inputs):
            if not isinstance(item, RankInput):
                raise TypeError(
                    f"inputs[{position}] is {type(item).__name__}, not RankInput. "
                    "Build each one as RankInput(query, documents, ...)."
                )
            checked.append(
                checked_request(
                    item.query,
                    item.documents,
                    top_n,
                    threshold,
                    explain=explain,
                    first_stage_scores=item.first_stage_scores,
                    metadata=item.metadata,
                )
            )
        scored = [entry for entry in checked if entry[0].documents]
        all_scores = self.score_many(
            [request.query for request, _, _ in scored],
            [request.documents for request, _, _ in scored],
            [
                Context(first_stage_scores=first_stage, explain=explain, metadata=items)
                for _, first_stage, items in scored
            ],
        )
        next_scores = iter(all_scores)
        return [
            self.select(order_scores(next(next_scores), explain=explain), request)
            if request.documents
            else []
            for request, _, _ in checked
        ]

    arank_many = _in_worker_thread(rank_many)


class AsyncScoringReranker(Reranker):
    """A reranker whose scoring waits on the network (a hosted model, an LLM): :meth:`arank`
    awaits :meth:`ascore` on the caller's event loop instead of taking a worker thread.

    First-stage scores and metadata are checked like :meth:`rank` does, then ignored.
    """

    @abstractmethod
    async def ascore(
        self, query: str, documents: Sequence[str], *, explain: bool = False
    ) -> Scores:
        """:meth:`score`, with the calls made asynchronously."""

    async def arank(  # type: ignore[override]
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
        """:meth:`rank` on the event loop: same validation, ordering and selection."""
        request, _, _ = checked_request(
            query,
            documents,
            top_n,
            threshold,
            explain=explain,
            first_stage_scores=first_stage_scores,
            metadata=metadata,
        )
        if not request.documents:
            return []
        scores = await self.ascore(request.query, request.documents, explain=explain)
        return self.select(order_scores(scores, explain=explain), request)


def checked_request(
    query: str,
    documents: Sequence[str],
    top_n: int | None,
    threshold: float | None,
    *,
    explain: bool,
    first_stage_scores: Sequence[float] | None,
    metadata: Sequence[Mapping[str, Any]] | None,
) -> tuple[RankRequest, list[float] | None, Sequence[Mapping[str, Any]] | None]:
    """The arguments of :meth:`Reranker.rank`, each checked (errors name the bad item)."""
    request = RankRequest(
        check_query(query),
        check_documents(documents),
        check_top_n(top_n),
        check_threshold(threshold),
        explain,
    )
    count = len(request.documents)
    first_stage = check_first_stage_scores(first_stage_scores, count)
    items = None if metadata is None else check_metadata(metadata, count)
    return request, first_stage, items
