"""What the framework adapters share and no framework needs: kept here so they stay thin."""

from __future__ import annotations

import inspect

from rerank_plus.reranker import Reranker


def accepts_metadata(reranker: Reranker) -> bool:
    """Whether ``reranker.rank(..., metadata=...)`` reaches a ``score_candidates`` that takes it.

    ``rank`` forwards ``metadata`` to ``score_candidates`` only when the caller gives it, and
    overrides that do not read metadata (fusion) need not accept the keyword; adapters always
    have node or document metadata at hand, so they ask first.

    >>> from rerank_plus import BM25Reranker
    >>> accepts_metadata(BM25Reranker())
    True
    """
    parameters = inspect.signature(reranker.score_candidates).parameters.values()
    return any(p.name == "metadata" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)
