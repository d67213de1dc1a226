"""rank_many: many queries in one call give what one rank() call per query gives."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import BM25Reranker, Cascade, FusionReranker, Pipeline, PriorBoost, RankInput

from tests.strategies import document_lists, queries, thresholds, top_ns

RERANKER = BM25Reranker(language="en")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(queries, document_lists), max_size=5), top_ns, thresholds)
def test_many_queries_equal_one_rank_call_each(pairs, top_n, threshold):
    inputs = [RankInput(query, documents) for query, documents in pairs]
    expected = [RERANKER.rank(q, d, top_n=top_n, threshold=threshold) for q, d in pairs]
    assert RERANKER.rank_many(inputs, top_n=top_n, threshold=threshold) == expected


def test_first_stage_scores_and_metadata_reach_each_query():
    pipeline = Pipeline(
        BM25Reranker(language="en"), boosts=[PriorBoost("weight", {"0": 0.5, "2": 2.0})]
    )
    fusion = FusionReranker(BM25Reranker(language="en"))
    docs = ["solar panels on the roof", "wind turbines at sea", "solar farms and wind parks"]
    inputs = [
        RankInput("solar power", docs, [0.1, 0.9, 0.5], [{"weight": 0}, {"weight": 1}, {}]),
        RankInput("wind energy", docs[::-1], [0.3, 0.2, 0.8], [{}, {"weight": 2}, {}]),
    ]
    for reranker in (pipeline, fusion):
        many = reranker.rank_many(inputs, top_n=2, explain=True)
        one_each = [
            reranker.rank(
                item.query,
                item.documents,
                top_n=2,
                first_stage_scores=item.first_stage_scores,
                metadata=item.metadata,
                explain=True,
            )
            for item in inputs
        ]
        assert many == one_each


def test_empty_candidates_give_an_empty_list_in_place():
    inputs = [RankInput("a", []), RankInput("solar", ["solar power", "coal"]), RankInput("b", [])]
    results = RERANKER.rank_many(inputs)
    assert results[0] == [] and results[2] == []
    assert [r.index for r in results[1]] == [0, 1]
    assert RERANKER.rank_many([]) == []


def test_inputs_are_not_mutated():
    docs = ["solar power", "coal"]
    scores = [0.2, 0.1]
    FusionReranker(BM25Reranker(language="en")).rank_many([RankInput("solar", docs, scores)])
    assert docs == ["solar power", "coal"] and scores == [0.2, 0.1]


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (RankInput("q", ["d"]), "Wrap a single query in a list"),
        ("query", "Wrap a single query in a list"),
        ([("q", ["d"])], r"inputs\[0\] is tuple, not RankInput"),
    ],
)
def test_wrong_containers_say_how_to_build_inputs(inputs, message):
    with pytest.raises(TypeError, match=message):
        RERANKER.rank_many(inputs)


def test_a_bad_item_is_named_before_any_scoring():
    inputs = [RankInput("q", ["fine"]), RankInput("q", ["fine", 3])]  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"documents\[1\] is int"):
        RERANKER.rank_many(inputs)
    with pytest.raises(ValueError, match="first_stage_scores has 1 values for 2 documents"):
        RERANKER.rank_many([RankInput("q", ["a", "b"], [0.5])])


def test_async_form_equals_sync():
    inputs = [RankInput("solar", ["solar power", "coal"]), RankInput("coal", ["solar", "coal"])]
    assert asyncio.run(RERANKER.arank_many(inputs, top_n=1)) == RERANKER.rank_many(inputs, top_n=1)


class CountingBM25(BM25Reranker):
    """BM25 that counts its score_many calls and the queries in each."""

    def __init__(self) -> None:
        super().__init__(language="en")
        self.calls: list[int] = []

    def score_many(self, queries, documents, contexts):
        self.calls.append(len(queries))
        return super().score_many(queries, documents, contexts)


INPUTS = [
    RankInput("solar power", ["solar panels", "wind turbines", "solar farms", "coal"], [0.1] * 4),
    RankInput("wind energy", ["wind parks", "solar", "wind turbines at sea"], [0.3, 0.2, 0.1]),
]


def test_a_pipeline_passes_all_queries_to_its_reranker_at_once():
    inner = CountingBM25()
    pipeline = Pipeline(inner)
    many = pipeline.rank_many(INPUTS, top_n=2)
    assert inner.calls == [2]
    assert many == [
        pipeline.rank(i.query, i.documents, top_n=2, first_stage_scores=i.first_stage_scores)
        for i in INPUTS
    ]


def test_a_cascade_runs_each_stage_once_for_all_queries():
    first, second = CountingBM25(), CountingBM25()
    cascade = Cascade([first, Pipeline(second)], keep=[2, None])
    many = cascade.rank_many(INPUTS, explain=True)
    assert first.calls == [2] and second.calls == [2]
    assert many == [cascade.rank(i.query, i.documents, explain=True) for i in INPUTS]
