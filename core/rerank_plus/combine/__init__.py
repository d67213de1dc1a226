"""Combine scores: normalize per query, fuse with the first stage, boost on metadata."""

from rerank_plus.combine.fusion import (
    FUSIONS,
    Fused,
    Fusion,
    ReciprocalRankFusion,
    WeightedFusion,
    build_fusion,
)
from rerank_plus.combine.normalize import NORMALIZERS, min_max, z_score

__all__ = [
    "FUSIONS",
    "NORMALIZERS",
    "Fused",
    "Fusion",
    "ReciprocalRankFusion",
    "WeightedFusion",
    "build_fusion",
    "min_max",
    "z_score",
]
