"""LangChain document compressors backed by rerank-plus: translation only, logic in the core."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.documents import BaseDocumentCompressor, Document
from pydantic import ConfigDict, Field, PrivateAttr
from rerank_plus import RankedResult, Reranker
from rerank_plus.adapters_support import accepts_metadata
from rerank_plus.presets import build_reranker


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
    _reranker: Reranker | None = PrivateAttr(default=None)

    def __init__(self, reranker: Reranker | None = None, **data: Any) -> None:
        super().__init__(**data)
        self._reranker = reranker

    @property
    def reranker(self) -> Reranker:
        if self._reranker is None:
            self._reranker = self.build_reranker()
        return self._reranker

    def build_reranker(self) -> Reranker:
        raise ValueError(
            "RerankPlusCompressor has no reranker: pass one, "
            "RerankPlusCompressor(reranker=BM25Reranker()), or use a ready class "
            "(BM25Rerank, CrossEncoderRerank, BiEncoderRerank), which model_dump can rebuild."
        )

    def _first_stage(self, documents: Sequence[Document]) -> list[float] | None:
        """The scores under ``score_key``, when every document has a number there."""
        if self.score_key is None:
            return None
        scores = [d.metadata.get(self.score_key) for d in documents]
        if not all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores):
            return None
        return [float(s) for s in scores if isinstance(s, (int, float))]

    def _arguments(self, documents: Sequence[Document]) -> dict[str, Any]:
        return {
            "documents": [d.page_content for d in documents],
            "top_n": self.top_n,
            "threshold": self.threshold,
            "first_stage_scores": self._first_stage(documents),
            "explain": self.explain,
            "metadata": [d.metadata for d in documents]
            if accepts_metadata(self.reranker)
            else None,
        }

    @staticmethod
    def _copy(original: Document, result: RankedResult) -> Document:
        metadata = {**original.metadata, "relevance_score": result.relevance_score}
        if result.explanation is not None:
            metadata["rerank_explanation"] = dict(result.explanation)
        return original.model_copy(update={"metadata": metadata})

    def compress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        if not documents:
            return []
        results = self.reranker.rank(query, **self._arguments(documents))
        return [self._copy(documents[r.index], r) for r in results]

    async def acompress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        if not documents:
            return []
        results = await self.reranker.arank(query, **self._arguments(documents))
        return [self._copy(documents[r.index], r) for r in results]


class BM25Rerank(RerankPlusCompressor):
    """Multilingual BM25 + NLP reranking (offline, no model download)."""

    k1: float = Field(default=1.5, description="BM25 term-frequency saturation.")
    b: float = Field(default=0.75, description="BM25 length normalization.")
    language: str | None = Field(default=None, description="Force one ISO 639-1 language.")

    def build_reranker(self) -> Reranker:
        return build_reranker("bm25", k1=self.k1, b=self.b, language=self.language)


class CrossEncoderRerank(RerankPlusCompressor):
    """Cross-encoder reranking (sentence-transformers); ``model=None`` picks one per language."""

    model: str | None = Field(default=None, description="Model name or local folder.")
    device: str | None = Field(default=None, description="cuda, mps or cpu; None picks.")
    batch_size: int = Field(default=32, description="Pairs per forward pass.")
    max_length: int | None = Field(default=None, description="Tokens per pair.")
    long_documents: str = Field(default="truncate", description="truncate or max_passage.")
    language: str | None = Field(default=None, description="Pick the default model for it.")

    def build_reranker(self) -> Reranker:
        return build_reranker(
            "cross-encoder",
            model=self.model,
            device=self.device,
            batch_size=self.batch_size,
            max_length=self.max_length,
            long_documents=self.long_documents,
            language=self.language,
        )


class BiEncoderRerank(RerankPlusCompressor):
    """Reranking by embedding cosine similarity, for lexical first stages."""

    model: str | None = Field(default=None, description="sentence-transformers model or folder.")
    device: str | None = Field(default=None, description="cuda, mps or cpu; None picks.")

    def build_reranker(self) -> Reranker:
        return build_reranker("bi-encoder", model=self.model, device=self.device)
