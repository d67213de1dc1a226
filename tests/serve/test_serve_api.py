"""The rerank API over real HTTP: shapes, auth, limits and errors (always JSON, never a 500)."""

from __future__ import annotations

import json

import httpx
import pytest
from live_server import MAX_BODY_BYTES, LiveServer
from rerank_plus import BM25Reranker

QUERY = "capital of France"
DOCS = [
    "Berlin is the capital of Germany.",
    "Paris is the capital and largest city of France.",
    "Le Louvre est un musée à Paris, la capitale de la France.",
    "🇫🇷🗼🥐",
    "",
    "Marathon runners train for months.",
]


def post(server: LiveServer, path: str, body: object, **options: object) -> httpx.Response:
    return httpx.post(
        f"{server.url}{path}", json=body, headers=server.headers(), timeout=60, **options
    )


@pytest.fixture(scope="module")
def expected() -> list[tuple[int, float]]:
    return [(r.index, r.relevance_score) for r in BM25Reranker().rank(QUERY, DOCS)]


def test_health_lists_the_models_without_a_key(live_server: LiveServer) -> None:
    answer = httpx.get(f"{live_server.url}/health", timeout=10)
    workers = {"up": live_server.workers, "of": live_server.workers}
    assert answer.json() == {"status": "ok", "models": ["bm25", "detail"], "workers": workers}


@pytest.mark.parametrize("path", ["/v1/rerank", "/v2/rerank"])
def test_cohere_shape_gives_the_in_process_ranking(
    live_server: LiveServer, path: str, expected: list[tuple[int, float]]
) -> None:
    answer = post(live_server, path, {"model": "bm25", "query": QUERY, "documents": DOCS})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert set(body) >= {"id", "results", "meta"}
    assert [(r["index"], r["relevance_score"]) for r in body["results"]] == expected
    assert body["meta"]["api_version"]["version"] == path[2]


def test_v1_takes_document_objects_and_returns_documents_and_explanations(
    live_server: LiveServer,
) -> None:
    documents = [{"text": d, "id": str(i)} for i, d in enumerate(DOCS)]
    body = post(
        live_server,
        "/v1/rerank",
        {"query": QUERY, "documents": documents, "top_n": 2, "return_documents": True,
         "explain": True},
    ).json()  # fmt: skip
    assert [r["index"] for r in body["results"]] == [1, 0]
    assert body["results"][0]["document"] == {"text": DOCS[1]}
    assert body["results"][0]["explanation"]["reranker"]["matched_terms"]


def test_model_selects_a_profile(live_server: LiveServer) -> None:
    body = post(live_server, "/v2/rerank", {"model": "detail", "query": QUERY, "documents": DOCS})
    assert body.status_code == 200
    assert body.json()["model"] == "detail"
    assert len(body.json()["results"]) <= 5  # the detail profile keeps at most five


def test_tei_shape_scores_every_text_best_first(live_server: LiveServer) -> None:
    plain = post(live_server, "/rerank", {"query": QUERY, "texts": DOCS, "return_text": True})
    raw = post(live_server, "/rerank", {"query": QUERY, "texts": DOCS, "raw_scores": True})
    ranked = BM25Reranker().rank(QUERY, DOCS)
    assert [(r["index"], r["score"]) for r in plain.json()] == [
        (r.index, r.relevance_score) for r in ranked
    ]
    assert [r["score"] for r in raw.json()] == [r.score for r in ranked]
    assert plain.json()[0]["text"] == DOCS[ranked[0].index]


def test_max_tokens_per_doc_scores_only_the_head(live_server: LiveServer) -> None:
    documents = ["filler words here then France capital", "France capital"]
    body = post(
        live_server,
        "/v2/rerank",
        {"query": QUERY, "documents": documents, "max_tokens_per_doc": 3},
    ).json()
    scores = {r["index"]: r["relevance_score"] for r in body["results"]}
    assert scores[0] == 0.0 < scores[1]


@pytest.mark.parametrize(
    "headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic abc"}]
)
def test_a_missing_or_wrong_key_is_refused(live_server: LiveServer, headers: dict) -> None:
    answer = httpx.post(
        f"{live_server.url}/v2/rerank", json={"query": "q", "documents": ["d"]}, headers=headers
    )
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"] == "Bearer"
    assert "Authorization: Bearer" in answer.json()["message"]


def test_unknown_model_is_404_listing_the_names(live_server: LiveServer) -> None:
    answer = post(live_server, "/v2/rerank", {"model": "gpt", "query": "q", "documents": ["d"]})
    assert answer.status_code == 404
    assert answer.json() == {"message": "Unknown model 'gpt'; this server offers: bm25, detail."}


@pytest.mark.parametrize(
    ("content", "status", "says"),
    [
        (b"{not json", 400, "not valid JSON"),
        (b"[1, 2]", 422, "does not match the API"),
        (json.dumps({"query": "q", "documents": [1, None]}).encode(), 422, "documents.0"),
        (json.dumps({"query": "q", "documents": ["d"], "top_n": 0}).encode(), 422, "top_n"),
        (json.dumps({"query": "  ", "documents": ["d"]}).encode(), 400, "query is empty"),
        (json.dumps({"documents": ["d"]}).encode(), 422, "query"),
    ],
)
def test_bad_requests_get_a_json_4xx(
    live_server: LiveServer, content: bytes, status: int, says: str
) -> None:
    answer = httpx.post(
        f"{live_server.url}/v2/rerank",
        content=content,
        headers={**live_server.headers(), "Content-Type": "application/json"},
    )
    assert answer.status_code == status, answer.text
    assert says in answer.json()["message"]


def test_a_body_without_json_content_type_is_415(live_server: LiveServer) -> None:
    answer = httpx.post(
        f"{live_server.url}/v2/rerank", content=b'{"query": "q"}', headers=live_server.headers()
    )
    assert answer.status_code == 415


def test_ten_thousand_documents_are_refused_with_the_limit(live_server: LiveServer) -> None:
    answer = post(live_server, "/v2/rerank", {"query": "q", "documents": ["d"] * 10_000})
    assert answer.status_code == 400
    assert "10000 documents in one request; the limit is 1000" in answer.json()["message"]


def test_a_body_over_the_limit_is_413(live_server: LiveServer) -> None:
    huge = "x" * (MAX_BODY_BYTES + 1)
    answer = post(live_server, "/v2/rerank", {"query": "q", "documents": [huge]})
    assert answer.status_code == 413
    assert f"larger than {MAX_BODY_BYTES} bytes" in answer.json()["message"]


def test_unknown_path_and_method_are_json_errors(live_server: LiveServer) -> None:
    missing = httpx.get(f"{live_server.url}/v3/rerank", headers=live_server.headers())
    wrong = httpx.get(f"{live_server.url}/v2/rerank", headers=live_server.headers())
    assert (missing.status_code, wrong.status_code) == (404, 405)
    assert "message" in missing.json() and "message" in wrong.json()


def test_openapi_documents_the_endpoints(live_server: LiveServer) -> None:
    schema = httpx.get(f"{live_server.url}/openapi.json", headers=live_server.headers()).json()
    assert {"/v1/rerank", "/v2/rerank", "/rerank", "/health", "/metrics"} <= set(schema["paths"])


def test_metrics_count_requests_errors_and_documents(live_server: LiveServer) -> None:
    post(live_server, "/v2/rerank", {"model": "gpt", "query": "q", "documents": ["d"]})
    post(live_server, "/v2/rerank", {"model": "bm25", "query": "q", "documents": ["a", "b"]})
    text = httpx.get(f"{live_server.url}/metrics").text
    assert 'rerank_plus_errors_total{status="404"}' in text
    assert 'rerank_plus_requests_total{path="/v2/rerank",status="200"}' in text
    assert 'rerank_plus_documents_total{model="bm25"}' in text
    assert "rerank_plus_request_seconds_bucket" in text
