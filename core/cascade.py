"""Cascades: a cheap stage cuts the candidates, a precise stage orders what is left.

``Cascade([BM25Reranker(), CrossEncoderReranker()], keep=[30, 5])`` scores all K candidates with
BM25, keeps its best 30, lets the cross-encoder order those 30 and keeps 5. The cost of the
precise stage is paid on 30 documents, not K.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from rerank_plus.reranker import Reranker, Scores

logger = logging.getLogger(__name__)


def _order(relevance: Sequence[float], raw: Sequence[float], ids: Sequence[int]) -> list[int]:
    """Positions into ``ids``, best first; ties keep input order (the library's rule)."""
    return sorted(range(len(ids)), key=lambda p: (-relevance[p], -raw[p], ids[p]))


class Cascade(Reranker):
    """Run rerankers one after the other, each on the survivors of the one before.

    ``keep[i]`` is how many documents stage ``i`` passes on (``None``: all). The final order and
    scores are the last stage's; documents cut earlier are not returned. With
    ``rank(..., explain=True)`` each result says, for every stage it went through, its score,
    relevance and rank there (and that stage's own explanation).

    The first stage's scores (``first_stage_scores``) and ``metadata`` reach every stage,
    restricted to its survivors, so a :class:`~rerank_plus.Pipeline` may be a stage.

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
        self,
        query: str,
        documents: Sequence[str],
        *,
        first_stage_scores: Sequence[float] | None = None,
        explain: bool = False,
        metadata: Sequence[Mapping[str, Any]] | None = None,
    ) -> Scores:
        n = len(documents)
        ids = list(range(n))
        raw, relevance = [0.0] * n, [0.0] * n
        trace: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        for number, (stage, count) in enumerate(zip(self.stages, self.keep, strict=True)):
            started = time.perf_counter()
            extra: dict[str, Any] = {}
            if metadata is not None:
                extra["metadata"] = [metadata[i] for i in ids]
            first = None if first_stage_scores is None else [first_stage_scores[i] for i in ids]
            scores = stage.score_candidates(
                query,
                [documents[i] for i in ids],
                first_stage_scores=first,
                explain=explain,
                **extra,
            )
            alive = [p for p in range(len(ids)) if scores.kept is None or scores.kept[p]]
            order = [
                alive[p]
                for p in _order(
                    [scores.relevance[p] for p in alive],
                    [scores.raw[p] for p in alive],
                    [ids[p] for p in alive],
                )
            ]
            survivors = order if count is None else order[:count]
            if explain:
                for rank, p in enumerate(order, start=1):
                    step = {
                        "stage": number,
                        "reranker": type(stage).__name__,
                        "score": float(scores.raw[p]),
                        "relevance_score": float(scores.relevance[p]),
                        "rank": rank,
                        "kept": rank <= len(survivors),
                    }
                    if scores.explanations is not None:
                        step["explanation"] = dict(scores.explanations[p])
                    trace[ids[p]].append(step)
            for p in survivors:
                raw[ids[p]] = float(scores.raw[p])
                relevance[ids[p]] = float(scores.relevance[p])
            logger.debug(
                "cascade stage %d (%s): %d in, %d kept, %.1f ms",
                number,
                type(stage).__name__,
                len(ids),
                len(survivors),
                1000 * (time.perf_counter() - started),
            )
            ids = [ids[p] for p in survivors]
        kept = [False] * n
        for i in ids:
            kept[i] = True
        explanations = [{"stages": steps} for steps in trace] if explain else None
        return Scores(raw, relevance, explanations, kept)
