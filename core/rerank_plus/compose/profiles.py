"""Build a pipeline from a configuration: a dict, a JSON/YAML file, or a ready profile's name.

Two shapes are accepted.

The rerank-profile shape of existing RAG platforms::

    {"rerank": {"provider": "bm25", "modelName": "...", "k": 3, "relevanceScore": 0.3}}

means: rerank with that provider (and model), keep at most ``k`` results, none whose
``relevance_score`` is below ``relevanceScore``.

The full shape (every key optional but ``reranker`` or ``profile``)::

    {"profile": "detail",                       # start from a ready profile, override below
     "reranker": {"provider": "bm25", "k1": 1.2},        # or {"cascade": [...], "keep": [...]}
     "fusion": {"method": "weighted", "alpha": 0.8, "normalization": "zscore"},
     "boosts": [{"type": "freshness", "field": "timestamp", "half_life_days": 7, "weight": 1}],
     "selection": {"top_n": 5, "threshold": 0.3, "cutoff": {"method": "gap", "min_gap": 0.15},
                   "diversity": {"lambda": 0.7, "similarity": "lexical"}, "max_tokens": 2000}}

Unknown keys anywhere are errors that list the valid ones. YAML files need PyYAML.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rerank_plus.combine.boosts import build_boost
from rerank_plus.combine.fusion import Fusion
from rerank_plus.combine.registry import DEFAULT_FUSION, build_fusion
from rerank_plus.compose.pipeline import Pipeline
from rerank_plus.compose.presets import KINDS
from rerank_plus.errors import MissingExtraError
from rerank_plus.reranker import Reranker
from rerank_plus.selection.budget import TokenBudget
from rerank_plus.selection.cutoff import build_cutoff
from rerank_plus.selection.diversity import (
    EmbeddingSimilarity,
    LexicalSimilarity,
    MaximalMarginalRelevance,
)

#: Ready profiles from the hierarchical-memory design. ``level`` is the summary level of a
#: memory: L1 raw passages, L2 summaries of passages, L3 summaries of summaries.
PROFILES: dict[str, dict[str, Any]] = {
    # Broad questions: favour higher-level summaries, and diversity over near-duplicates.
    "synthesis": {
        "reranker": {"provider": "bm25"},
        "fusion": DEFAULT_FUSION,
        "boosts": [
            {"type": "prior", "field": "level", "weights": {"L1": 1.0, "L2": 1.15, "L3": 1.3}}
        ],
        "selection": {"top_n": 8, "diversity": {"lambda": 0.5}},
    },
    # Precise questions: lexical precision, raw passages, stop where relevance drops.
    "detail": {
        "reranker": {"provider": "bm25"},
        "fusion": {
            **DEFAULT_FUSION,
            "alpha": 0.9,
            "unread_alpha": 0.95,
            "unread_script_alpha": 0.95,
        },
        "boosts": [
            {"type": "prior", "field": "level", "weights": {"L1": 1.2, "L2": 1.0, "L3": 0.9}}
        ],
        "selection": {
            "top_n": 5,
            "cutoff": {"method": "gap", "min_gap": 0.15},
            "diversity": {"lambda": 0.9},
        },
    },
    # "What's new" questions: a one-week half-life on the timestamp field.
    "recent": {
        "reranker": {"provider": "bm25"},
        "fusion": DEFAULT_FUSION,
        "boosts": [
            {"type": "freshness", "field": "timestamp", "half_life_days": 7.0, "weight": 1.0}
        ],
        "selection": {"top_n": 5, "diversity": {"lambda": 0.8}},
    },
}

_TOP = ("boosts", "fusion", "profile", "reranker", "selection")
_SELECTION = ("cutoff", "diversity", "max_tokens", "threshold", "top_n")
_DIVERSITY = ("lambda", "similarity")
_PLATFORM = ("k", "modelName", "provider", "relevanceScore")


def check_keys(where: str, given: Mapping[str, Any], valid: tuple[str, ...]) -> None:
    if not isinstance(given, Mapping):
        raise TypeError(f"{where} must be a mapping (JSON object), got {type(given).__name__}.")
    unknown = sorted(set(given) - set(valid))
    if unknown:
        raise ValueError(
            f"Unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} in "
            f"{where}; valid keys: {', '.join(valid)}."
        )


def _provider(options: Mapping[str, Any] | str) -> Reranker:
    """A reranker from its options; a bare kind name (``"bm25"``) means its defaults."""
    if isinstance(options, str):
        options = {"provider": options}
    if not isinstance(options, Mapping):
        raise TypeError(
            'reranker must be a kind name such as "bm25" or a mapping such as '
            f'{{"provider": "cross-encoder", "model": "..."}}, got {type(options).__name__}.'
        )
    settings = dict(options)
    if "cascade" in settings:
        from rerank_plus.compose.cascade import Cascade

        check_keys("reranker", settings, ("cascade", "keep"))
        stages = [_provider(stage) for stage in settings["cascade"]]
        return Cascade(stages, settings.get("keep", [None] * len(stages)))
    name = settings.pop("provider", None)
    if name not in KINDS:
        raise ValueError(
            f"Unknown rerank provider {name!r}; choose one of {', '.join(sorted(KINDS))}."
        )
    if "modelName" in settings:
        settings["model"] = settings.pop("modelName")
    try:
        return KINDS[name].build(settings)
    except (TypeError, ValueError) as error:
        raise ValueError(f"Bad options for provider {name!r}: {error}") from error


def _diversity(options: Mapping[str, Any], reranker: Reranker) -> MaximalMarginalRelevance:
    check_keys("selection.diversity", options, _DIVERSITY)
    kind = options.get("similarity", "lexical")
    similarities: dict[str, Callable[[], Any]] = {
        "lexical": lambda: LexicalSimilarity(getattr(reranker, "analyzer", None)),
        "embedding": lambda: EmbeddingSimilarity(_encoder(reranker)),
    }
    if kind not in similarities:
        raise ValueError(
            f"Unknown similarity {kind!r}; choose one of {', '.join(sorted(similarities))}."
        )
    return MaximalMarginalRelevance(options.get("lambda", 0.7), similarities[kind]())


def _encoder(reranker: Reranker) -> Any:
    """The bi-encoder to embed with: the reranker itself or one of its cascade's stages."""
    for candidate in [reranker, *getattr(reranker, "stages", [])]:
        if callable(getattr(candidate, "embed", None)):
            return candidate
    raise ValueError(
        'similarity "embedding" needs a bi-encoder reranker (provider "bi-encoder", alone or '
        'as a cascade stage); use "lexical" otherwise.'
    )


def _translate_platform(options: Mapping[str, Any]) -> dict[str, Any]:
    check_keys("rerank", options, _PLATFORM)
    reranker = {"provider": options.get("provider", "bm25")}
    if "modelName" in options:
        reranker["model"] = options["modelName"]
    selection = {}
    if "k" in options:
        selection["top_n"] = options["k"]
    if "relevanceScore" in options:
        selection["threshold"] = options["relevanceScore"]
    return {"reranker": reranker, "selection": selection}


def _merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping) and key != "reranker":
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def read_config(source: Mapping[str, Any] | str | Path) -> dict[str, Any]:
    """A configuration as a dict: a mapping as is, a profile name, or a .json/.yaml file."""
    if isinstance(source, Mapping):
        return dict(source)
    if isinstance(source, str) and source in PROFILES:
        return {"profile": source}
    path = Path(source)
    if not path.is_file():
        raise ValueError(
            f"{str(source)!r} is neither a ready profile ({', '.join(sorted(PROFILES))}) nor a "
            "configuration file."
        )
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError as error:
            raise MissingExtraError("pyyaml", "yaml", "Reading YAML configurations") from error
        data = yaml.safe_load(text)
    else:
        data = json.loads(text)
    if not isinstance(data, Mapping):
        raise ValueError(f"{path.name} must hold a mapping (an object) at the top level.")
    return dict(data)


def from_config(source: Mapping[str, Any] | str | Path) -> Pipeline:
    """Build a :class:`Pipeline` from a dict, a JSON/YAML file path, or a ready profile's name.

    >>> pipeline = from_config({"rerank": {"provider": "bm25", "k": 3, "relevanceScore": 0.3}})
    >>> pipeline.top_n, pipeline.threshold
    (3, 0.3)
    """
    config = read_config(source)
    if "chat" in config:  # the seed platform nests its rerank profile under "chat"
        check_keys("the configuration", config, ("chat",))
        config = dict(config["chat"])
        check_keys('"chat"', config, ("rerank",))
    if "rerank" in config:
        check_keys("the configuration", config, ("rerank",))
        config = _translate_platform(config["rerank"])
    check_keys("the configuration", config, _TOP)
    if "profile" in config:
        name = config["profile"]
        if name not in PROFILES:
            raise ValueError(
                f"Unknown profile {name!r}; choose one of {', '.join(sorted(PROFILES))}."
            )
        config = _merge(PROFILES[name], {k: v for k, v in config.items() if k != "profile"})
    if "reranker" not in config:
        raise ValueError('A configuration needs "reranker" (or "profile", or "rerank").')
    reranker = _provider(config["reranker"])
    fusion: Fusion | None = (
        build_fusion(config["fusion"], reranker=reranker) if config.get("fusion") else None
    )
    boosts = [build_boost(options) for options in config.get("boosts", [])]
    selection = config.get("selection", {})
    check_keys("selection", selection, _SELECTION)
    return Pipeline(
        reranker,
        fusion=fusion,
        boosts=boosts,
        cutoff=build_cutoff(selection["cutoff"]) if selection.get("cutoff") else None,
        diversity=_diversity(selection["diversity"], reranker)
        if selection.get("diversity")
        else None,
        budget=TokenBudget(selection["max_tokens"]) if selection.get("max_tokens") else None,
        top_n=selection.get("top_n"),
        threshold=selection.get("threshold"),
    )
