"""FusionReranker: one reranker fused with the first stage, the common case in one line.

A preset: the fusion itself is :mod:`rerank_plus.combine.fusion` (the rules :class:`Pipeline`
uses), so both give the same values:

- ``weighted``: ``alpha * norm(rerank) + (1 - alpha) * norm(first_stage)``, ``norm`` min-max or
  z-score per query; a constant list normalizes to 0.5, so it neither helps nor hurts.
- ``rrf``: unweighted reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009),
  ``sum(1 / (k + rank))`` over the two rankings, k = 60; scale-free, so no normalization.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

from rerank_plus.combine.fusion import Fusion, ReciprocalRankFusion, WeightedFusion
from rerank_plus.combine.normalize import NORMALIZERS
from rerank_plus.reranker import Context, Reranker, Scores

FUSION_METHODS = ("rrf", "weighted")


class FusionReranker(Reranker):
    """Fuses a reranker's scores with the first-stage scores passed to ``rank``.

    Without first-stage scores (``first_stage_scores=None``) it ranks by the reranker alone.
    ``relevance_score`` is the fused value in [0, 1]; ``alpha`` (the weight of the rerank
    score) applies to ``weighted``, ``k`` to ``rrf``. For boosts and selection rules on top,
    use :class:`rerank_plus.Pipeline` with a fusion from :mod:`rerank_plus.combine`.

    >>> from rerank_plus import BM25Reranker
    >>> fused = FusionReranker(BM25Reranker(), method="weighted", alpha=0.7)
    >>> [r.index for r in fused.rank("cats", ["dogs", "cats"], first_stage_scores=[0.9, 0.1])]
    [1, 0]
    """

    def __init__(
        self,
        reranker: Reranker,
        *,
        method: str = "rrf",
        alpha: float = 0.5,
        normalization: str = "minmax",
        k: int = 60,
    ) -> None:
        if method not in FUSION_METHODS:
            raise ValueError(f"method must be one of {', '.join(FUSION_METHODS)}, got {method!r}.")
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f"alpha (weight of the rerank score) must be in [0, 1], got {alpha}.")
        if normalization not in NORMALIZERS:
            raise ValueError(
                f"normalization must be one of {', '.join(NORMALIZERS)}, got {normalization!r}."
            )
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}.")
        self.reranker = reranker
        self.method = method
        self.alpha = alpha
        self.normalization = normalization
        self.k = k
        self.fusion: Fusion = (
            ReciprocalRankFusion(k=k) if method == "rrf" else WeightedFusion(alpha, normalization)
        )

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        return self.reranker.score(query, documents, explain=explain)

    def score_candidates(
        self, query: str, documents: Sequence[str], **context: Unpack[Context]
    ) -> Scores:
        """The inner reranker's scores fused with the first stage's; ``metadata`` goes to it."""
        explain = context.get("explain", False)
        first = context.get("first_stage_scores")
        inner = self.reranker.score_candidates(
            query, documents, explain=explain, metadata=context.get("metadata")
        )
        if first is None:
            return inner
        fused = self.fusion.fuse(inner.raw, first).values
        explanations = None
        if explain:
            explanations = [
                {
                    **(inner.explanations[i] if inner.explanations else {}),
                    "rerank_score": inner.raw[i],
                    "first_stage_score": first[i],
                    "fusion": self._describe(),
                    "fused_score": fused[i],
                }
                for i in range(len(documents))
            ]
        return Scores(fused, fused, explanations)

    def _describe(self) -> dict[str, Any]:
        if self.method == "rrf":
            return {"method": "rrf", "k": self.k}
        return {"method": "weighted", "alpha": self.alpha, "normalization": self.normalization}
