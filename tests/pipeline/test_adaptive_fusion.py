"""The adaptive fusion: its signals, the weight they choose, and what it explains."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import BM25Reranker, Pipeline
from rerank_plus.analysis import Analyzer
from rerank_plus.combine import AdaptiveFusion, Signals, WeightedFusion
from rerank_plus.combine.adaptive import confidence
from rerank_plus.combine.query_language import dominant_script, reads_query

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
pairs = st.integers(min_value=0, max_value=40).flatmap(
    lambda n: st.tuples(
        st.lists(finite, min_size=n, max_size=n), st.lists(finite, min_size=n, max_size=n)
    )
)
ANALYZER = Analyzer()
queries = st.one_of(st.none(), st.sampled_from(["cat", "Katze?", "猫", "🙂🙂", "", "Γάτα"]))


@settings(deadline=None)
@given(pairs, queries)
def test_fused_values_lie_in_the_unit_interval(scores, query) -> None:
    rerank, first = scores
    fused = AdaptiveFusion(detector=ANALYZER).fuse(rerank, first, query=query)
    assert len(fused.values) == len(fused.details) == len(rerank)
    assert all(0.0 <= v <= 1.0 and not math.isnan(v) for v in fused.values)


def test_it_is_the_weighted_sum_with_the_weight_it_chose() -> None:
    rerank, first = [3.0, 1.0, 2.0, 0.0], [0.1, 0.9, 0.5, 0.2]
    fused = AdaptiveFusion().fuse(rerank, first, query="Wie alt ist die Katze?")
    weight = fused.details[0]["weight"]
    expected = WeightedFusion(alpha=weight).fuse(rerank, first).values
    assert fused.values == pytest.approx(expected)


@pytest.mark.parametrize(
    ("signals", "weight"),
    [
        (Signals("en", True, 0.5, 0.5, True), 0.35),
        (Signals("de", False, 0.5, 0.5, True), 0.8),
        (Signals(None, None, 0.5, 0.5, True), 0.65),
        (Signals("en", True, 1.0, 0.0, True), 0.55),  # the reranker's best stands out
        (Signals("en", True, 0.0, 1.0, True), 0.15),  # the first stage's best stands out
        (Signals("el", False, 1.0, 0.0, True), 1.0),  # capped
        (Signals("th", False, 0.0, 0.5, False), 0.0),  # the reranker matched nothing
    ],
)
def test_weights_follow_the_signals(signals, weight) -> None:
    assert AdaptiveFusion().weight(signals) == pytest.approx(weight)


def test_confidence_is_the_share_of_the_range_above_the_tenth_best() -> None:
    values = [10.0, *[5.0] * 9, 0.0]
    assert confidence(values) == pytest.approx(0.5)
    assert confidence([2.0, 2.0, 2.0]) == 0.0
    assert confidence([]) == 0.0
    assert confidence([1.0, float("inf"), 0.0]) == 1.0


@pytest.mark.parametrize(
    ("query", "languages", "expected"),
    [
        ("Πότε ιδρύθηκε το πανεπιστήμιο;", ("en",), ("greek", False)),
        ("Πότε ιδρύθηκε το πανεπιστήμιο;", ("el",), ("el", True)),  # Greek script decides
        ("大学是什么时候成立的", ("en",), ("cjk", False)),
        ("มหาวิทยาลัยก่อตั้งเมื่อไหร่", ("en", "de"), ("thai", False)),
        ("Wann wurde die Universität gegründet?", ("en",), ("de", False)),
        ("Wann wurde die Universität gegründet?", ("en", "de"), ("de", True)),
        ("When was the university founded?", ("en",), ("en", True)),
        ("🙂 42", ("en",), (None, None)),
        ("", ("en",), (None, None)),
    ],
)
def test_whether_the_first_stage_reads_the_query(query, languages, expected) -> None:
    assert reads_query(query, languages, ANALYZER) == expected


def test_scripts_of_mixed_and_kana_text() -> None:
    assert dominant_script("カタカナとひらがな") == "CJK"
    assert dominant_script("The word Γάτα") == "LATIN"


def test_pipeline_explains_signals_and_weight() -> None:
    bm25 = BM25Reranker()
    pipeline = Pipeline(bm25, fusion=AdaptiveFusion(detector=bm25.analyzer))
    docs = ["The capital of France is Paris.", "Paris is in France.", "Berlin is large."]
    results = pipeline.rank(
        "Which river flows through the capital city of France?",
        docs,
        first_stage_scores=[0.2, 0.8, 0.1],
        explain=True,
    )
    fusion = results[0].explanation["fusion"]
    assert fusion["method"] == "adaptive"
    assert fusion["signals"]["query_language"] == "en"
    assert fusion["signals"]["first_stage_reads_query"] is True
    assert 0.0 <= fusion["weight"] <= 1.0
    assert fusion["fused"] == results[0].relevance_score


def test_details_behave_as_a_sequence() -> None:
    fused = AdaptiveFusion().fuse([1.0, 2.0, 3.0], [3.0, 2.0, 1.0], query="cat")
    assert [d["rerank_normalized"] for d in fused.details] == [0.0, 0.5, 1.0]
    assert [d["first_stage_normalized"] for d in fused.details[1:]] == [0.5, 0.0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"alpha": 2}, r"alpha must be a number in \[0, 1\]"),
        ({"confidence_weight": -1}, r"confidence_weight must be a number in \[0, 1\]"),
        ({"first_stage_languages": "en"}, "first_stage_languages must be a list of ISO 639-1"),
    ],
)
def test_bad_options(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        AdaptiveFusion(**options)
