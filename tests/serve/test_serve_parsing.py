"""The orjson shortcut for request bodies decides exactly as the pydantic schema does, and the
rerank endpoints' fast path answers exactly as the same routes do through FastAPI."""

from __future__ import annotations

import functools
import json
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the server needs the 'server' extra")

from fastapi import FastAPI
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from rerank_plus import BM25Reranker
from rerank_plus.serve import ServeSettings, create_app
from rerank_plus.serve.errors import ApiError
from rerank_plus.serve.parsing import parse_cohere, parse_tei
from rerank_plus.serve.schemas import CohereRerankRequest, TeiRerankRequest

TEXT = st.text(max_size=30)
# Valid values and the near misses a shortcut could wave through: bools for counts, whole and
# fractional floats, zero and negatives, nulls, strings for flags, objects for documents.
ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 5),
    st.sampled_from([0.0, 3.0, 2.5, float("1e3")]),
    TEXT,
    st.lists(TEXT, max_size=3),
    st.just([{"text": "an object"}, "a string"]),
    st.just({"text": "x"}),
)
COHERE_FIELDS = (
    "query",
    "documents",
    "model",
    "top_n",
    "return_documents",
    "max_tokens_per_doc",
    "explain",
    "first_stage_scores",
    "metadata",
    "unknown",
)
TEI_FIELDS = ("query", "texts", "raw_scores", "return_text", "truncate", "model", "explain")


def bodies(fields: tuple[str, ...], texts: str) -> st.SearchStrategy[dict[str, Any]]:
    """Mostly well-formed bodies (the shortcut's case), with any field any value sometimes."""
    base = st.fixed_dictionaries({"query": TEXT, texts: st.lists(TEXT, max_size=4)})
    extra = st.dictionaries(st.sampled_from(fields), ANY, max_size=3)
    return st.builds(lambda b, e: {**b, **e}, base, extra)


def schema_says(model: type, body: bytes) -> dict[str, Any] | None:
    try:
        return model.model_validate_json(body).model_dump()
    except ValidationError:
        return None


@settings(max_examples=300, deadline=None)
@given(bodies(COHERE_FIELDS, "documents"))
def test_cohere_shortcut_agrees_with_the_schema(body: dict[str, Any]) -> None:
    raw = json.dumps(body).encode()
    expected = schema_says(CohereRerankRequest, raw)
    if expected is None:
        with pytest.raises(ApiError) as refused:
            parse_cohere(raw, "application/json")
        assert refused.value.status == 422
        return
    call = parse_cohere(raw, "application/json")
    texts = [d if isinstance(d, str) else d["text"] for d in expected.pop("documents")]
    assert call.documents == texts
    for name, value in expected.items():
        assert getattr(call, name) == value, name


@settings(max_examples=200, deadline=None)
@given(bodies(TEI_FIELDS, "texts"))
def test_tei_shortcut_agrees_with_the_schema(body: dict[str, Any]) -> None:
    raw = json.dumps(body).encode()
    expected = schema_says(TeiRerankRequest, raw)
    if expected is None:
        with pytest.raises(ApiError) as refused:
            parse_tei(raw, "application/json")
        assert refused.value.status == 422
        return
    call = parse_tei(raw, "application/json")
    for name, value in expected.items():
        assert getattr(call, name) == value, name


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b'{"query": "q", "documents": ["a"', "application/json", 400),
        (b"[1, 2]", "application/json", 422),
        (b'{"query": "q", "documents": ["a"], "top_n": true}', "application/json", 422),
        (b'{"query": "q", "documents": ["a"]}', "text/plain", 415),
        (b"not json", None, 415),
        (b'{"query": "\\ud800", "documents": ["a"]}', "application/json", 400),
    ],
)
def test_bad_bodies_get_the_schemas_answer(
    body: bytes, content_type: str | None, status: int
) -> None:
    with pytest.raises(ApiError) as refused:
        parse_cohere(body, content_type)
    assert refused.value.status == status


def test_a_body_without_content_type_is_read_as_json() -> None:
    call = parse_cohere(b'{"query": "q", "documents": ["a", {"text": "b"}], "top_n": 2.0}', None)
    assert (call.documents, call.top_n) == (["a", "b"], 2)


REQUESTS = [
    ("/v2/rerank", {"query": "capital of France", "documents": ["Paris, France", "Berlin"]}),
    ("/v1/rerank", {"query": "q", "documents": [{"text": "q q"}, "x"], "return_documents": True}),
    ("/rerank", {"query": "capital", "texts": ["capital city", "🇫🇷"], "return_text": True}),
    ("/v2/rerank", {"query": "q", "documents": ["a"], "model": "nope"}),
    ("/v2/rerank", {"query": " ", "documents": ["a"]}),
    ("/rerank", {"query": "q"}),
]


@pytest.mark.parametrize(("path", "body"), REQUESTS)
async def test_fast_path_answers_as_the_fastapi_route(path: str, body: dict[str, Any]) -> None:
    app = create_app({"bm25": BM25Reranker(language="en")}, ServeSettings(batch_wait=0))
    through_fastapi = functools.partial(FastAPI.__call__, app)
    answers = []
    for asgi in (app, through_fastapi):
        transport = httpx.ASGITransport(app=asgi)  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://server") as client:
            answer = await client.post(path, json=body)
        payload = answer.json()
        if isinstance(payload, dict):
            payload.pop("id", None)
        answers.append((answer.status_code, answer.headers["content-type"], payload))
    assert answers[0] == answers[1]


class RecordingBM25(BM25Reranker):
    """BM25 that keeps the document lists it is handed."""

    def __init__(self) -> None:
        super().__init__(language="en")
        self.seen: list[Any] = []

    def rank_many(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        self.seen += [item.documents for item in inputs]
        return super().rank_many(inputs, *args, **kwargs)


@pytest.mark.parametrize("path", ["/v2/rerank", "/v1/rerank"])
async def test_a_body_is_decoded_once_and_its_documents_reach_the_reranker_uncopied(
    path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import orjson
    from rerank_plus.serve import parsing

    decoded: list[Any] = []
    original = orjson.loads

    def loads(body: bytes) -> Any:
        decoded.append(original(body))
        return decoded[-1]

    monkeypatch.setattr(parsing.orjson, "loads", loads)
    reranker = RecordingBM25()
    app = create_app({"bm25": reranker}, ServeSettings(batch_wait=0))
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    body = {"query": "capital", "documents": ["capital city", "a river", "🇫🇷"]}
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as client:
        answer = await client.post(path, json=body)
    assert answer.status_code == 200
    assert len(decoded) == 1
    assert reranker.seen == [body["documents"]]
    assert reranker.seen[0] is decoded[0]["documents"]  # the decoder's own list
