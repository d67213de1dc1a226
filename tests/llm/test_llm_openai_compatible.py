"""The OpenAI-compatible backend against a real HTTP server on 127.0.0.1: the oracle's answers,
token counts as the server counted them, rate limits retried, errors that say what to do."""

from __future__ import annotations

import random

import pytest
from rerank_plus import Cascade, LLMReranker, OpenAICompatibleChat
from rerank_plus.scoring.llm import LLMCallError

from tests.llm.oracle import document


def reranker_on(server, *, mode="listwise", timeout=5.0, **options) -> LLMReranker:
    chat = OpenAICompatibleChat("oracle-model", base_url=server.base_url, timeout=timeout)
    return LLMReranker(chat, mode, backoff=0.0, **options)


def shuffled(count: int, seed: int = 3) -> list[int]:
    order = list(range(count))
    random.Random(seed).shuffle(order)
    return order


def test_listwise_over_http_finds_the_true_top_five(chat_server) -> None:
    order = shuffled(100)
    reranker = reranker_on(chat_server)
    results = reranker.rank("how do runners train", [document(n) for n in order], top_n=5)
    assert [order[r.index] for r in results] == [99, 98, 97, 96, 95]
    assert len(chat_server.requests) == 9
    body = chat_server.requests[0]
    assert body["model"] == "oracle-model" and body["temperature"] == 0.0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]


def test_token_accounting_matches_what_the_server_counted(chat_server) -> None:
    reranker = reranker_on(chat_server, mode="pointwise")
    reranker.rank("q", [document(n) for n in range(12)])
    counted = chat_server.counted
    assert reranker.usage.calls_made == 12
    assert reranker.usage.input_tokens == sum(c["prompt_tokens"] for c in counted)
    assert reranker.usage.output_tokens == sum(c["completion_tokens"] for c in counted)
    assert reranker.usage.to_dict()["estimated"] is False
    words = sum(len(m["content"].split()) for r in chat_server.requests for m in r["messages"])
    assert reranker.usage.input_tokens == words


def test_a_rate_limit_is_retried_and_counted(chat_server) -> None:
    chat_server.script("429", "429", "ok")
    results = reranker_on(chat_server).rank("q", [document(n) for n in range(5)], explain=True)
    assert [r.index for r in results] == [4, 3, 2, 1, 0]
    assert len(chat_server.requests) == 3
    assert results[0].explanation["usage"]["retries"] == 2


def test_an_overloaded_server_that_stays_overloaded_gives_up_with_advice(chat_server) -> None:
    chat_server.script("503", "503", "503")
    with pytest.raises(LLMCallError, match=r"still failed after 2 retries.*max_retries"):
        reranker_on(chat_server, max_retries=2).rank("q", ["a", "b"])
    assert len(chat_server.requests) == 3


def test_a_server_error_is_not_retried(chat_server) -> None:
    chat_server.script("500")
    with pytest.raises(LLMCallError, match=r"HTTP 500.*Check model='oracle-model'"):
        reranker_on(chat_server).rank("q", ["a", "b"])
    assert len(chat_server.requests) == 1


@pytest.mark.parametrize("reply", ["malformed", "no-choices"])
def test_a_reply_that_is_not_a_completion_says_so(chat_server, reply) -> None:
    chat_server.script(reply)
    with pytest.raises(LLMCallError, match=r"not a chat completion.*base_url"):
        reranker_on(chat_server).rank("q", ["a", "b"])


def test_a_timeout_is_retried_then_succeeds(chat_server) -> None:
    chat_server.slow_seconds = 1.0
    chat_server.script("slow", "ok")
    reranker = reranker_on(chat_server, timeout=0.2)
    results = reranker.rank("q", [document(1), document(0)], explain=True)
    assert [r.index for r in results] == [0, 1]
    assert reranker.usage.retries == 1


def test_a_timeout_every_time_gives_up(chat_server) -> None:
    chat_server.slow_seconds = 0.5
    chat_server.script("slow", "slow")
    with pytest.raises(LLMCallError, match=r"did not answer within 0\.1 s"):
        reranker_on(chat_server, timeout=0.1, max_retries=1).rank("q", ["a", "b"])


def test_an_unreachable_server_names_the_url() -> None:
    chat = OpenAICompatibleChat("m", base_url="http://127.0.0.1:9/v1", timeout=1.0)
    with pytest.raises(LLMCallError, match=r"Could not reach http://127.0.0.1:9/v1"):
        LLMReranker(chat).rank("q", ["a", "b"])


def test_the_key_comes_from_the_named_environment_variable(chat_server, monkeypatch) -> None:
    monkeypatch.setenv("RERANK_TEST_KEY", "sk-test")
    chat = OpenAICompatibleChat("m", base_url=chat_server.base_url, api_key_env="RERANK_TEST_KEY")
    LLMReranker(chat).rank("q", [document(0), document(1)])
    monkeypatch.delenv("RERANK_TEST_KEY")
    LLMReranker(chat, cache_size=0).rank("q", [document(1), document(0)])
    assert chat_server.headers[0]["Authorization"] == "Bearer sk-test"
    assert "Authorization" not in chat_server.headers[1]


def test_yes_no_reads_logprobs_from_the_api(chat_server) -> None:
    reranker = reranker_on(chat_server, mode="pointwise", judgment="yes-no")
    results = reranker.rank("q", [document(n) for n in (10, 90, 60)], explain=True)
    assert chat_server.requests[0]["logprobs"] is True
    assert [r.index for r in results] == [1, 2, 0]
    assert results[0].explanation["read_from"] == "logprobs"
    assert 0.9 < results[0].relevance_score < 1.0


async def test_arank_over_http(chat_server) -> None:
    chat_server.script("429", "ok")
    reranker = reranker_on(chat_server, mode="pointwise", max_concurrency=4)
    results = await reranker.arank("q", [document(10 * n) for n in range(10)], top_n=2)
    assert [r.index for r in results] == [8, 9]  # doc080 and doc090 get grade 3
    assert reranker.usage.retries == 1 and reranker.usage.calls_made == 10


def test_a_bm25_then_llm_cascade_over_http(chat_server) -> None:
    from rerank_plus import BM25Reranker

    words = ["marathon training plan", "pasta recipe", "tax forms"]
    documents = [document(n, words[n % 3]) for n in range(60)]
    cascade = Cascade([BM25Reranker(language="en"), reranker_on(chat_server)], keep=[30, 5])
    results = cascade.rank("marathon training", documents, explain=True)
    assert [r.index for r in results] == [57, 54, 51, 48, 45]
    assert len(chat_server.requests) == 2  # 30 survivors: windows (10, 30) and (0, 20)
    assert results[0].explanation["stages"][1]["reranker"] == "LLMReranker"
