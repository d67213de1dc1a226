"""Selection: order scored documents, then keep what top-n and the threshold allow."""

from __future__ import annotations

from collections.abc import Sequence

from rerank_plus.results import RankedResult


def order_results(results: Sequence[RankedResult]) -> list[RankedResult]:
    """Best first; equal scores keep the input order, so ties never depend on a hash or a sort."""
    return sorted(
        results, key=lambda result: (-result.relevance_score, -result.score, result.index)
    )


def select_results(
    ordered: Sequence[RankedResult], top_n: int | None = None, threshold: float | None = None
) -> list[RankedResult]:
    """Keep the results whose relevance reaches ``threshold``, then the first ``top_n`` of them.

    ``ordered`` must already be best first (see :func:`order_results`).
    """
    kept = [r for r in ordered if threshold is None or r.relevance_score >= threshold]
    return kept if top_n is None else kept[:top_n]
