"""Pointwise judgments: grades, P(yes) from logprobs, bounded concurrency (threads and async),
the cache, the call budget, and answers the parser cannot read."""

from __future__ import annotations

import math

import pytest
from rerank_plus import LLMReranker
from rerank_plus.scoring.llm import Completion, Prompt

from tests.llm.conftest import hidden_relevance
from tests.llm.oracle import AsyncOracleChat, OracleChat, document


def test_grades_order_the_passages_and_ties_keep_the_input_order() -> None:
    oracle = OracleChat(hidden_relevance(8))
    reranker = LLMReranker(oracle, mode="pointwise")
    documents = [document(n) for n in (0, 7, 1, 6, 2, 5, 3, 4)]
    results = reranker.rank("q", documents, explain=True)
    # grades int(n / 7 * 4) capped at 3: 7 -> 3, 6 -> 3, 5 -> 2, 4 -> 2, 3 -> 1, 2 -> 1, 1, 0 -> 0
    assert [r.index for r in results] == [1, 3, 5, 7, 4, 6, 0, 2]
    assert [r.relevance_score for r in results][:3] == [1.0, 1.0, pytest.approx(2 / 3)]
    assert results[0].explanation["grade"] == 3
    assert results[0].explanation["call"]["estimated"] is True


class LogprobChat:
    """Says "Yes" to every passage, with a P(yes) that grows with the document number."""

    model_name = "logprobs"

    def __init__(self) -> None:
        self.asked_for_logprobs: list[bool] = []

    def complete(self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False) -> Completion:
        self.asked_for_logprobs.append(logprobs)
        number = int(prompt.user.split("Passage: doc")[1][:3])
        p_yes = (number + 1) / 10
        return Completion(
            "Yes", top_logprobs={"Yes": math.log(p_yes), "No": math.log(1 - p_yes + 1e-9)}
        )


def test_yes_no_reads_p_yes_from_logprobs() -> None:
    chat = LogprobChat()
    reranker = LLMReranker(chat, mode="pointwise", judgment="yes-no")
    results = reranker.rank("q", [document(n) for n in (2, 8, 5)], explain=True)
    assert [r.index for r in results] == [1, 2, 0]
    assert results[0].relevance_score == pytest.approx(0.9)
    assert results[0].explanation["read_from"] == "logprobs"
    assert all(chat.asked_for_logprobs)


def test_yes_no_without_logprobs_reads_the_text() -> None:
    oracle = OracleChat(hidden_relevance(4))
    results = LLMReranker(oracle, mode="pointwise", judgment="yes-no").rank(
        "q", [document(n) for n in range(4)]
    )
    assert [(r.index, r.relevance_score) for r in results] == [
        (2, 1.0),
        (3, 1.0),
        (0, 0.0),
        (1, 0.0),
    ]


class Unreadable:
    model_name = "unreadable"

    def complete(self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False) -> Completion:
        return Completion("As an AI language model, I find this passage fascinating! 🤖")


def test_an_unreadable_answer_scores_zero_and_is_marked() -> None:
    results = LLMReranker(Unreadable(), mode="pointwise").rank("q", ["a", "b"], explain=True)
    assert [r.relevance_score for r in results] == [0.0, 0.0]
    assert results[0].explanation["unreadable"] is True


def test_concurrency_is_bounded_on_the_sync_path() -> None:
    oracle = OracleChat(hidden_relevance(24), delay=0.02)
    LLMReranker(oracle, mode="pointwise", max_concurrency=3).rank(
        "q", [document(n) for n in range(24)]
    )
    assert len(oracle.prompts) == 24
    assert 1 < oracle.most_in_flight <= 3


async def test_arank_runs_the_calls_on_the_loop_with_a_bound() -> None:
    oracle = AsyncOracleChat(hidden_relevance(24), delay=0.02)
    reranker = LLMReranker(oracle, mode="pointwise", max_concurrency=4)
    results = await reranker.arank("q", [document(n) for n in range(24)], top_n=3)
    assert [r.index for r in results] == [18, 19, 20]  # grade 3, ties in input order
    assert oracle.most_in_flight == 4


async def test_arank_falls_back_to_complete_in_threads_without_acomplete() -> None:
    oracle = OracleChat(hidden_relevance(6), delay=0.01)
    reranker = LLMReranker(oracle, mode="pointwise", max_concurrency=2)
    results = await reranker.arank("q", [document(n) for n in range(6)])
    assert len(results) == 6 and oracle.most_in_flight <= 2


def test_identical_passages_are_asked_once_and_the_cache_answers_again() -> None:
    oracle = OracleChat(hidden_relevance(3))
    reranker = LLMReranker(oracle, mode="pointwise")
    documents = [document(0), document(1), document(0), document(2)]
    reranker.rank("q", documents)
    assert len(oracle.prompts) == 3
    again = reranker.rank("q", documents, explain=True)
    assert len(oracle.prompts) == 3
    assert reranker.usage.calls_made == 0 and reranker.usage.cached_calls == 3
    assert again[0].explanation["call"]["cached"] is True
    assert reranker.usage.input_tokens == 0


def test_passages_past_the_call_budget_are_unjudged_and_sort_last() -> None:
    oracle = OracleChat(hidden_relevance(6))
    reranker = LLMReranker(oracle, mode="pointwise", max_calls=4, max_concurrency=1)
    results = reranker.rank("q", [document(n) for n in (5, 0, 1, 2, 4, 3)], explain=True)
    assert len(oracle.prompts) == 4
    assert [r.index for r in results][-2:] == [4, 5]
    assert results[-1].explanation["not_judged"] == "max_calls reached"
    assert results[-1].relevance_score == 0.0 and results[-1].score == -1.0


class FailsOnce(AsyncOracleChat):
    """The first passage's call fails for good; the others are slow."""

    async def acomplete(
        self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False
    ) -> Completion:
        if "doc000" in prompt.user:
            raise RuntimeError("invalid request")
        return await super().acomplete(prompt, max_tokens=max_tokens, logprobs=logprobs)


async def test_a_failed_call_stops_the_others_and_is_raised() -> None:
    oracle = FailsOnce(hidden_relevance(6), delay=5.0)
    reranker = LLMReranker(oracle, mode="pointwise", max_concurrency=6)
    with pytest.raises(RuntimeError, match="invalid request"):
        await reranker.arank("q", [document(n) for n in range(6)])
    assert oracle.in_flight == 0
