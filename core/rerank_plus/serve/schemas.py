"""Request and response bodies in the shapes rerank clients already send and read.

- Cohere ``/v1/rerank`` and ``/v2/rerank`` (docs.cohere.com/reference/rerank; the ``cohere``
  SDK's ``v2/raw_client.py`` and ``types/v2rerank_response.py``). ``/v1/rerank`` answers in a
  superset that Jina's clients read too (``model``, ``usage``; jina.ai/reranker).
- Hugging Face text-embeddings-inference ``/rerank`` (its ``openapi.json``: ``RerankRequest``,
  ``Rank``).

Fields marked "extension" are rerank-plus's own; clients that do not know them ignore them.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


def _whole_float_as_int(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: A count of at least 1. JSON Schema's "integer" counts 3.0 as one, which strict validation
#: alone would refuse.
Count = Annotated[int, Field(ge=1), BeforeValidator(_whole_float_as_int)]


class TextDocument(BaseModel):
    """A document as an object (Cohere v1, Jina): its ``text``; other fields are ignored."""

    model_config = ConfigDict(extra="allow", strict=True)
    text: str


class CohereRerankRequest(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    model: str | None = Field(
        None, description="A configured reranker or profile; default: the first."
    )
    query: str
    documents: list[str | TextDocument]
    top_n: Count | None = Field(None, description="Keep at most this many results.")
    return_documents: bool = Field(False, description="Echo each kept document's text.")
    max_tokens_per_doc: Count | None = Field(
        None,
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
    model_config = ConfigDict(extra="ignore", strict=True)

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
