"""Ready postprocessors: plain fields (so they serialize) from which the core builds a reranker."""

from __future__ import annotations

from typing import ClassVar

from llama_index.core.bridge.pydantic import Field

from llamaindex_rerank_plus.postprocessor import RerankPlusPostprocessor


class BM25Rerank(RerankPlusPostprocessor):
    """Multilingual BM25 + NLP reranking (offline, no model download)."""

    reranker_kind: ClassVar[str] = "bm25"
    k1: float = Field(default=1.5, description="BM25 term-frequency saturation.")
    b: float = Field(default=0.75, description="BM25 length normalization.")
    language: str | None = Field(default=None, description="Force one ISO 639-1 language.")

    @classmethod
    def class_name(cls) -> str:
        return "RerankPlusBM25Rerank"


class CrossEncoderRerank(RerankPlusPostprocessor):
    """Cross-encoder reranking (sentence-transformers); ``model=None`` picks one per language."""

    reranker_kind: ClassVar[str] = "cross-encoder"
    model: str | None = Field(default=None, description="Model name or local folder.")
    device: str | None = Field(default=None, description="cuda, mps or cpu; None picks.")
    batch_size: int = Field(default=32, description="Pairs per forward pass.")
    max_length: int | None = Field(default=None, description="Tokens per pair.")
    long_documents: str = Field(default="truncate", description="truncate or max_passage.")
    language: str | None = Field(default=None, description="Pick the default model for it.")

    @classmethod
    def class_name(cls) -> str:
        return "RerankPlusCrossEncoderRerank"


class BiEncoderRerank(RerankPlusPostprocessor):
    """Reranking by embedding cosine similarity, for lexical first stages."""

    reranker_kind: ClassVar[str] = "bi-encoder"
    model: str | None = Field(default=None, description="sentence-transformers model or folder.")
    device: str | None = Field(default=None, description="cuda, mps or cpu; None picks.")

    @classmethod
    def class_name(cls) -> str:
        return "RerankPlusBiEncoderRerank"
