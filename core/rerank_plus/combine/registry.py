"""Fusions by name, the library's default fusion, and building one from configuration options."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rerank_plus.combine.adaptive import AdaptiveFusion
from rerank_plus.combine.fusion import Fusion, ReciprocalRankFusion, WeightedFusion

#: Fusion methods by the name configurations use.
FUSIONS: dict[str, Callable[..., Fusion]] = {
    "adaptive": AdaptiveFusion,
    "rrf": ReciprocalRankFusion,
    "weighted": WeightedFusion,
}

#: The default fusion of a reranker with the first stage, wherever none is named:
#: ``FusionReranker()``, ``from_config`` without a method, the profiles, the adapters and
#: ``rerank-plus eval --rerankers fusion``. Adaptive: it leans on the reranker where the first
#: stage (an English-only embedding by default) cannot read the query; see docs/pipeline.md.
DEFAULT_FUSION: dict[str, Any] = {"method": "adaptive"}


def build_fusion(options: Mapping[str, Any] | str, *, reranker: object = None) -> Fusion:
    """``"rrf"`` or ``{"method": "weighted", "alpha": 0.7, "normalization": "zscore"}``.

    Without ``method`` the default fusion's method is used. An adaptive fusion detects the
    query's language with ``reranker``'s analyzer when it has one (sharing its cache).
    """
    if isinstance(options, str):
        options = {"method": options}
    if not isinstance(options, Mapping):
        raise TypeError(f"fusion options must be a name or a mapping, got {options!r}.")
    settings = dict(options)
    method = settings.pop("method", DEFAULT_FUSION["method"])
    if method not in FUSIONS:
        raise ValueError(f"Unknown fusion {method!r}; choose one of {', '.join(sorted(FUSIONS))}.")
    if method == "adaptive" and "detector" not in settings:
        settings["detector"] = getattr(reranker, "analyzer", None)
    try:
        return FUSIONS[method](**settings)
    except TypeError as error:
        raise ValueError(f"Bad options for fusion {method!r}: {error}.") from error
