"""One shared reranker, many threads and coroutines: the serial results, each model loaded once.

Servers share one reranker between requests (threads of a web server, tasks of an event loop);
the caches and lazy model loading must neither corrupt results nor load a model twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from rerank_plus import BiEncoderReranker, BM25Reranker, CrossEncoderReranker, from_config
from rerank_plus.reranker import Reranker
from rerank_plus.results import RankedResult

sentence_transformers = pytest.importorskip("sentence_transformers")

THREADS = 16
COROUTINES = 50
DOCUMENTS = [
    "Marathon runners train for months before the race.",
    "The cat sat on the mat and watched the birds.",
    "Runners need good shoes for the park.",
    "A marathon is 42 kilometres long; runners pace themselves.",
    "The river bank is a quiet place for a walk.",
    "Coffee and tea in the morning, then a run in the park.",
]
QUERIES = ["marathon runners", "cat and birds", "a walk by the river", "morning coffee run"]
METADATA = [{"level": ["L1", "L2", "L3"][i % 3], "timestamp": "2025-03-01"} for i in range(6)]


def requests(count: int) -> list[tuple[str, list[str]]]:
    """``count`` requests over the queries, each on its own rotation of the documents."""
    return [
        (QUERIES[n % len(QUERIES)], DOCUMENTS[n % 6 :] + DOCUMENTS[: n % 6]) for n in range(count)
    ]


def in_threads(rank: Callable[[str, list[str]], Any], work: list[tuple[str, list[str]]]) -> list:
    barrier = threading.Barrier(THREADS)

    def call(request: tuple[str, list[str]]) -> Any:
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=5)  # the first calls start together, models not loaded yet
        return rank(*request)

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        return list(pool.map(call, work))


async def in_coroutines(reranker: Reranker, work: list[tuple[str, list[str]]], **options) -> list:
    return await asyncio.gather(*(reranker.arank(q, d, **options) for q, d in work))


def assert_same(got: list[list[RankedResult]], expected: list[list[RankedResult]]) -> None:
    assert len(got) == len(expected)
    for mine, serial in zip(got, expected, strict=True):
        assert [r.index for r in mine] == [r.index for r in serial]
        assert [r.score for r in mine] == pytest.approx([r.score for r in serial], abs=1e-5)


@pytest.fixture
def count_loads(monkeypatch) -> dict[str, int]:
    """How many times each sentence-transformers model class is built."""
    loads = {"CrossEncoder": 0, "SentenceTransformer": 0}
    lock = threading.Lock()
    for name in loads:
        original = getattr(sentence_transformers, name)

        def counting(*args, _original=original, _name=name, **kwargs):
            with lock:
                loads[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(sentence_transformers, name, counting)
    return loads


def check(make: Callable[[], Reranker], **options: Any) -> None:
    work = requests(2 * THREADS)
    serial_reranker = make()
    serial = [serial_reranker.rank(q, d, **options) for q, d in work]
    shared = make()
    assert_same(in_threads(lambda q, d: shared.rank(q, d, **options), work), serial)
    coroutine_work = requests(COROUTINES)
    expected = [serial_reranker.rank(q, d, **options) for q, d in coroutine_work]
    fresh = make()
    assert_same(asyncio.run(in_coroutines(fresh, coroutine_work, **options)), expected)


def test_bm25_shared_between_threads_and_coroutines() -> None:
    check(BM25Reranker)


def test_profile_pipeline_shared_between_threads_and_coroutines() -> None:
    check(
        lambda: from_config("synthesis"),
        first_stage_scores=[0.9, 0.1, 0.5, 0.7, 0.2, 0.3],
        metadata=METADATA,
    )


def test_cross_encoder_shared_between_threads_and_coroutines(tiny_cross_encoder_path) -> None:
    check(lambda: CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu"))


def test_bi_encoder_shared_between_threads_and_coroutines(minilm_path) -> None:
    check(lambda: BiEncoderReranker(minilm_path, device="cpu"))


def test_cross_encoder_loads_its_model_once_for_16_threads(
    tiny_cross_encoder_path, count_loads
) -> None:
    shared = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")
    in_threads(shared.rank, requests(THREADS))
    assert count_loads["CrossEncoder"] == 1


def test_bi_encoder_loads_its_model_once_for_16_threads(minilm_path, count_loads) -> None:
    shared = BiEncoderReranker(minilm_path, device="cpu")
    in_threads(shared.rank, requests(THREADS))
    assert count_loads["SentenceTransformer"] == 1


def test_one_reranker_loads_its_model_once_when_calls_follow_each_other(
    tiny_cross_encoder_path, minilm_path, count_loads
) -> None:
    cross = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")
    bi = BiEncoderReranker(minilm_path, device="cpu")
    for query, documents in requests(8):
        cross.rank(query, documents)
        bi.rank(query, documents)
    assert count_loads == {"CrossEncoder": 1, "SentenceTransformer": 1}
