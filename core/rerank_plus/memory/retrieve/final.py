"""Step 3: the final reranker (a cross-encoder, say) on the few best candidates of a block.

The final stage orders; every score a block reads stays on the light stage's scale. A
cross-encoder's probabilities beside the light stage's fused scores would move the blocks'
cutoffs and the order of the quotes' stretches, so the judged head takes the head's own
scores, best first, in the final stage's order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from rerank_plus.memory.retrieve.search import Hit
from rerank_plus.memory.trace import Trace
from rerank_plus.reranker import Reranker


def on_scale(judged: Sequence[Hit], hits: Sequence[Hit], size: int) -> list[Hit]:
    """``hits`` with its first ``size`` in ``judged``'s order (the final reranker's), given
    those hits' own scores, best first; the rest after them as they were, and so is what the
    final reranker did not return (a cascade's cut)."""
    head = hits[:size]
    scores = sorted((hit.score for hit in head), reverse=True)
    # the final stage's order stands: where the light stage tied, each later score is the
    # float just below the one before (a quote it judged worst must not lead on a tie)
    for k in range(1, len(scores)):
        if scores[k] >= scores[k - 1]:
            scores[k] = math.nextafter(scores[k - 1], -math.inf)
    # the returned get the best scores (a cut leaves fewer judged than scores)
    reordered = [Hit(h.item, score, h.dense) for h, score in zip(judged, scores, strict=False)]
    returned = {hit.item.id for hit in judged}
    return [*reordered, *(hit for hit in head if hit.item.id not in returned), *hits[size:]]


class FinalStage:
    """``reranker`` on the first ``candidates`` hits of each block it is given."""

    def __init__(self, reranker: Reranker, candidates: int) -> None:
        self.reranker = reranker
        self.candidates = candidates

    def judge(self, query: str, hits: Sequence[Hit], stage: str, trace: Trace) -> list[Hit]:
        """The first ``candidates`` of ``hits``, ordered and scored by the final reranker."""
        head = hits[: self.candidates]
        results = self.reranker.rank(query, [hit.item.text for hit in head])
        judged = [
            Hit(head[result.index].item, result.relevance_score, head[result.index].dense)
            for result in results
        ]
        trace.step("final_rerank", block=stage, scores=[(hit.item.id, hit.score) for hit in judged])
        return judged

    def reorder(self, query: str, hits: Sequence[Hit], stage: str, trace: Trace) -> list[Hit]:
        """``hits`` with the judged head in the final stage's order, on the light stage's
        scale (:func:`on_scale`)."""
        return on_scale(self.judge(query, hits, stage, trace), hits, self.candidates)

    def rerank(
        self, query: str, candidates: Mapping[str, list[Hit]], trace: Trace
    ) -> dict[str, list[Hit]]:
        """Every block's candidates reordered (an empty block is left as it is)."""
        return {
            block: self.reorder(query, hits, block, trace) if hits else hits
            for block, hits in candidates.items()
        }
