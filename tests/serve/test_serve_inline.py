"""Inline scoring (``ServeSettings.inline_scoring``, what ``rerank-plus serve`` sets): a model
that never batches ranks a request on the event loop once its cost so far says the request
takes less than the budget, on its scoring thread otherwise, and the answers, errors and
metrics are the same either way."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the server needs the 'server' extra")

from rerank_plus import BM25Reranker
from rerank_plus.reranker import RankInput
from rerank_plus.serve import ServeSettings, create_app
from rerank_plus.serve.batching import InlineScoring, MicroBatcher

WORDS = ["race", "city", "park", "river", "bridge", "music", "book", "table", "garden"]


def documents(i: int, count: int = 8) -> list[str]:
    return [" ".join(WORDS[(i + k + j) % len(WORDS)] for j in range(3 + k)) for k in range(count)]


class Recording(BM25Reranker):
    """BM25 that records the thread each ``rank_many`` call ran on."""

    def __init__(self) -> None:
        super().__init__(language="en")
        self.threads: list[str] = []

    def rank_many(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        self.threads.append(threading.current_thread().name)
        return super().rank_many(inputs, *args, **kwargs)


async def post(app: Any, bodies: list[dict[str, Any]]) -> list[httpx.Response]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as client:
        return [await client.post("/v2/rerank", json=body) for body in bodies]


async def test_after_the_first_request_a_lexical_model_ranks_on_the_event_loop() -> None:
    reranker = Recording()
    reranker.rank("warm up", ["warm up the models"])  # as the server does before serving
    app = create_app({"bm25": reranker}, ServeSettings(inline_scoring=True))
    bodies = [{"query": WORDS[i], "documents": documents(i), "top_n": 3} for i in range(6)]
    answers = await post(app, bodies)
    loop_thread = threading.current_thread().name
    # The first goes to the thread (the model's cost is not known yet), the others inline.
    assert reranker.threads[0] == "rerank-plus-scoring-lexical_0"
    assert reranker.threads[1:] == [loop_thread] * (len(bodies) - 1)
    for body, answer in zip(bodies, answers, strict=True):
        want = reranker.rank(body["query"], body["documents"], 3)
        got = [(r["index"], r["relevance_score"]) for r in answer.json()["results"]]
        assert got == [(r.index, r.relevance_score) for r in want]


async def test_inline_requests_fail_alone_and_are_counted_alike() -> None:
    app = create_app({"bm25": BM25Reranker(language="en")}, ServeSettings(inline_scoring=True))
    good = {"query": "race", "documents": documents(1)}
    bodies = [
        good,
        good,
        {"query": "race", "documents": ["a", "b"], "first_stage_scores": [1.0]},
        {"query": "race", "documents": ["a"], "metadata": ["not a mapping"]},
        good,
    ]
    answers = await post(app, bodies)
    assert [a.status_code for a in answers] == [200, 200, 422, 422, 200]
    assert answers[2].json()["message"].startswith("first_stage_scores has 1 values for 2")
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as client:
        text = (await client.get("/metrics")).text
    assert 'rerank_plus_batch_requests_count{model="bm25"} 3.0' in text
    assert 'rerank_plus_documents_total{model="bm25"} 24.0' in text
    assert 'rerank_plus_requests_total{path="/v2/rerank",status="422"} 2.0' in text


async def test_a_request_over_the_budget_goes_to_the_thread() -> None:
    reranker = Recording()
    inline = InlineScoring(budget=1e-3)
    executor = ThreadPoolExecutor(1, thread_name_prefix="scoring")
    batcher = MicroBatcher(reranker, wait=0.0, max_size=1, executor=executor, inline=inline)
    small = RankInput("race", documents(2))
    await batcher.rank(small)  # on the thread: the cost is learnt
    await batcher.rank(small)
    large = RankInput("race", documents(3) * 2000)  # thousands of times the small one
    await batcher.rank(large)
    loop_thread = threading.current_thread().name
    executor.shutdown()
    assert reranker.threads == ["scoring_0", loop_thread, "scoring_0"]
    assert inline.queued == 0


async def test_a_request_over_the_size_cap_goes_to_the_thread() -> None:
    """New words cost far more than cached ones, which no average predicts: the cap bounds
    what a mispredicted request holds the loop."""
    reranker = Recording()
    inline = InlineScoring(budget=10.0, max_chars=500)
    executor = ThreadPoolExecutor(1, thread_name_prefix="scoring")
    batcher = MicroBatcher(reranker, wait=0.0, max_size=1, executor=executor, inline=inline)
    await batcher.rank(RankInput("race", documents(2)))  # on the thread: the cost is learnt
    await batcher.rank(RankInput("race", documents(2)))
    await batcher.rank(RankInput("race", documents(2, count=40)))  # over 500 characters
    executor.shutdown()
    assert reranker.threads == ["scoring_0", threading.current_thread().name, "scoring_0"]


async def test_no_request_is_ranked_inline_while_one_is_on_the_thread() -> None:
    """Two requests of these models never run at once: while one is on the scoring thread,
    the next queues behind it there."""
    release = threading.Event()

    class Held(Recording):
        def rank_many(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
            if inputs[0].query == "held":
                release.wait(timeout=30)
            return super().rank_many(inputs, *args, **kwargs)

    reranker = Held()
    inline = InlineScoring(budget=1e-3)
    executor = ThreadPoolExecutor(1, thread_name_prefix="scoring")
    batcher = MicroBatcher(reranker, wait=0.0, max_size=1, executor=executor, inline=inline)
    await batcher.rank(RankInput("race", documents(1)))  # learns the cost
    held = asyncio.ensure_future(batcher.rank(RankInput("held", documents(1) * 400)))
    await asyncio.sleep(0)
    assert inline.queued == 1
    after = asyncio.ensure_future(batcher.rank(RankInput("race", documents(2))))
    await asyncio.sleep(0.05)
    assert not after.done()  # queued behind the held one, not ranked on the loop
    release.set()
    await asyncio.gather(held, after)
    executor.shutdown()
    assert inline.queued == 0
    assert reranker.threads[-2:] == ["scoring_0", "scoring_0"]
