"""Combine scores: normalize per query, fuse with the first stage, boost on metadata."""

from rerank_plus.combine.adaptive import AdaptiveFusion, Signals
from rerank_plus.combine.fusion import Fused, Fusion, ReciprocalRankFusion, WeightedFusion
from rerank_plus.combine.normalize import NORMALIZERS, min_max, z_score
from rerank_plus.combine.registry import DEFAULT_FUSION, FUSIONS, build_fusion

__all__ = [
    "DEFAULT_FUSION",
    "FUSIONS",
    "NORMALIZERS",
    "AdaptiveFusion",
    "Fused",
    "Fusion",
    "ReciprocalRankFusion",
    "Signals",
    "WeightedFusion",
    "build_fusion",
    "min_max",
    "z_score",
]
