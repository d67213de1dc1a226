"""Request and response bodies in the shapes rerank clients already send and read.

- Cohere ``/v1/rerank`` and ``/v2/rerank`` (docs.cohere.com/reference/rerank; the ``cohere``
  SDK's ``v2/raw_client.py`` and ``types/v2rerank_response.py``). ``/v1/rerank`` answers in a
  superset that Jina's clients read too (``model``, ``usage``; jina.ai/reranker).
- Hugging Face text-embeddings-inference ``/rerank`` (its ``openapi.json``: ``RerankRequest``,
  ``Rank``).

Fields marked "extension" are rerank-plus's own; clients that do not know them ignore them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class TextDocument(BaseModel):
    """A document as an object (Cohere v1, Jina): its ``text``; other fields are ignored."""

    model_config = ConfigDict(extra="allow")
    text: str


class CohereRerankRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    model: str | None = Field(
        None, description="A configured reranker or profile; default: the first."
    )
    query: str
    documents: list[str | TextDocument]
    top_n: int | None = Field(None, ge=1, description="Keep at most this many results.")
    return_documents: bool = Field(False, description="Echo each kept document's text.")
    max_tokens_per_doc: int | None = Field(
        None,
        ge=1,
        description="Score only the first N whitespace-separated tokens of each document.",
    )
    explain: bool = Field(False, description="Extension: say where each score came from.")
    first_stage_scores: list[float] | None = Field(
        None, description="Extension: the retriever's scores, one per document, for fusion."
    )
    metadata: list[dict[str, Any]] | None = Field(
        None, description="Extension: one mapping per document, for boosts."
    )


class CohereResult(BaseModel):
    index: int
    relevance_score: float
    document: TextDocument | None = None
    explanation: dict[str, Any] | None = Field(None, description="Extension, with explain.")


class CohereRerankResponse(BaseModel):
    id: str
    results: list[CohereResult]
    meta: dict[str, Any]


class TeiRerankRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    query: str
    texts: list[str]
    raw_scores: bool = Field(False, description="Return the scorer's raw score, not [0, 1].")
    return_text: bool = False
    truncate: bool = False
    model: str | None = Field(None, description="Extension: a configured reranker or profile.")
    explain: bool = Field(False, description="Extension: say where each score came from.")


class TeiRank(BaseModel):
    index: int
    score: float
    text: str | None = None
    explanation: dict[str, Any] | None = None


class ErrorBody(BaseModel):
    message: str
