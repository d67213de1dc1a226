"""Fusion with the first stage: the vector score still carries meaning, so combine it.

Two rules, each per query:

- ``weighted``: ``alpha * norm(rerank) + (1 - alpha) * norm(first_stage)``, with ``norm`` min-max
  or z-score as :mod:`rerank_plus.combine.normalize` defines them (both in [0, 1]). A constant list
  (every score equal) normalizes to 0.5, so it neither helps nor hurts.
- ``rrf``: reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009),
  ``sum(1 / (k + rank))`` over the two rankings, k = 60; scale-free, so no normalization.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rerank_plus.combine.fusion import ranks
from rerank_plus.combine.normalize import NORMALIZERS
from rerank_plus.reranker import Reranker, Scores

FUSION_METHODS = ("rrf", "weighted")
NORMALIZATIONS = tuple(NORMALIZERS)


def normalize(values: Sequence[float], method: str = "minmax") -> list[float]:
    """Map one query's scores to [0, 1] (constant input maps to 0.5); see ``combine.normalize``."""
    if method not in NORMALIZATIONS:
        raise ValueError(
            f"normalization must be one of {', '.join(NORMALIZATIONS)}, got {method!r}."
        )
    return NORMALIZERS[method](values)


class FusionReranker(Reranker):
    """Fuses a reranker's scores with the first stage's scores passed to ``rank``.

    Without first-stage scores (``first_stage_scores=None``) it ranks by the reranker alone.
    ``relevance_score`` is the fused value in [0, 1] (RRF is divided by its maximum, 2/(k+1)).

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
        if normalization not in NORMALIZATIONS:
            raise ValueError(
                f"normalization must be one of {', '.join(NORMALIZATIONS)}, got {normalization!r}."
            )
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}.")
        self.reranker = reranker
        self.method = method
        self.alpha = alpha
        self.normalization = normalization
        self.k = k

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        return self.reranker.score(query, documents, explain=explain)

    def score_candidates(
        self,
        query: str,
        documents: Sequence[str],
        *,
        first_stage_scores: Sequence[float] | None = None,
        explain: bool = False,
        **context: Any,
    ) -> Scores:
        """``context`` (the documents' ``metadata``, when given) goes to the inner reranker."""
        inner = self.reranker.score_candidates(query, documents, explain=explain, **context)
        if first_stage_scores is None:
            return inner
        if self.method == "rrf":
            rerank_ranks, first_ranks = ranks(inner.raw), ranks(first_stage_scores)
            top = 2.0 / (self.k + 1)
            fused = [
                (1 / (self.k + a) + 1 / (self.k + b)) / top
                for a, b in zip(rerank_ranks, first_ranks, strict=True)
            ]
        else:
            mine = normalize(inner.raw, self.normalization)
            theirs = normalize(first_stage_scores, self.normalization)
            fused = [
                self.alpha * a + (1 - self.alpha) * b for a, b in zip(mine, theirs, strict=True)
            ]
        explanations = None
        if explain:
            explanations = [
                {
                    **(inner.explanations[i] if inner.explanations else {}),
                    "rerank_score": inner.raw[i],
                    "first_stage_score": first_stage_scores[i],
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
