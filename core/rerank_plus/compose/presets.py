"""Build a core reranker from plain options: what the adapters' ready classes serialize.

Framework adapters keep a reranker's settings as plain fields (so they round-trip through
``to_dict``/``model_dump``) and call :func:`build_reranker` to get the core object back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rerank_plus.reranker import Reranker


def _bm25(options: Mapping[str, Any]) -> Reranker:
    from rerank_plus.scoring.bm25 import BM25Reranker

    return BM25Reranker(**options)


def _cross_encoder(options: Mapping[str, Any]) -> Reranker:
    from rerank_plus.scoring.cross_encoder import CrossEncoderReranker

    return CrossEncoderReranker(**options)


def _bi_encoder(options: Mapping[str, Any]) -> Reranker:
    from rerank_plus.scoring.bi_encoder import BiEncoderReranker

    return BiEncoderReranker(**options)


def _llm(mode: str) -> Callable[[Mapping[str, Any]], Reranker]:
    def build(options: Mapping[str, Any]) -> Reranker:
        from rerank_plus.scoring.llm.config import build_llm_reranker

        return build_llm_reranker(mode, options)

    return build


RERANKERS: dict[str, Callable[[Mapping[str, Any]], Reranker]] = {
    "bm25": _bm25,
    "bi-encoder": _bi_encoder,
    "cross-encoder": _cross_encoder,
    "llm-listwise": _llm("listwise"),
    "llm-pointwise": _llm("pointwise"),
}


def build_reranker(kind: str, **options: Any) -> Reranker:
    """``build_reranker("bm25", k1=1.2)`` -> ``BM25Reranker(k1=1.2)``; options left at None are
    dropped, so each reranker keeps its own defaults."""
    if kind not in RERANKERS:
        raise ValueError(
            f"Unknown reranker {kind!r}; choose one of {', '.join(sorted(RERANKERS))}."
        )
    return RERANKERS[kind]({k: v for k, v in options.items() if v is not None})
