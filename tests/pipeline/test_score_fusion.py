"""Normalization and fusion of rerank scores with first-stage scores."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rerank_plus import BM25Reranker, Pipeline, ReciprocalRankFusion, WeightedFusion
from rerank_plus.combine import build_fusion, min_max, z_score
from rerank_plus.combine.normalize import three_sigma

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
pairs = st.integers(min_value=0, max_value=30).flatmap(
    lambda n: st.tuples(
        st.lists(finite, min_size=n, max_size=n), st.lists(finite, min_size=n, max_size=n)
    )
)
fusions = st.one_of(
    st.builds(
        WeightedFusion,
        alpha=st.floats(min_value=0, max_value=1),
        normalization=st.sampled_from(["minmax", "zscore", "dbsf"]),
    ),
    st.builds(
        ReciprocalRankFusion, k=st.integers(min_value=0, max_value=100), alpha=st.floats(0, 1)
    ),
)


@given(pairs, fusions)
def test_fused_values_lie_in_unit_interval(scores, fusion) -> None:
    rerank, first = scores
    fused = fusion.fuse(rerank, first)
    assert len(fused.values) == len(rerank) == len(fused.details)
    assert all(0.0 <= v <= 1.0 and not math.isnan(v) for v in fused.values)


def test_constant_input_normalizes_to_one_half() -> None:
    assert min_max([3.0, 3.0, 3.0]) == [0.5, 0.5, 0.5]
    assert z_score([-2.0]) == [0.5]
    assert min_max([]) == z_score([]) == []


def test_alpha_one_is_the_reranker_and_zero_the_first_stage() -> None:
    rerank, first = [1.0, 5.0, 3.0], [0.9, 0.1, 0.5]
    assert WeightedFusion(alpha=1.0).fuse(rerank, first).values == min_max(rerank)
    assert WeightedFusion(alpha=0.0).fuse(rerank, first).values == min_max(first)


def test_rrf_follows_cormack_with_k_60() -> None:
    fused = ReciprocalRankFusion().fuse([3.0, 2.0, 1.0], [1.0, 2.0, 3.0])
    # document 0: rerank rank 1, first-stage rank 3 -> (0.5/61 + 0.5/63) * 61
    assert fused.values[0] == pytest.approx((0.5 / 61 + 0.5 / 63) * 61)
    assert fused.details[0] == {
        "method": "rrf",
        "k": 60,
        "alpha": 0.5,
        "rerank_rank": 1,
        "first_stage_rank": 3,
    }


def test_zscore_resists_one_outlier_better_than_minmax() -> None:
    values = [100.0, 2.0, 1.9, 1.0]
    assert min_max(values)[1] < 0.02  # min-max squashes everything below the outlier
    assert z_score(values)[1] > 0.25


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"method": "borda"}, "Unknown fusion 'borda'; choose one of adaptive, rrf, weighted"),
        ({"method": "weighted", "alpha": 1.5}, r"alpha must be a number in \[0, 1\]"),
        ({"method": "weighted", "normalization": "l2"}, "choose one of dbsf, minmax, zscore"),
        ({"method": "rrf", "k": -1}, "k must be an int >= 0"),
        ({"method": "rrf", "beta": 1}, "Bad options for fusion 'rrf'"),
    ],
)
def test_bad_fusion_options_say_what_is_valid(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        build_fusion(options)


def test_mismatched_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot fuse 2 rerank scores with 1 first-stage"):
        WeightedFusion().fuse([1.0, 2.0], [1.0])


def test_pipeline_fusion_explains_inputs_and_weights(bm25: BM25Reranker) -> None:
    docs = ["The capital of France is Paris.", "Paris is in France.", "Berlin is large."]
    pipeline = Pipeline(bm25, fusion=WeightedFusion(alpha=0.7, normalization="zscore"))
    results = pipeline.rank(
        "capital of France", docs, first_stage_scores=[0.2, 0.8, 0.1], explain=True
    )
    explanation = results[0].explanation
    assert explanation["reranker"]["name"] == "BM25Reranker"
    assert "capital" in explanation["reranker"]["matched_terms"]
    assert explanation["fusion"]["alpha"] == 0.7
    assert explanation["fusion"]["normalization"] == "zscore"
    assert explanation["fusion"]["fused"] == results[0].relevance_score


def test_pipeline_without_first_stage_scores_skips_fusion(bm25: BM25Reranker) -> None:
    docs = ["cats purr", "dogs bark"]
    pipeline = Pipeline(bm25, fusion=ReciprocalRankFusion())
    fused = pipeline.rank("dogs", docs, explain=True)
    plain = bm25.rank("dogs", docs)
    assert [r.index for r in fused] == [r.index for r in plain]
    assert fused[0].explanation["fusion"] == {"skipped": "no first_stage_scores were given"}


def test_pipeline_never_mutates_its_inputs(bm25: BM25Reranker) -> None:
    docs, first = ["a cat", "a dog", "a cat and a dog"], [0.3, 0.2, 0.1]
    metadata = [{"level": "L1"}, {}, {"level": "L3"}]
    copies = (list(docs), list(first), [dict(m) for m in metadata])
    Pipeline(bm25, fusion=WeightedFusion()).rank(
        "cat", docs, first_stage_scores=first, metadata=metadata
    )
    assert (docs, first, metadata) == copies


def test_three_sigma_is_linear_within_three_deviations_and_clipped_beyond() -> None:
    values = [0.0] * 9 + [10.0]  # mean 1, deviation 3: the outlier sits 3 deviations up
    normalized = three_sigma(values)
    assert normalized[-1] == 1.0 and normalized[0] == pytest.approx(0.5 - 1 / 18)
    # where the normal CDF flattens, three sigma keeps the gaps: z = 1, 2, 3 step evenly
    a, b, c = three_sigma([-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0])[4:]
    assert b - a == pytest.approx(c - b)
    assert three_sigma([-2.0]) == [0.5] and three_sigma([]) == []
