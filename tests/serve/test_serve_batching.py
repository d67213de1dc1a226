"""Micro-batching: concurrent requests for a neural reranker are ranked in shared
``rank_many`` calls and get exactly what one request at a time gets.

The reranker is a real cross-encoder (the tiny model trained in tests/neural/conftest.py) whose
``score_many`` counts its calls; the server is the real app, called in-process over ASGI.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from rerank_plus.errors import RerankPlusError
from rerank_plus.reranker import Context, Scores

pytest.importorskip("fastapi", reason="the server needs the 'server' extra")
pytest.importorskip("sentence_transformers", reason="the cross-encoder needs 'cross-encoder'")

from rerank_plus.scoring.cross_encoder import CrossEncoderReranker
from rerank_plus.serve import ServeSettings, create_app
from rerank_plus.serve.batching import shares_batches

FILLER = ["the", "city", "park", "river", "bridge", "music", "book", "table", "garden"]
QUERIES = [f"race {FILLER[i % len(FILLER)]}" for i in range(16)]


def documents_for(i: int) -> list[str]:
    """Each query its own candidates: some mention the keyword, lengths vary (padding)."""
    words = [FILLER[(i + k) % len(FILLER)] for k in range(12)]
    return [
        " ".join(words[: 3 + (i + k) % 9]) + (" marathon" if (i + k) % 3 == 0 else "")
        for k in range(5 + i % 4)
    ]


class CountingCrossEncoder(CrossEncoderReranker):
    """A cross-encoder that records how many queries each ``score_many`` call scored."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path), device="cpu", cache_size=0)
        self.calls: list[int] = []

    def score_many(
        self,
        queries: Sequence[str],
        documents: Sequence[Sequence[str]],
        contexts: Sequence[Context],
    ) -> list[Scores]:
        self.calls.append(len(queries))
        return super().score_many(queries, documents, contexts)


class FailsOnOneQuery(CountingCrossEncoder):
    """Fails to score the query ``"explode"``, as a model failing on one input would."""

    def score_many(
        self,
        queries: Sequence[str],
        documents: Sequence[Sequence[str]],
        contexts: Sequence[Context],
    ) -> list[Scores]:
        if "explode" in queries:
            raise RerankPlusError("the model failed on this input")
        return super().score_many(queries, documents, contexts)


class HeldCrossEncoder(CountingCrossEncoder):
    """Scores only once ``release`` is set, as a model stuck on a long input would."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.release = threading.Event()

    def score_many(
        self,
        queries: Sequence[str],
        documents: Sequence[Sequence[str]],
        contexts: Sequence[Context],
    ) -> list[Scores]:
        if "slow" in queries:
            self.release.wait(timeout=30)
        return super().score_many(queries, documents, contexts)


def client_for(reranker: CrossEncoderReranker, **settings: Any) -> httpx.AsyncClient:
    app = create_app({"neural": reranker}, ServeSettings(**settings))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://server")


def pairs(results: Sequence[Mapping[str, Any]]) -> list[tuple[int, float]]:
    return [(r["index"], r["relevance_score"]) for r in results]


async def post_all(client: httpx.AsyncClient, bodies: list[dict]) -> list[httpx.Response]:
    return list(await asyncio.gather(*(client.post("/v2/rerank", json=b) for b in bodies)))


def test_only_rerankers_that_share_batches_wait_for_neighbours(
    tiny_cross_encoder_path: Path,
) -> None:
    from rerank_plus import BM25Reranker

    neural, lexical = CountingCrossEncoder(tiny_cross_encoder_path), BM25Reranker()
    assert shares_batches(neural) and not shares_batches(lexical)
    from rerank_plus import from_config
    from rerank_plus.compose.cascade import Cascade
    from rerank_plus.compose.pipeline import Pipeline

    configured = from_config({"reranker": {"provider": "bm25"}})  # a Pipeline around BM25
    assert isinstance(configured, Pipeline) and not shares_batches(configured)
    assert shares_batches(Pipeline(neural)) and not shares_batches(Pipeline(lexical))
    assert shares_batches(Cascade([lexical, neural], keep=[2, 1]))
    assert not shares_batches(Cascade([lexical, Pipeline(lexical)], keep=[2, 1]))
    app = create_app({"neural": neural, "bm25": lexical}, ServeSettings(batch_wait=0.004))
    batchers = app.state.service.batchers
    assert (batchers["neural"].wait, batchers["bm25"].wait) == (0.004, 0.0)


async def test_concurrent_requests_share_calls_and_equal_sequential_ones(
    tiny_cross_encoder_path: Path,
) -> None:
    bodies = [
        {"query": q, "documents": documents_for(i), "top_n": (None, 2, 3)[i % 3],
         "explain": i % 5 == 0}
        for i, q in enumerate(QUERIES)
    ]  # fmt: skip
    alone = CountingCrossEncoder(tiny_cross_encoder_path)
    expected = [
        alone.rank(b["query"], b["documents"], b["top_n"], explain=b["explain"]) for b in bodies
    ]
    batched = CountingCrossEncoder(tiny_cross_encoder_path)
    async with client_for(batched, batch_wait=0.2, batch_size=4) as client:
        answers = await post_all(client, bodies)
        sequential = [await client.post("/v2/rerank", json=b) for b in bodies]
    assert all(a.status_code == 200 for a in answers + sequential)
    for body, want, concurrent, one in zip(bodies, expected, answers, sequential, strict=True):
        results = concurrent.json()["results"]
        assert [r["index"] for r in results] == [r.index for r in want]
        # One forward pass pads the pairs of several queries together: float rounding only.
        assert [r["relevance_score"] for r in results] == pytest.approx(
            [r.relevance_score for r in want], abs=1e-6
        )
        alone_answer = one.json()["results"]
        assert [r["index"] for r in results] == [r["index"] for r in alone_answer]
        assert [r["relevance_score"] for r in results] == pytest.approx(
            [r["relevance_score"] for r in alone_answer], abs=1e-6
        )
        assert ("explanation" in results[0]) == body["explain"]
    concurrent_calls = batched.calls[: len(batched.calls) - len(bodies)]
    assert sum(concurrent_calls) == len(bodies)
    assert len(concurrent_calls) < len(bodies)  # fewer scorer calls than requests
    assert max(concurrent_calls) <= 4  # batch_size bounds a batch
    assert batched.calls[len(concurrent_calls) :] == [1] * len(bodies)  # one at a time: alone


async def test_requests_with_different_top_n_are_cut_per_request(
    tiny_cross_encoder_path: Path,
) -> None:
    reranker = CountingCrossEncoder(tiny_cross_encoder_path)
    documents = documents_for(3)
    bodies = [{"query": "race", "documents": documents, "top_n": n} for n in (1, 2, 3, None)]
    async with client_for(reranker, batch_wait=0.2) as client:
        answers = await post_all(client, bodies)
    full = [r.index for r in reranker.rank("race", documents)]
    assert [[r["index"] for r in a.json()["results"]] for a in answers] == [
        full[:1], full[:2], full[:3], full
    ]  # fmt: skip


async def test_a_failing_request_never_fails_its_batch(tiny_cross_encoder_path: Path) -> None:
    reranker = FailsOnOneQuery(tiny_cross_encoder_path)
    good = [{"query": q, "documents": documents_for(i)} for i, q in enumerate(QUERIES[:4])]
    bodies = [
        good[0],
        {"query": "explode", "documents": ["marathon"]},
        good[1],
        {"query": "race", "documents": ["a", "b"], "first_stage_scores": [1.0]},  # misaligned
        good[2],
        {"query": "race", "documents": ["a"], "metadata": ["not a mapping"]},
        good[3],
    ]
    async with client_for(reranker, batch_wait=0.2) as client:
        answers = await post_all(client, bodies)
    assert [a.status_code for a in answers] == [200, 502, 200, 422, 200, 422, 200]
    assert "failed on this input" in answers[1].json()["message"]
    assert "first_stage_scores" in answers[3].json()["message"]
    for body, answer in zip(bodies[::2], answers[::2], strict=True):
        want = reranker.rank(body["query"], body["documents"])
        assert [r["index"] for r in answer.json()["results"]] == [r.index for r in want]


async def test_batch_sizes_are_in_the_metrics(tiny_cross_encoder_path: Path) -> None:
    reranker = CountingCrossEncoder(tiny_cross_encoder_path)
    bodies = [{"query": q, "documents": documents_for(i)} for i, q in enumerate(QUERIES[:3])]
    async with client_for(reranker, batch_wait=0.2) as client:
        await post_all(client, bodies)
        text = (await client.get("/metrics")).text
    assert 'rerank_plus_batch_requests_count{model="neural"}' in text
    assert 'rerank_plus_batch_requests_sum{model="neural"} 3.0' in text


async def test_lexical_requests_are_scored_one_by_one_on_one_thread() -> None:
    import threading

    from rerank_plus import BM25Reranker

    class Recording(BM25Reranker):
        def rank_many(self, inputs, *args, **kwargs):  # type: ignore[no-untyped-def]
            calls.append((len(inputs), threading.current_thread().name))
            return super().rank_many(inputs, *args, **kwargs)

    calls: list[tuple[int, str]] = []
    reranker = Recording()
    bodies = [
        {"query": q, "documents": documents_for(i), "top_n": 3} for i, q in enumerate(QUERIES)
    ]
    app = create_app({"bm25": reranker})
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as client:
        answers = await post_all(client, bodies)
        text = (await client.get("/metrics")).text
    for body, answer in zip(bodies, answers, strict=True):
        want = reranker.rank(body["query"], body["documents"], 3)
        assert pairs(answer.json()["results"]) == [(r.index, r.relevance_score) for r in want]
    assert [size for size, _ in calls[: len(bodies)]] == [1] * len(bodies)
    assert {name for _, name in calls[: len(bodies)]} == {"rerank-plus-scoring-lexical_0"}
    assert f'rerank_plus_batch_requests_count{{model="bm25"}} {float(len(bodies))}' in text


async def test_a_request_over_its_time_limit_gets_504_and_the_others_go_on(
    tiny_cross_encoder_path: Path,
) -> None:
    reranker = HeldCrossEncoder(tiny_cross_encoder_path)
    slow = {"query": "slow", "documents": documents_for(1)}
    fast = {"query": "race", "documents": documents_for(2)}
    try:
        async with client_for(reranker, request_timeout=0.3, batch_wait=0.0) as client:
            answer = await client.post("/v2/rerank", json=slow)
            assert answer.status_code == 504
            assert "longer than 0.3 s" in answer.json()["message"]
            reranker.release.set()  # the held batch finishes for nobody; the server goes on
            after = await client.post("/v2/rerank", json=fast)
    finally:
        reranker.release.set()
    assert after.status_code == 200
    want = CountingCrossEncoder(tiny_cross_encoder_path).rank(fast["query"], fast["documents"])
    assert [r["index"] for r in after.json()["results"]] == [r.index for r in want]


async def test_a_lexical_request_checked_only_in_its_thread_still_fails_alone() -> None:
    """A model that never batches checks each request in ``rank_many`` on its scoring thread
    (not again on the event loop): a malformed one gets its own 422, its neighbours their
    answers."""
    import uuid

    from rerank_plus import BM25Reranker

    reranker = BM25Reranker()
    good = [{"query": q, "documents": documents_for(i)} for i, q in enumerate(QUERIES[:3])]
    bodies = [
        good[0],
        {"query": "race", "documents": ["a", "b"], "first_stage_scores": [1.0]},
        good[1],
        {"query": "race", "documents": ["a"], "metadata": ["not a mapping"]},
        good[2],
    ]
    app = create_app({"bm25": reranker})
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as client:
        answers = await post_all(client, bodies)
    assert [a.status_code for a in answers] == [200, 422, 200, 422, 200]
    assert answers[1].json()["message"].startswith("first_stage_scores has 1 values for 2")
    assert "metadata" in answers[3].json()["message"]
    for body, answer in zip(bodies[::2], answers[::2], strict=True):
        want = reranker.rank(body["query"], body["documents"])
        assert pairs(answer.json()["results"]) == [(r.index, r.relevance_score) for r in want]
    ids = [uuid.UUID(a.json()["id"]) for a in answers[::2]]
    assert len(set(ids)) == len(ids) and {i.version for i in ids} == {4}
