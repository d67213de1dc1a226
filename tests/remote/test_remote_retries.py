"""RemoteReranker against a scripted server: retries (Retry-After, dropped connections, 5xx),
no retry on a client error, split lists merged exactly, and bad answers named."""

from __future__ import annotations

import time

import pytest
from rerank_plus.scoring.remote import RemoteReranker, RemoteRerankError, RetryPolicy
from scripted_server import cohere_answer, pointwise_score

DOCS = ["alpha", "a much longer document", "mid size", "x", "", "emoji 🦜🦜", "déjà vu"]
NO_WAIT = RetryPolicy(attempts=3, base_delay=0.0, jitter=False)


def expected_order() -> list[int]:
    scores = [pointwise_score(d) for d in DOCS]
    return sorted(range(len(DOCS)), key=lambda i: (-scores[i], i))


def test_429_with_retry_after_then_200(scripted_server) -> None:
    def script(n, body):
        return (
            (429, {"Retry-After": "1"}, {"message": "slow down"}) if n == 1 else cohere_answer(body)
        )

    server = scripted_server(script)
    started = time.monotonic()
    results = RemoteReranker(server.url, "cohere", retry=NO_WAIT).rank("q", DOCS)
    assert time.monotonic() - started >= 0.9  # waited what Retry-After asked, not base_delay
    assert len(server.bodies) == 2
    assert [r.index for r in results] == expected_order()


def test_a_dropped_connection_is_retried(scripted_server) -> None:
    server = scripted_server(lambda n, body: None if n == 1 else cohere_answer(body))
    results = RemoteReranker(server.url, "cohere", retry=NO_WAIT).rank("q", DOCS)
    assert len(server.bodies) == 2
    assert [r.index for r in results] == expected_order()


async def test_async_retries_too(scripted_server) -> None:
    def script(n, body):
        return (503, {}, {"message": "busy"}) if n == 1 else cohere_answer(body)

    server = scripted_server(script)
    results = await RemoteReranker(server.url, "cohere", retry=NO_WAIT).arank("q", DOCS)
    assert [r.index for r in results] == expected_order()


def test_gives_up_after_the_attempts_with_the_last_failure(scripted_server) -> None:
    server = scripted_server(lambda n, body: (502, {}, {"message": "bad gateway"}))
    with pytest.raises(RemoteRerankError, match=r"failed 3 times, the last with HTTP 502"):
        RemoteReranker(server.url, "cohere", retry=NO_WAIT).rank("q", DOCS)
    assert len(server.bodies) == 3


def test_a_client_error_is_not_retried(scripted_server) -> None:
    server = scripted_server(lambda n, body: (400, {}, {"message": "model not found"}))
    with pytest.raises(RemoteRerankError, match=r"HTTP 400: .*model not found"):
        RemoteReranker(server.url, "cohere", retry=NO_WAIT).rank("q", DOCS)
    assert len(server.bodies) == 1


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_long_lists_are_split_to_the_maximum_and_merged_exactly(
    scripted_server, asynchronous: bool
) -> None:
    def tei(n, body):
        if len(body["texts"]) > 2:  # TEI's --max-client-batch-size
            return 413, {}, {"error": "batch size > 2", "error_type": "Validation"}
        return (
            200,
            {},
            [{"index": i, "score": pointwise_score(t)} for i, t in enumerate(body["texts"])],
        )

    server = scripted_server(tei)
    remote = RemoteReranker(server.url, "tei", max_documents=2)
    ranked = await remote.arank("q", DOCS) if asynchronous else remote.rank("q", DOCS)
    assert [r.index for r in ranked] == expected_order()
    assert [r.relevance_score for r in ranked] == [pointwise_score(DOCS[r.index]) for r in ranked]
    assert sorted(len(b["texts"]) for b in server.bodies) == [1, 2, 2, 2]
    assert all(b["raw_scores"] is False for b in server.bodies)


def test_voyage_shape(scripted_server, monkeypatch: pytest.MonkeyPatch) -> None:
    def voyage(n, body):
        data = [
            {"index": i, "relevance_score": pointwise_score(d)}
            for i, d in enumerate(body["documents"])
        ]
        return 200, {}, {"object": "list", "data": data, "model": body["model"], "usage": {}}

    monkeypatch.setenv("VOYAGE_API_KEY", "pa-secret")
    server = scripted_server(voyage)
    ranked = RemoteReranker(server.url, "voyage", "rerank-2.5", "VOYAGE_API_KEY").rank("q", DOCS)
    assert [r.index for r in ranked] == expected_order()
    assert server.bodies[0] == {
        "model": "rerank-2.5", "query": "q", "documents": DOCS, "return_documents": False
    }  # fmt: skip
    assert server.headers[0]["Authorization"] == "Bearer pa-secret"


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        ({"unexpected": 1}, "no 'results' field"),
        ({"results": [{"index": 0}]}, "lacks 'index' or 'relevance_score'"),
        ({"results": [{"index": 0, "relevance_score": 0.5}]}, "scored 1 of 7 documents"),
    ],
)
def test_a_bad_answer_is_named(scripted_server, payload, says: str) -> None:
    server = scripted_server(lambda n, body: (200, {}, payload))
    with pytest.raises(RemoteRerankError, match=says):
        RemoteReranker(server.url, "cohere", retry=NO_WAIT).rank("q", DOCS)


def test_bad_settings_say_how_to_fix() -> None:
    with pytest.raises(ValueError, match="Unknown rerank protocol 'grpc'; choose one of cohere"):
        RemoteReranker("http://127.0.0.1:9/rerank", "grpc")
    with pytest.raises(ValueError, match="http:// or https://"):
        RemoteReranker("127.0.0.1:9/rerank")
    with pytest.raises(ValueError, match="attempts must be at least 1"):
        RetryPolicy(attempts=0)
