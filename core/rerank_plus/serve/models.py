"""The rerankers a server offers, by name: ready profiles, configuration files, or both."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from rerank_plus.compose.profiles import PROFILES, from_config
from rerank_plus.reranker import Reranker


def _name_and_source(spec: str) -> tuple[str, str]:
    name, sep, source = spec.partition("=")
    if sep and name and not Path(spec).is_file():
        return name, source
    return (spec if spec in PROFILES else Path(spec).stem), spec


def load_models(specs: Sequence[str] = ()) -> dict[str, Reranker]:
    """``["detail", "team=team.yaml"]`` -> ``{"detail": ..., "team": ...}``, in the given order.

    A spec is a ready profile's name, a JSON/YAML configuration file (named after its stem), or
    ``NAME=SOURCE``. The first is the default for requests that name no model. Without specs:
    plain BM25 (``bm25``, the default) and the ready profiles.
    """
    if not specs:
        from rerank_plus.scoring.bm25 import BM25Reranker

        return {"bm25": BM25Reranker(), **{name: from_config(name) for name in PROFILES}}
    models: dict[str, Reranker] = {}
    for spec in specs:
        name, source = _name_and_source(spec)
        if name in models:
            raise ValueError(f"Two models are named {name!r}; name one with NAME=SOURCE.")
        models[name] = from_config(source)
    return models


def warm_up(models: Mapping[str, Reranker]) -> None:
    """Rank one tiny request with each model, so language and model loading happen before the
    first client waits for them."""
    for reranker in models.values():
        reranker.rank("warm up", ["warm up the models"])
