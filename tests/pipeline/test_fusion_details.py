"""A weighted sum's explanations are built when read: they still behave as a list of dicts
(index, negative index, slice, length, IndexError) with the same contents."""

from __future__ import annotations

import pytest
from rerank_plus import ReciprocalRankFusion, WeightedFusion


@pytest.mark.parametrize("fusion", [WeightedFusion(alpha=0.25), ReciprocalRankFusion(k=1)])
def test_details_read_like_a_list(fusion):
    fused = fusion.fuse([1.0, 3.0, 2.0], [0.0, 0.5, 1.0])
    details = list(fused.details)
    assert len(fused.details) == len(details) == 3
    assert fused.details[-1] == details[2]
    assert fused.details[1:] == details[1:]
    assert [d["alpha"] for d in fused.details] == [fusion.alpha] * 3
    with pytest.raises(IndexError, match="range object index out of range"):
        fused.details[3]
    assert details[0] is not fused.details[0]  # a fresh dict per read: callers may extend it


def test_rrf_details_show_the_ranks_and_weighted_the_normalized_scores():
    rrf = ReciprocalRankFusion(k=1).fuse([1.0, 3.0, 2.0], [0.0, 0.5, 1.0])
    assert [(d["rerank_rank"], d["first_stage_rank"]) for d in rrf.details] == [
        (3, 3),
        (1, 2),
        (2, 1),
    ]
    weighted = WeightedFusion(alpha=0.5).fuse([1.0, 3.0], [0.0, 1.0])
    assert [d["rerank_normalized"] for d in weighted.details] == [0.0, 1.0]
    assert WeightedFusion().fuse([], []).values == []
    assert len(WeightedFusion().fuse([], []).details) == 0
