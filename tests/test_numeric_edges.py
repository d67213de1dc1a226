"""Scores at the edges of the float range: any finite value keeps its order, infinities fail.

The contract (docs/testing.md): first-stage scores and normalizer inputs must be finite; NaN and
infinities raise an error naming the position. Finite values of any magnitude, subnormal to
1.8e308, never swap order and equal values stay equal, through normalization and fusion.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rerank_plus import BM25Reranker, FusionReranker
from rerank_plus.combine import ReciprocalRankFusion, WeightedFusion, min_max, z_score
from rerank_plus.validation import check_first_stage_scores

#: Any finite float, with the extremes (huge, tiny, subnormal, signed zero) drawn often.
EDGES = (1.7976931348623157e308, -1.7976931348623157e308, 1e308, -1e308, 5e-324, -5e-324, 0.0)
finite = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(EDGES)
score_lists = st.lists(finite, min_size=1, max_size=20)
NORMALIZERS = pytest.mark.parametrize("normalize", [min_max, z_score], ids=["minmax", "zscore"])


def assert_monotone(inputs: list[float], outputs: list[float]) -> None:
    """No pair swaps order, and equal inputs get equal outputs."""
    for i, a in enumerate(inputs):
        for j, b in enumerate(inputs):
            if a < b:
                assert outputs[i] <= outputs[j], (a, b, outputs[i], outputs[j])
            elif a == b:
                assert outputs[i] == outputs[j], (a, b, outputs[i], outputs[j])


@NORMALIZERS
@given(values=score_lists)
def test_normalizers_are_monotone_over_the_whole_float_range(normalize, values) -> None:
    normalized = normalize(values)
    assert len(normalized) == len(values)
    assert all(0.0 <= v <= 1.0 for v in normalized)
    assert_monotone(values, normalized)


@given(values=score_lists)
def test_min_max_keeps_the_extremes_apart(values) -> None:
    normalized = min_max(values)
    if max(values) > min(values):
        assert normalized[values.index(max(values))] == 1.0
        assert normalized[values.index(min(values))] == 0.0
    else:
        assert normalized == [0.5] * len(values)


@given(values=score_lists)
def test_z_score_orders_the_extremes(values) -> None:
    normalized = z_score(values)
    if max(values) > min(values):
        assert normalized[values.index(max(values))] > normalized[values.index(min(values))]


@NORMALIZERS
@pytest.mark.parametrize(
    "values",
    [[1e308, -1e308, 0.0], [1.7976931348623157e308, -1.7976931348623157e308, 1.0], [5e-324, 0.0]],
)
def test_huge_and_tiny_values_keep_their_order(normalize, values) -> None:
    normalized = normalize(values)
    order = sorted(range(len(values)), key=lambda i: values[i])
    assert [normalized[i] for i in order] == sorted(normalized)
    assert normalized[order[0]] < normalized[order[-1]]


@NORMALIZERS
@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_normalizers_reject_what_is_not_finite(normalize, bad) -> None:
    with pytest.raises(ValueError, match=r"scores\[1\] = .*must be finite"):
        normalize([1.0, bad, 0.5])


@pytest.mark.parametrize("bad", [math.inf, -math.inf])
def test_first_stage_scores_must_be_finite(bad) -> None:
    with pytest.raises(
        ValueError, match=r"first_stage_scores\[2\] is -?inf; scores must be finite"
    ):
        check_first_stage_scores([0.1, 0.2, bad], 3)
    with pytest.raises(ValueError, match="must be finite"):
        BM25Reranker().rank("cats", ["cats", "dogs", "birds"], first_stage_scores=[0.1, 0.2, bad])


def test_huge_first_stage_scores_are_accepted_as_floats() -> None:
    assert check_first_stage_scores([10**400 // 10**100, -1e308], 2) == [1e300, -1e308]


FUSIONS = [
    WeightedFusion(alpha=0.5),
    WeightedFusion(alpha=0.3, normalization="zscore"),
    WeightedFusion(alpha=1.0),
    ReciprocalRankFusion(k=60),
    ReciprocalRankFusion(k=0, alpha=0.8),
]


@pytest.mark.parametrize("fusion", FUSIONS, ids=repr)
@given(pairs=st.lists(st.tuples(finite, finite), min_size=1, max_size=15))
def test_fusion_keeps_what_both_inputs_agree_on(fusion, pairs) -> None:
    rerank = [a for a, _ in pairs]
    first = [b for _, b in pairs]
    fused = fusion.fuse(rerank, first).values
    assert all(0.0 <= v <= 1.0 for v in fused)

    def above(values: list[float], i: int, j: int) -> bool:
        return values[i] > values[j] or (values[i] == values[j] and i < j)

    for i in range(len(pairs)):
        for j in range(len(pairs)):
            if above(rerank, i, j) and above(first, i, j):
                # Both inputs rank i above j (ties in input order): so does the fusion.
                assert fused[i] >= fused[j], (pairs[i], pairs[j], fused[i], fused[j])


@pytest.mark.parametrize("method", ["weighted", "rrf"])
def test_a_fused_ranking_with_huge_first_stage_scores_follows_the_agreement(method) -> None:
    documents = ["marathon training plan", "marathon", "cats sleep all day"]
    fused = FusionReranker(BM25Reranker(), method=method)
    results = fused.rank("marathon training", documents, first_stage_scores=[1e308, 0.0, -1e308])
    assert [r.index for r in results] == [0, 1, 2]


def test_normalized_values_are_exact() -> None:
    values = [1.0, 2.0, 3.0, 6.0]  # mean 3, population standard deviation sqrt(3.5)
    assert min_max(values) == [0.0, 0.2, 0.4, 1.0]
    phi = [0.5 * (1.0 + math.erf((v - 3.0) / math.sqrt(3.5) / math.sqrt(2.0))) for v in values]
    assert z_score(values) == pytest.approx(phi, abs=1e-15)
    assert z_score([3.0, 3.0]) == [0.5, 0.5]
    with pytest.raises(ValueError) as raised:
        min_max([1.0, math.inf])
    assert str(raised.value) == (
        "cannot normalize scores[1] = inf: scores must be finite numbers. "
        "Clip infinite scores to a finite bound, or use rank-based fusion ('rrf')."
    )
    with pytest.raises(ValueError) as unknown:
        WeightedFusion(normalization="l2")
    assert str(unknown.value) == "Unknown normalization 'l2'; choose one of dbsf, minmax, zscore."
