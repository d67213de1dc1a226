"""Request bodies, decoded the cheap way when they take the common shape.

Nearly every request is a JSON object of strings, a list of strings and a few flags. Such a body
is decoded with orjson and checked field by field against the schema's types, with no pydantic
model built (about 40% less CPU than ``model_validate_json`` for 100 documents of 200 words).
Anything else (document objects, the extension lists, a wrong type) goes through pydantic's
``model_validate`` on the same decoded value (a body is decoded once), and malformed JSON
through ``model_validate_json`` on the bytes; a client gets pydantic's errors: the schema
decides every case, the shortcut only skips re-checking what is plainly valid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError

from rerank_plus.serve.errors import ApiError
from rerank_plus.serve.schemas import CohereRerankRequest, TeiRerankRequest

_NOT_JSON = "Send the body as JSON with 'Content-Type: application/json'."

Check = Callable[[Any], bool]


@dataclass(frozen=True, slots=True)
class CohereCall:
    """A Cohere/Jina-shaped request, its documents as texts."""

    query: str
    documents: list[str]
    model: str | None = None
    top_n: int | None = None
    return_documents: bool = False
    max_tokens_per_doc: int | None = None
    explain: bool = False
    first_stage_scores: list[float] | None = None
    metadata: list[dict[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class TeiCall:
    """A text-embeddings-inference-shaped request."""

    query: str
    texts: list[str]
    raw_scores: bool = False
    return_text: bool = False
    truncate: bool = False
    model: str | None = None
    explain: bool = False


def _text(value: Any) -> bool:
    return type(value) is str


def _flag(value: Any) -> bool:
    return type(value) is bool


def _name(value: Any) -> bool:
    return value is None or type(value) is str


def _count(value: Any) -> bool:
    return value is None or (type(value) is int and value >= 1)


_STR = frozenset({str})


def _texts(value: Any) -> bool:
    # The item types in C, not a generator per item: a third of the check's time.
    return type(value) is list and _STR.issuperset(map(type, value))


def _absent(value: Any) -> bool:
    return value is None


# Per field, what the shortcut accepts: a subset of what the schema accepts. Fields a request
# leaves out take the dataclass's defaults, which are the schema's.
_COHERE: dict[str, Check] = {
    "query": _text,
    "documents": _texts,
    "model": _name,
    "top_n": _count,
    "return_documents": _flag,
    "max_tokens_per_doc": _count,
    "explain": _flag,
    "first_stage_scores": _absent,
    "metadata": _absent,
}
_TEI: dict[str, Check] = {
    "query": _text,
    "texts": _texts,
    "raw_scores": _flag,
    "return_text": _flag,
    "truncate": _flag,
    "model": _name,
    "explain": _flag,
}


_UNDECODED = object()


def _decode(body: bytes) -> Any:
    """The body's JSON value, or ``_UNDECODED`` when orjson refuses it."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return _UNDECODED


def _common_shape(
    data: Any, checks: Mapping[str, Check], required: Sequence[str]
) -> dict[str, Any] | None:
    """The known fields of ``data`` if it is plainly valid, else None (unknown fields are
    ignored, as the schema ignores them)."""
    if type(data) is not dict or any(name not in data for name in required):
        return None
    fields = {}
    for name, check in checks.items():
        if name in data:
            if not check(data[name]):
                return None
            fields[name] = data[name]
    return fields


def problem(errors: Sequence[Mapping[str, Any]]) -> ApiError:
    """What a client gets for a body that does not validate: malformed JSON or wrong fields."""
    if any(e.get("type") == "json_invalid" for e in errors):
        return ApiError(400, "The body is not valid JSON; send a JSON object.")
    where = "; ".join(
        f"{'.'.join(str(part) for part in e.get('loc', ())) or 'body'}: {e.get('msg')}"
        for e in errors[:5]
    )
    return ApiError(422, f"The request does not match the API: {where}.")


def _validated(body: bytes, data: Any, content_type: str | None, model: type[BaseModel]) -> Any:
    """The schema's model of a body, from its decoded value where orjson read it (the body is
    decoded once), from the bytes where it did not (pydantic then says what is wrong)."""
    try:
        if data is _UNDECODED:
            return model.model_validate_json(body)
        return model.model_validate(data)
    except ValidationError as error:
        if content_type is None:  # JSON is tried without a content type, and refused as such
            raise ApiError(415, _NOT_JSON) from error
        raise problem(error.errors()) from error


def _check_content_type(content_type: str | None) -> None:
    if content_type is not None and "json" not in content_type:
        raise ApiError(415, _NOT_JSON)


def parse_cohere(body: bytes, content_type: str | None) -> CohereCall:
    """A Cohere-shaped ``body``, or the 4xx that says what is wrong with it."""
    _check_content_type(content_type)
    data = _decode(body)
    fields = _common_shape(data, _COHERE, ("query", "documents"))
    if fields is not None:
        return CohereCall(**fields)
    request = _validated(body, data, content_type, CohereRerankRequest)
    return CohereCall(
        query=request.query,
        documents=[d if isinstance(d, str) else d.text for d in request.documents],
        model=request.model,
        top_n=request.top_n,
        return_documents=request.return_documents,
        max_tokens_per_doc=request.max_tokens_per_doc,
        explain=request.explain,
        first_stage_scores=request.first_stage_scores,
        metadata=request.metadata,
    )


def parse_tei(body: bytes, content_type: str | None) -> TeiCall:
    """A TEI-shaped ``body``, or the 4xx that says what is wrong with it."""
    _check_content_type(content_type)
    data = _decode(body)
    fields = _common_shape(data, _TEI, ("query", "texts"))
    if fields is not None:
        return TeiCall(**fields)
    request = _validated(body, data, content_type, TeiRerankRequest)
    return TeiCall(
        query=request.query,
        texts=request.texts,
        raw_scores=request.raw_scores,
        return_text=request.return_text,
        truncate=request.truncate,
        model=request.model,
        explain=request.explain,
    )
