"""Rows in, rows out: equal to rank(), bad rows reported with their query id, inputs kept."""

from __future__ import annotations

import copy
import json

import pytest
from rerank_plus import BM25Reranker, RankInput, from_config
from rerank_plus.batch import BadRowError, parse_row, rerank_batches, rerank_rows
from rerank_plus.batch.rows import decode_line

RERANKER = BM25Reranker()


def row(query_id, query, texts, **extra):
    return {
        "query_id": query_id,
        "query": query,
        "candidates": [{"doc_id": f"d{i}", "text": text} for i, text in enumerate(texts)],
        **extra,
    }


def test_results_equal_one_rank_call_per_query(xquad_rows) -> None:
    out = rerank_rows(RERANKER, xquad_rows, top_n=10)
    assert [r["query_id"] for r in out] == [r["query_id"] for r in xquad_rows]
    for given, got in zip(xquad_rows, out, strict=True):
        texts = [c["text"] for c in given["candidates"]]
        scores = [c["score"] for c in given["candidates"]]
        expected = RERANKER.rank(given["query"], texts, top_n=10, first_stage_scores=scores)
        assert [r["index"] for r in got["results"]] == [r.index for r in expected]
        assert [r["relevance_score"] for r in got["results"]] == [
            r.relevance_score for r in expected
        ]
        assert [r["doc_id"] for r in got["results"]] == [
            given["candidates"][r.index]["doc_id"] for r in expected
        ]


def test_batches_of_any_size_give_the_same_rows(xquad_rows) -> None:
    whole = rerank_rows(RERANKER, xquad_rows, top_n=5)
    for size in (1, 7, 100):
        chunks = list(rerank_batches(RERANKER, iter(xquad_rows), batch_size=size, top_n=5))
        assert len(chunks[0]) == min(size, len(xquad_rows))
        assert [r for chunk in chunks for r in chunk] == whole


BAD_ROWS = [
    ({"query_id": "q1", "query": "x", "candidates": []}, "q1", '"candidates" is empty'),
    (row("q2", "x", ["fine", None]), "q2", "candidates[1] (doc 'd1') has no \"text\""),
    (row("q3", "x", ["fine", 42]), "q3", "documents[1] is int, not str"),
    (row("q4", 7, ["fine"]), "q4", '"query" is int, not str'),
    ({"query": "x", "candidates": [{"doc_id": "a", "text": "t"}]}, None, 'no "query_id"'),
    ({"query_id": "q6", "query": "x", "candidates": "text"}, "q6", '"candidates" is str'),
    ({"query_id": "q7", "query": "x", "candidates": [{"text": "t"}]}, "q7", 'no "doc_id"'),
    (["not", "a", "row"], None, "a row must be a JSON object"),
    (decode_line('{"query_id": "q9", "query": '), None, "line is not valid JSON"),
    (
        {
            "query_id": "q10",
            "query": "x",
            "candidates": [
                {"doc_id": "a", "text": "t", "score": 1.0},
                {"doc_id": "b", "text": "u"},
            ],
        },
        "q10",
        'candidates[1] has no "score" while others have one',
    ),
    (
        {
            "query_id": "q11",
            "query": "x",
            "candidates": [{"doc_id": "a", "text": "t", "score": float("nan")}],
        },
        "q11",
        "first_stage_scores[0] is nan, not a number",
    ),
    ({"query_id": True, "query": "x", "candidates": []}, None, "query_id is bool"),
]


@pytest.mark.parametrize(("bad", "query_id", "message"), BAD_ROWS)
def test_a_bad_row_is_reported_and_the_others_are_ranked(bad, query_id, message) -> None:
    good = row("ok", "marathon training", ["cats sleep", "marathon training plans"])
    out = rerank_rows(RERANKER, [good, bad, good | {"query_id": "ok2"}])
    assert [r["query_id"] for r in out] == ["ok", query_id, "ok2"]
    assert message in out[1]["error"]
    assert "results" not in out[1]
    assert [r["doc_id"] for r in out[0]["results"]] == ["d1", "d0"]
    assert out[2]["results"] == out[0]["results"]


def test_parse_row_names_the_bad_item() -> None:
    with pytest.raises(BadRowError, match=r"candidates\[0\] is str, not a mapping"):
        parse_row({"query_id": "q", "query": "x", "candidates": ["plain text"]})


def test_whole_number_ids_are_read_as_text() -> None:
    query_id, item, doc_ids = parse_row(
        {"query_id": 12, "query": "x", "candidates": [{"doc_id": 5, "text": "t"}]}
    )
    assert (query_id, doc_ids, item) == ("12", ["5"], RankInput("x", ["t"]))


@pytest.mark.parametrize(
    "texts",
    [
        ["🏃‍♀️🏅", "🍞🥐", ""],  # emoji only, and an empty document
        ["Der Marathon beginnt um neun Uhr.", "马拉松比赛九点开始。", "Le marathon part à 9h."],
        ["marathon " * 5000, "short marathon note", "nothing here"],  # a huge document
    ],
)
def test_unusual_texts_rank_like_rank_does(texts) -> None:
    query = "marathon 🏃‍♀️"
    (out,) = rerank_rows(RERANKER, [row("q", query, texts)])
    assert [r["index"] for r in out["results"]] == [r.index for r in RERANKER.rank(query, texts)]
    json.dumps(out)  # plain Python values: floats, not numpy


def test_first_stage_scores_and_metadata_reach_a_pipeline() -> None:
    pipeline = from_config(
        {
            "reranker": {"provider": "bm25"},
            "fusion": {"method": "weighted", "alpha": 0.5},
            "boosts": [{"type": "prior", "field": "tier", "weights": {"gold": 3.0}}],
        }
    )
    texts = ["solar panels on roofs", "solar farms", "wind turbines"]
    given = {
        "query_id": "q",
        "query": "solar",
        "candidates": [
            {"doc_id": "a", "text": texts[0], "score": 0.2},
            {"doc_id": "b", "text": texts[1], "score": 0.1, "metadata": {"tier": "gold"}},
            {"doc_id": "c", "text": texts[2], "score": 0.9, "metadata": None},
        ],
    }
    before = copy.deepcopy(given)
    (out,) = rerank_rows(pipeline, [given])
    expected = pipeline.rank(
        "solar", texts, first_stage_scores=[0.2, 0.1, 0.9], metadata=[{}, {"tier": "gold"}, {}]
    )
    assert [r["index"] for r in out["results"]] == [r.index for r in expected]
    assert out["results"][0]["doc_id"] == "b"
    assert given == before  # the input row is not mutated


def test_ties_keep_the_input_order() -> None:
    (out,) = rerank_rows(RERANKER, [row("q", "zzz", ["one", "two", "three"])])
    assert [r["doc_id"] for r in out["results"]] == ["d0", "d1", "d2"]
