"""The wire shapes of hosted and self-hosted rerank APIs: one request builder and one response
reader per protocol, so the client speaks all of them through one interface.

Sources (checked against each provider's public reference and official client):
- Cohere ``POST /v2/rerank``: ``{model, query, documents: [str], top_n, max_tokens_per_doc}`` ->
  ``{id, results: [{index, relevance_score}], meta}`` (docs.cohere.com/reference/rerank; the
  ``cohere`` SDK's ``v2/raw_client.py``). Infinity and vLLM (``/v2/rerank``) speak it too.
- Jina ``POST /v1/rerank``: ``{model, query, documents, top_n, return_documents}`` ->
  ``{model, usage, results: [{index, relevance_score, document?}]}`` (jina.ai/reranker).
- Voyage ``POST /v1/rerank``: ``{query, documents, model, top_k, return_documents, truncation}``
  -> ``{object, data: [{index, relevance_score, document?}], model, usage}``
  (docs.voyageai.com/reference/reranker-api).
- Hugging Face text-embeddings-inference ``POST /rerank``: ``{query, texts, raw_scores,
  return_text, truncate}`` -> ``[{index, score, text?}]``; the server refuses more than its
  ``--max-client-batch-size`` texts (default 32) in one request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class WireProtocol:
    """How to ask one kind of rerank API for a score per document, and read the answer.

    ``max_documents`` is the most documents one request may carry; longer lists are split.
    ``needs_model`` says whether the API refuses a request without ``model``.
    ``truncate_key`` is the body field of the API's switch between truncating a too-long
    document and refusing it (None: no such switch); ``doc_tokens_key`` the field of its
    token limit per document (None: the API has none).
    """

    name: str
    max_documents: int
    needs_model: bool
    build: Callable[[str, Sequence[str], str | None], dict[str, Any]]
    read: Callable[[Any], list[tuple[int, float]]]
    truncate_key: str | None = None
    doc_tokens_key: str | None = None


def _without_none(body: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if value is not None}


def _results(items: Any, score_key: str) -> list[tuple[int, float]]:
    if not isinstance(items, list):
        raise ValueError(f"expected a list of results, got {type(items).__name__}")
    pairs = []
    for item in items:
        if not isinstance(item, Mapping) or "index" not in item or score_key not in item:
            raise ValueError(f"a result lacks 'index' or {score_key!r}: {str(item)[:200]}")
        pairs.append((int(item["index"]), float(item[score_key])))
    return pairs


def _field(body: Any, key: str) -> Any:
    if not isinstance(body, Mapping) or key not in body:
        raise ValueError(f"the response has no {key!r} field: {str(body)[:200]}")
    return body[key]


def _cohere(query: str, documents: Sequence[str], model: str | None) -> dict[str, Any]:
    return _without_none({"model": model, "query": query, "documents": list(documents)})


def _jina(query: str, documents: Sequence[str], model: str | None) -> dict[str, Any]:
    return _without_none(
        {"model": model, "query": query, "documents": list(documents), "return_documents": False}
    )


def _voyage(query: str, documents: Sequence[str], model: str | None) -> dict[str, Any]:
    return _without_none(
        {"model": model, "query": query, "documents": list(documents), "return_documents": False}
    )


def _tei(query: str, documents: Sequence[str], model: str | None) -> dict[str, Any]:
    # raw_scores=False: TEI applies the sigmoid, so ``score`` is already a relevance in [0, 1].
    return {"query": query, "texts": list(documents), "raw_scores": False, "return_text": False}


PROTOCOLS: dict[str, WireProtocol] = {
    "cohere": WireProtocol(
        "cohere",
        1000,
        True,
        _cohere,
        lambda body: _results(_field(body, "results"), "relevance_score"),
        doc_tokens_key="max_tokens_per_doc",
    ),
    "jina": WireProtocol(
        "jina", 1000, True, _jina, lambda body: _results(_field(body, "results"), "relevance_score")
    ),
    "voyage": WireProtocol(
        "voyage",
        1000,
        True,
        _voyage,
        lambda body: _results(_field(body, "data"), "relevance_score"),
        truncate_key="truncation",
    ),
    "tei": WireProtocol(
        "tei", 32, False, _tei, lambda body: _results(body, "score"), truncate_key="truncate"
    ),
}


def get_protocol(name: str) -> WireProtocol:
    """The protocol called ``name``; an unknown name lists the valid ones."""
    if name not in PROTOCOLS:
        raise ValueError(
            f"Unknown rerank protocol {name!r}; choose one of {', '.join(sorted(PROTOCOLS))}."
        )
    return PROTOCOLS[name]
