"""LangChain document compressors backed by rerank-plus: translation only, logic in the core."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import Callbacks
from langchain_core.documents import BaseDocumentCompressor, Document
from pydantic import ConfigDict, Field, PrivateAttr
from rerank_plus import RankedResult, Reranker
from rerank_plus.adapters_support import RankCall, copy_metadata, first_stage_scores, ready_reranker


class RerankPlusCompressor(BaseDocumentCompressor):
    """Reranks documents with any rerank-plus reranker and keeps the best ``top_n``.

    Returns copies of the documents (same ``id``, same metadata) with ``relevance_score`` added
    to their metadata, as LangChain's own rerankers do. A first-stage score found in metadata
    under ``score_key`` is passed to the reranker (fusion rerankers use it).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    top_n: int | None = Field(default=3, description="Documents to keep; None keeps all.")
    threshold: float | None = Field(default=None, description="Minimum relevance_score.")
    score_key: str | None = Field(default=None, description="Metadata key of a first-stage score.")
    explain: bool = Field(default=False, description="Put the explanation in metadata.")
    # Ready classes (rerank_plus.adapters_support.ready_class) name the kind they build.
    reranker_kind: ClassVar[str | None] = None
    _reranker: Reranker | None = PrivateAttr(default=None)

    def __init__(self, reranker: Reranker | None = None, **data: Any) -> None:
        super().__init__(**data)
        self._reranker = reranker

    @property
    def reranker(self) -> Reranker:
        """The core reranker: the one given, or the one the ready classes build from fields."""
        if self._reranker is None:
            self._reranker = ready_reranker(self.reranker_kind, self, rebuilt_by="model_dump")
        return self._reranker

    def _first_stage(self, documents: Sequence[Document]) -> list[float] | None:
        """The scores under ``score_key``, when every document has a number there."""
        if self.score_key is None:
            return None
        return first_stage_scores([d.metadata.get(self.score_key) for d in documents])

    def _call(self, documents: Sequence[Document], query: str) -> RankCall:
        return RankCall(
            query=query,
            documents=[d.page_content for d in documents],
            metadata=[d.metadata for d in documents],
            first_stage_scores=self._first_stage(documents),
            top_n=self.top_n,
            threshold=self.threshold,
            explain=self.explain,
        )

    @staticmethod
    def _copy(original: Document, result: RankedResult) -> Document:
        metadata = copy_metadata(original.metadata, result, relevance_score=result.relevance_score)
        return original.model_copy(update={"metadata": metadata})

    def compress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        results = self._call(documents, query).run(self.reranker)
        return [self._copy(documents[r.index], r) for r in results]

    async def acompress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        results = await self._call(documents, query).arun(self.reranker)
        return [self._copy(documents[r.index], r) for r in results]
