"""FusionReranker: one reranker fused with the first stage, the common case in one line.

A preset over :class:`Pipeline`: it only builds the fusion (:mod:`rerank_plus.combine`), so a
``FusionReranker`` and a ``Pipeline`` with the same fusion give the same values. Without
options it uses the library's default fusion, :data:`rerank_plus.combine.DEFAULT_FUSION`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rerank_plus.combine.registry import DEFAULT_FUSION, build_fusion
from rerank_plus.compose.pipeline import Pipeline
from rerank_plus.reranker import Reranker


class FusionReranker(Pipeline):
    """Fuses a reranker's scores (BM25 by default) with the first-stage scores passed to ``rank``.

    ``fusion`` is a fusion's options (``"rrf"``, ``{"method": "weighted", "alpha": 0.7}``), or
    give ``method``, ``alpha``, ``normalization``, ``k`` as keywords; nothing means the default
    fusion. Without first-stage scores it ranks by the reranker alone. ``relevance_score`` is
    the fused value in [0, 1]. For boosts and selection rules on top, use :class:`Pipeline`.

    >>> from rerank_plus import BM25Reranker
    >>> fused = FusionReranker(BM25Reranker(), method="weighted", alpha=0.7)
    >>> [r.index for r in fused.rank("cats", ["dogs", "cats"], first_stage_scores=[0.9, 0.1])]
    [1, 0]
    """

    def __init__(
        self,
        reranker: Reranker | None = None,
        fusion: Mapping[str, Any] | str | None = None,
        *,
        method: str | None = None,
        alpha: float | None = None,
        normalization: str | None = None,
        k: int | None = None,
    ) -> None:
        keywords = {
            key: value
            for key, value in (
                ("method", method),
                ("alpha", alpha),
                ("normalization", normalization),
                ("k", k),
            )
            if value is not None
        }
        if fusion is not None and keywords:
            raise ValueError(
                "give the fusion either as options (fusion=...) or as keywords "
                "(method, alpha, normalization, k), not both."
            )
        if reranker is None:
            from rerank_plus.scoring.bm25 import BM25Reranker

            reranker = BM25Reranker()
        options: Mapping[str, Any] | str = fusion if fusion is not None else keywords
        if not options:
            options = DEFAULT_FUSION
        super().__init__(reranker, fusion=build_fusion(options, reranker=reranker))
        self.options = options

    def __repr__(self) -> str:
        return f"FusionReranker({type(self.reranker).__name__}(), fusion={self.fusion!r})"
