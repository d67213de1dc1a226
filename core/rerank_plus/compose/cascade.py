"""Cascades: a cheap stage cuts the candidates, a precise stage orders what is left.

``Cascade([BM25Reranker(), CrossEncoderReranker()], keep=[30, 5])`` scores all K candidates with
BM25, keeps its best 30, lets the cross-encoder order those 30 and keeps 5. The cost of the
precise stage is paid on 30 documents, not K.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from rerank_plus.reranker import Context, Reranker, Scores, order_scores

logger = logging.getLogger(__name__)


def _restrict(context: Mapping[str, Any], ids: Sequence[int]) -> Context:
    """The context of the candidates ``ids`` only: a later stage sees its survivors' share."""
    first, metadata = context.get("first_stage_scores"), context.get("metadata")
    return Context(
        explain=context.get("explain", False),
        first_stage_scores=None if first is None else [first[i] for i in ids],
        metadata=None if metadata is None else [metadata[i] for i in ids],
    )


class Cascade(Reranker):
    """Run rerankers one after the other, each on the survivors of the one before.

    ``keep[i]`` is how many documents stage ``i`` passes on (``None``: all). The final order and
    scores are the last stage's; documents cut earlier are not returned. With
    ``rank(..., explain=True)`` each result says, for every stage it went through, its score,
    relevance and rank there (and that stage's own explanation).

    Each stage gets the survivors of the one before in that stage's order, best first (what a
    listwise LLM stage expects). The first stage's scores (``first_stage_scores``) and
    ``metadata`` reach every stage, restricted to its survivors, so a
    :class:`~rerank_plus.Pipeline` may be a stage. The final results break ties in the caller's
    order, as every reranker does.

    >>> from rerank_plus import BM25Reranker
    >>> docs = ["cats purr", "dogs bark loudly", "dogs bark", "birds sing"]
    >>> cascade = Cascade([BM25Reranker(), BM25Reranker(k1=1.2)], keep=[2, 1])
    >>> [r.index for r in cascade.rank("dogs bark", docs)]
    [2]
    """

    def __init__(self, stages: Sequence[Reranker], keep: Sequence[int | None]) -> None:
        stages, keep = list(stages), list(keep)
        if not stages:
            raise ValueError("A Cascade needs at least one stage, e.g. Cascade([BM25Reranker()]).")
        for position, stage in enumerate(stages):
            if not isinstance(stage, Reranker):
                raise TypeError(
                    f"stages[{position}] is {type(stage).__name__}, not a Reranker; "
                    "pass reranker objects such as BM25Reranker()."
                )
        if len(keep) != len(stages):
            raise ValueError(
                f"keep has {len(keep)} values for {len(stages)} stages; give one count per "
                "stage (None keeps all), e.g. keep=[30, 5]."
            )
        for position, count in enumerate(keep):
            if count is not None and (
                isinstance(count, bool) or not isinstance(count, int) or count < 1
            ):
                raise ValueError(f"keep[{position}] must be a positive int or None, got {count!r}.")
        self.stages = stages
        self.keep = keep

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        return self.score_candidates(query, documents, explain=explain)

    def score_candidates(
        self, query: str, documents: Sequence[str], **context: Unpack[Context]
    ) -> Scores:
        """Each stage orders the survivors of the one before; the last stage's scores count."""
        explain = context.get("explain", False)
        n = len(documents)
        ids = list(range(n))
        raw, relevance = [0.0] * n, [0.0] * n
        trace: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        for number, (stage, count) in enumerate(zip(self.stages, self.keep, strict=True)):
            started = time.perf_counter()
            scores = stage.score_candidates(
                query, [documents[i] for i in ids], **_restrict(context, ids)
            )
            ordered = order_scores(scores, explain=explain)
            survivors = ordered if count is None else ordered[:count]
            if explain:
                for rank, result in enumerate(ordered, start=1):
                    step = {
                        "stage": number,
                        "reranker": type(stage).__name__,
                        "score": result.score,
                        "relevance_score": result.relevance_score,
                        "rank": rank,
                        "kept": rank <= len(survivors),
                    }
                    if result.explanation is not None:
                        step["explanation"] = dict(result.explanation)
                    trace[ids[result.index]].append(step)
            for result in survivors:
                raw[ids[result.index]] = result.score
                relevance[ids[result.index]] = result.relevance_score
            logger.debug(
                "cascade stage %d (%s): %d in, %d kept, %.1f ms",
                number,
                type(stage).__name__,
                len(ids),
                len(survivors),
                1000 * (time.perf_counter() - started),
            )
            # best first, as a chain of postprocessors hands them on: a listwise stage (RankGPT)
            # reads its input order as the prior ranking, and ties fall to the earlier stage
            ids = [ids[result.index] for result in survivors]
        kept = [False] * n
        for i in ids:
            kept[i] = True
        explanations = [{"stages": steps} for steps in trace] if explain else None
        return Scores(raw, relevance, explanations, kept)
