"""Selection: threshold and top-n semantics, dynamic cutoff, token budget."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rerank_plus import BM25Reranker, GapCutoff, Pipeline, RatioCutoff, TokenBudget, from_config
from rerank_plus.selection import approximate_tokens, build_cutoff

DOCS = [
    "Marathon runners train for months before a marathon.",
    "Runners train hard.",
    "The cat sat on the mat.",
    "Marathon runners and marathon training plans for runners.",
    "A garden with blue flowers.",
]


def test_k_and_relevance_score_mean_at_most_k_and_none_below(bm25: BM25Reranker) -> None:
    pipeline = from_config({"rerank": {"provider": "bm25", "k": 3, "relevanceScore": 0.3}})
    results = pipeline.rank("marathon runners train", DOCS)
    everything = bm25.rank("marathon runners train", DOCS)
    expected = [r.index for r in everything if r.relevance_score >= 0.3][:3]
    assert [r.index for r in results] == expected
    assert 0 < len(results) <= 3
    assert all(r.relevance_score >= 0.3 for r in results)


def test_rank_arguments_override_the_pipeline_defaults(bm25: BM25Reranker) -> None:
    pipeline = Pipeline(bm25, top_n=1, threshold=0.9)
    assert pipeline.rank("marathon runners", DOCS) == []
    assert len(pipeline.rank("marathon runners", DOCS, top_n=2, threshold=0.0)) == 2


def test_gap_cutoff_stops_at_the_sharpest_drop() -> None:
    assert GapCutoff(min_gap=0.2).keep([0.9, 0.85, 0.4, 0.35]) == 2
    assert GapCutoff(min_gap=0.2).keep([0.9, 0.8, 0.7]) == 3
    assert GapCutoff(min_gap=0.1, min_keep=2).keep([0.9, 0.3, 0.25, 0.0]) == 3
    assert GapCutoff().keep([]) == 0


def test_ratio_cutoff_keeps_results_near_the_best() -> None:
    assert RatioCutoff(ratio=0.5).keep([0.8, 0.5, 0.39]) == 2
    assert RatioCutoff(ratio=0.9, min_keep=2).keep([0.8, 0.1]) == 2
    assert RatioCutoff().keep([0.0, 0.0]) == 2
    assert RatioCutoff(ratio=0.5).keep([0.8, 0.7, 0.6, 0.1]) == 3
    assert RatioCutoff(ratio=0.9).keep([0.8, 0.1]) == 1  # min_keep defaults to 1
    assert RatioCutoff(ratio=1.0).keep([0.8, 0.8, 0.79]) == 2
    assert RatioCutoff(min_keep=3).keep([]) == 0


def test_a_cutoff_without_a_method_is_the_gap_rule() -> None:
    cutoff = build_cutoff({"min_gap": 0.3})
    assert isinstance(cutoff, GapCutoff) and cutoff.min_gap == 0.3
    assert isinstance(build_cutoff("ratio"), RatioCutoff)


def test_cutoff_in_a_pipeline_is_explained(bm25: BM25Reranker) -> None:
    pipeline = Pipeline(bm25, cutoff=GapCutoff(min_gap=0.05))
    results = pipeline.rank("marathon runners", DOCS, explain=True)
    selection = results[0].explanation["selection"]
    assert selection["cut"]["cutoff"] == len(DOCS) - len(results) > 0
    assert selection["stopped_by"] == "cutoff"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("cliff", "Unknown cutoff 'cliff'; choose one of gap, ratio"),
        ({"method": "gap", "min_gap": 2}, r"min_gap must be a number in \[0, 1\]"),
        ({"method": "ratio", "min_keep": 0}, "min_keep must be a positive int"),
        ({"method": "ratio", "ratio": 1.5}, r"^ratio must be a number in \[0, 1\], got 1.5"),
        ({"method": "ratio", "gap": 0.1}, "Bad options for cutoff 'ratio'"),
    ],
)
def test_bad_cutoffs_say_what_is_valid(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        build_cutoff(options)


def test_default_token_count_needs_no_model() -> None:
    assert approximate_tokens("") == 0
    assert approximate_tokens("Hello, world!") == 6  # 4 pieces * 4/3, rounded up
    assert TokenBudget(10, counter=lambda text: len(text.split())).keep(["a b c"] * 4) == 3


counts = st.lists(st.integers(min_value=0, max_value=50), max_size=20)


@given(counts, st.integers(min_value=1, max_value=200))
def test_budget_is_never_exceeded_and_empties_only_when_the_first_is_too_big(
    tokens: list[int], max_tokens: int
) -> None:
    kept = TokenBudget(max_tokens).fit(tokens)
    assert sum(tokens[:kept]) <= max_tokens
    if kept < len(tokens):
        assert sum(tokens[: kept + 1]) > max_tokens  # the longest prefix that fits
    if tokens and kept == 0:
        assert tokens[0] > max_tokens  # the one documented way to get nothing back


def test_budget_in_a_pipeline_keeps_rank_order_and_counts(bm25: BM25Reranker) -> None:
    budget = TokenBudget(25)
    results = Pipeline(bm25, budget=budget).rank("marathon runners", DOCS, explain=True)
    plain = bm25.rank("marathon runners", DOCS)
    assert [r.index for r in results] == [r.index for r in plain[: len(results)]]
    assert sum(approximate_tokens(DOCS[r.index]) for r in results) <= 25
    assert results[-1].explanation["selection"]["tokens_total"] <= 25


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ((0,), ValueError, "max_tokens must be a positive int"),
        ((True,), ValueError, "max_tokens must be a positive int, got True"),
        ((2.5,), ValueError, "max_tokens must be a positive int, got 2.5"),
        ((10, "words"), TypeError, "counter must be a callable"),
    ],
)
def test_bad_budgets_are_refused(arguments, error, message) -> None:
    with pytest.raises(error, match=message):
        TokenBudget(*arguments)


def test_a_counter_returning_nonsense_is_named() -> None:
    with pytest.raises(TypeError, match="the token counter returned -1"):
        TokenBudget(5, counter=lambda text: -1).keep(["x"])


def test_a_counter_may_return_zero_but_only_an_int() -> None:
    assert TokenBudget(5, counter=lambda text: 0).keep(["", "x", "y"]) == 3
    for nonsense in (True, 2.5, "3"):
        with pytest.raises(TypeError, match=f"the token counter returned {nonsense!r};"):
            TokenBudget(5, counter=lambda text, value=nonsense: value).keep(["x"])
