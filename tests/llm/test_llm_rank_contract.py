"""The rank contract every reranker keeps, for the LLM reranker in both modes, whatever the
model answers; and the from_config providers."""

from __future__ import annotations

import copy
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import LLMReranker, from_config
from rerank_plus.scoring.llm import Completion, Prompt

from tests.llm.oracle import document
from tests.strategies import document_lists, queries, thresholds, top_ns

PROPERTY_SETTINGS = settings(max_examples=40, deadline=None)
ANSWERS = ("3", "0", "2", "Score: 1", "[3] > [1] > [1] > [40]", "no idea", "", "[2] > [1]", "Yes")


class Arbitrary:
    """Answers each prompt with a fixed pick (a hash of the prompt): good, bad and odd answers."""

    model_name = "arbitrary"

    def complete(self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False) -> Completion:
        digest = hashlib.blake2b(prompt.user.encode("utf-8", "surrogatepass")).digest()
        return Completion(ANSWERS[digest[0] % len(ANSWERS)])


RERANKERS = {
    "listwise": LLMReranker(Arbitrary(), window_size=4, step=2),
    "pointwise": LLMReranker(Arbitrary(), mode="pointwise"),
    "yes-no": LLMReranker(Arbitrary(), mode="pointwise", judgment="yes-no"),
}
modes = st.sampled_from(sorted(RERANKERS))


@PROPERTY_SETTINGS
@given(modes, queries, document_lists, top_ns, thresholds)
def test_results_are_a_bounded_subset_without_duplicates(mode, query, documents, top_n, threshold):
    before = copy.deepcopy(documents)
    results = RERANKERS[mode].rank(query, documents, top_n=top_n, threshold=threshold)
    indices = [r.index for r in results]
    assert documents == before
    assert len(set(indices)) == len(indices)
    assert set(indices) <= set(range(len(documents)))
    if threshold is None:
        assert len(results) == min(top_n or len(documents), len(documents))
    assert all(0.0 <= r.relevance_score <= 1.0 for r in results)
    assert all(threshold is None or r.relevance_score >= threshold for r in results)


@PROPERTY_SETTINGS
@given(modes, queries, document_lists)
def test_order_is_best_first_with_ties_in_input_order_and_repeatable(mode, query, documents):
    results = RERANKERS[mode].rank(query, documents)
    keys = [(-r.relevance_score, -r.score, r.index) for r in results]
    assert keys == sorted(keys)
    assert RERANKERS[mode].rank(query, documents) == results


@PROPERTY_SETTINGS
@given(modes, queries, document_lists)
async def test_arank_gives_what_rank_gives(mode, query, documents):
    assert await RERANKERS[mode].arank(query, documents) == RERANKERS[mode].rank(query, documents)


@pytest.mark.parametrize("mode", sorted(RERANKERS))
@pytest.mark.parametrize(
    "documents",
    [[], [""], ["🏃‍♀️🔥", "🍝"], ["Der Läufer trainiert.", "Le coureur s'entraîne.", "跑步训练"]],
)
def test_empty_emoji_and_mixed_language_inputs(mode, documents) -> None:
    results = RERANKERS[mode].rank("marathon 🏃", documents)
    assert sorted(r.index for r in results) == list(range(len(documents)))


def test_non_string_input_fails_naming_the_item() -> None:
    with pytest.raises(TypeError, match=r"documents\[1\] is int"):
        RERANKERS["listwise"].rank("q", ["a", 3])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "sideways"}, "mode must be one of listwise, pointwise"),
        ({"judgment": "stars"}, "judgment must be one of grade, yes-no"),
        ({"window_size": 1}, "window must be >= 2"),
        ({"step": 30}, "1 <= step <= window"),
        ({"max_calls": 0}, "max_calls must be a positive int or None"),
        ({"max_concurrency": 0}, "max_concurrency must be a positive int"),
        ({"max_retries": -1}, "max_retries must be an int >= 0"),
    ],
)
def test_bad_options_say_what_is_allowed(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        LLMReranker(Arbitrary(), **options)


def test_from_config_builds_an_llm_cascade_on_an_endpoint(chat_server) -> None:
    pipeline = from_config(
        {
            "reranker": {
                "cascade": [
                    {"provider": "bm25", "language": "en"},
                    {
                        "provider": "llm-listwise",
                        "model": "oracle-model",
                        "base_url": chat_server.base_url,
                    },
                ],
                "keep": [30, 5],
            },
            "selection": {"top_n": 3},
        }
    )
    words = ["marathon training plan", "pasta recipe", "tax forms"]
    results = pipeline.rank("marathon training", [document(n, words[n % 3]) for n in range(60)])
    assert [r.index for r in results] == [57, 54, 51]


def test_from_config_pointwise_with_the_platform_shape() -> None:
    pipeline = from_config(
        {"rerank": {"provider": "llm-pointwise", "modelName": "gpt-4o-mini", "k": 2}}
    )
    assert isinstance(pipeline.reranker, LLMReranker)
    assert (pipeline.reranker.model, pipeline.reranker.mode, pipeline.top_n) == (
        "gpt-4o-mini",
        "pointwise",
        2,
    )


def test_from_config_without_a_model_says_what_to_give() -> None:
    with pytest.raises(ValueError, match='needs "model"'):
        from_config({"reranker": {"provider": "llm-pointwise"}})
