"""LangChain document compressors backed by rerank-plus: translation only, logic in the core."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import Callbacks
from langchain_core.cross_encoders import BaseCrossEncoder
from langchain_core.documents import BaseDocumentCompressor, Document
from langchain_core.embeddings import Embeddings
from pydantic import ConfigDict, Field, PrivateAttr, field_validator
from rerank_plus import RankedResult, Reranker
from rerank_plus.adapters_support import (
    RankCall,
    copy_metadata,
    first_stage_scores,
    ready_reranker,
    result_metadata,
    text_with_fields,
)
from rerank_plus.validation import check_threshold, check_top_n

from langchain_rerank_plus.run_config import callbacks_of_model_calls


class RerankPlusCompressor(BaseDocumentCompressor):
    """Reranks documents with any rerank-plus reranker and keeps the best ``top_n``.

    Returns copies of the documents (same ``id``, same metadata) with ``relevance_score`` added
    to their metadata, as LangChain's own rerankers do, and the reranker's raw score under
    ``rerank_raw_score``. A first-stage score found in metadata under ``score_key`` is passed to
    the reranker (fusion rerankers use it). ``rank_fields`` puts metadata in the scored text
    (:func:`rerank_plus.adapters_support.text_with_fields`). The callbacks given to
    ``compress_documents`` (by a retriever's ``invoke``, with the run's tags and metadata) reach
    every model call the reranker makes.
    """

    model_config = ConfigDict(
        arbitrary_types_allowed=True, extra="forbid", validate_assignment=True
    )

    top_n: int | None = Field(default=3, description="Documents to keep; None keeps all.")
    threshold: float | None = Field(default=None, description="Minimum relevance_score.")
    score_key: str | None = Field(default=None, description="Metadata key of a first-stage score.")
    explain: bool = Field(default=False, description="Put the explanation in metadata.")
    rank_fields: list[str] | None = Field(
        default=None,
        description="Metadata keys scored with the text, as 'key: value' lines before it.",
    )
    # Ready classes (rerank_plus.adapters_support.ready_class) name the kind they build.
    reranker_kind: ClassVar[str | None] = None
    # A CrossEncoderRerank takes a BaseCrossEncoder as its model, a BiEncoderRerank Embeddings.
    model_objects: ClassVar[dict[str, type]] = {
        "cross-encoder": BaseCrossEncoder,
        "bi-encoder": Embeddings,
    }
    _reranker: Reranker | None = PrivateAttr(default=None)

    def __init__(self, reranker: Reranker | None = None, **data: Any) -> None:
        super().__init__(**data)
        self._reranker = reranker

    @field_validator("top_n")
    @classmethod
    def _top_n_in_range(cls, value: int | None) -> int | None:
        return check_top_n(value)

    @field_validator("threshold")
    @classmethod
    def _threshold_in_range(cls, value: float | None) -> float | None:
        return check_threshold(value)

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
            documents=[self._text(d) for d in documents],
            metadata=[d.metadata for d in documents],
            first_stage_scores=self._first_stage(documents),
            top_n=self.top_n,
            threshold=self.threshold,
            explain=self.explain,
        )

    def _text(self, document: Document) -> str:
        if not self.rank_fields:
            return document.page_content
        return text_with_fields(document.page_content, document.metadata, self.rank_fields)

    @staticmethod
    def _copy(original: Document, result: RankedResult) -> Document:
        metadata = copy_metadata(
            original.metadata,
            result,
            relevance_score=result.relevance_score,
            **result_metadata(result),
        )
        return original.model_copy(update={"metadata": metadata})

    def compress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        with callbacks_of_model_calls(callbacks):
            results = self._call(documents, query).run(self.reranker)
        return [self._copy(documents[r.index], r) for r in results]

    async def acompress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        with callbacks_of_model_calls(callbacks):
            results = await self._call(documents, query).arun(self.reranker)
        return [self._copy(documents[r.index], r) for r in results]
