"""What the framework adapters share and no framework needs, so each adapter only translates.

An adapter turns its framework's objects (LlamaIndex nodes, LangChain documents) into a
:class:`RankCall`, runs it, and copies the kept objects with :func:`copy_metadata`; its ready
classes name a reranker kind and :func:`ready_reranker` builds it from their fields.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rerank_plus.compose.presets import build_reranker
from rerank_plus.reranker import Reranker
from rerank_plus.results import RankedResult

# The fields each ready class declares, by the reranker kind it builds (compose.presets).
READY_OPTIONS: dict[str, tuple[str, ...]] = {
    "bm25": ("k1", "b", "language"),
    "bi-encoder": ("model", "device"),
    "cross-encoder": ("model", "device", "batch_size", "max_length", "long_documents", "language"),
}


def ready_reranker(kind: str | None, settings: object, *, rebuilt_by: str) -> Reranker:
    """The core reranker a ready class describes with its fields, read from ``settings``.

    ``kind`` None means the adapter wraps a reranker it was given and has none: the error says
    how to give one and that ``rebuilt_by`` (the framework's deserializer) needs a ready class.
    """
    if kind is None:
        owner = type(settings).__name__
        raise ValueError(
            f"{owner} has no reranker: pass one, {owner}(reranker=BM25Reranker()), or use a "
            f"ready class (BM25Rerank, CrossEncoderRerank, BiEncoderRerank), which {rebuilt_by} "
            "can rebuild."
        )
    return build_reranker(kind, **{name: getattr(settings, name) for name in READY_OPTIONS[kind]})


def first_stage_scores(values: Sequence[object]) -> list[float] | None:
    """The retriever's scores when every candidate has a number, else None (no fusion).

    >>> first_stage_scores([0.5, 1]), first_stage_scores([0.5, None])
    ([0.5, 1.0], None)
    """
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return [float(v) for v in numbers] if len(numbers) == len(values) else None


@dataclass(frozen=True)
class RankCall:
    """One rerank an adapter asks for, its framework objects already turned into plain values.

    ``run`` and ``arun`` are the same call, so an adapter's sync and async paths differ only in
    which one they await; ``arun`` uses the reranker's ``arank`` (a worker thread by default).
    """

    query: str
    documents: Sequence[str]
    metadata: Sequence[Mapping[str, Any]]
    first_stage_scores: Sequence[float] | None
    top_n: int | None
    threshold: float | None
    explain: bool

    def run(self, reranker: Reranker) -> list[RankedResult]:
        return reranker.rank(self.query, self.documents, **self._options())

    async def arun(self, reranker: Reranker) -> list[RankedResult]:
        return await reranker.arank(self.query, self.documents, **self._options())

    def _options(self) -> dict[str, Any]:
        return {
            "top_n": self.top_n,
            "threshold": self.threshold,
            "first_stage_scores": self.first_stage_scores,
            "explain": self.explain,
            "metadata": self.metadata,
        }


def copy_metadata(
    metadata: Mapping[str, Any], result: RankedResult, **added: Any
) -> dict[str, Any]:
    """The metadata of a kept object's copy: the original's (deep-copied, so changing the copy
    never reaches the caller's object, as LangChain's own rerankers do), then ``added``, then
    the explanation under ``rerank_explanation`` when one was asked for.
    """
    copied = {**copy.deepcopy(dict(metadata)), **added}
    if result.explanation is not None:
        copied["rerank_explanation"] = copy.deepcopy(dict(result.explanation))
    return copied
