"""Metrics agree with hand-computed values; the paired test reads per-query scores."""

from __future__ import annotations

import math

import pytest
from rerank_plus.evaluation import CURVES, paired_p_value, score_curves, score_run


def test_metrics_match_a_hand_computed_example() -> None:
    qrels = {"q1": {"d1": 1, "d3": 2}, "q2": {"d9": 1}}
    ranked = {"q1": ["d2", "d1", "d3"], "q2": ["d9", "d8"]}
    scores = score_run(qrels, ranked)
    # q1: trec_eval's linear gains 0, 1, 2 at ranks 1..3; ideal order 2, 1.
    dcg = 1 / math.log2(3) + 2 / math.log2(4)
    ideal = 2 / math.log2(2) + 1 / math.log2(3)
    assert scores["q1"]["nDCG@10"] == pytest.approx(dcg / ideal)
    assert scores["q1"]["MRR@10"] == pytest.approx(0.5)
    assert scores["q1"]["R@1"] == 0 and scores["q1"]["R@5"] == 1
    assert scores["q1"]["Hit@1"] == 0 and scores["q1"]["Hit@5"] == 1
    assert scores["q2"] == {
        "nDCG@10": 1.0, "MRR@10": 1.0, "R@1": 1.0, "R@5": 1.0, "R@10": 1.0,
        "Hit@1": 1.0, "Hit@5": 1.0, "Hit@10": 1.0,
    }  # fmt: skip


def test_rank_order_is_kept_even_where_ids_would_sort_otherwise() -> None:
    scores = score_run({"q": {"a": 1}}, {"q": ["z", "a"]})
    assert scores["q"]["MRR@10"] == pytest.approx(0.5)


def test_mrr_is_cut_at_ten() -> None:
    ranked = {"q": [f"x{i}" for i in range(10)] + ["hit"]}
    assert score_run({"q": {"hit": 1}}, ranked)["q"]["MRR@10"] == 0.0


def test_curves_match_a_hand_computed_example() -> None:
    qrels = {"q1": {"d1": 1, "d3": 2}, "q2": {"d9": 1}}
    ranked = {"q1": ["d2", "d1", "d3"], "q2": []}  # q2 retrieved nothing: 0 at every k
    curves = score_curves(qrels, ranked, depth=4)
    assert set(curves) == set(CURVES) == {"Recall@k", "nDCG@k", "Hit@k"}
    assert curves["Recall@k"] == pytest.approx([0, 0.25, 0.5, 0.5])
    assert curves["Hit@k"] == pytest.approx([0, 0.5, 0.5, 0.5])
    ideal = 2 + 1 / math.log2(3)
    q1_ndcg = [0, (1 / math.log2(3)) / ideal, (1 / math.log2(3) + 2 / math.log2(4)) / ideal]
    assert curves["nDCG@k"] == pytest.approx([v / 2 for v in [*q1_ndcg, q1_ndcg[-1]]])


def test_curves_agree_with_the_fixed_metrics() -> None:
    qrels = {"a": {"d3": 1, "d7": 2}, "b": {"d1": 1}}
    ranked = {"a": [f"d{i}" for i in range(12)], "b": ["d5", "d1", "d2"]}
    per_query = score_run(qrels, ranked)
    curves = score_curves(qrels, ranked, depth=10)
    for metric, curve in (("nDCG@10", "nDCG@k"), ("R@5", "Recall@k"), ("Hit@1", "Hit@k")):
        k = int(metric.split("@")[1])
        mean = sum(values[metric] for values in per_query.values()) / 2
        assert curves[curve][k - 1] == pytest.approx(mean)
    with pytest.raises(ValueError, match="depth must be at least 1"):
        score_curves(qrels, ranked, depth=0)


def test_paired_p_value() -> None:
    assert paired_p_value([0.5, 0.6], [0.5, 0.6]) == 1.0
    better = [0.9, 0.8, 0.95, 0.85, 0.9, 0.88]
    worse = [0.5, 0.4, 0.6, 0.45, 0.5, 0.52]
    assert paired_p_value(better, worse) < 0.001
