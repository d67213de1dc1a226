"""What a batch job reranks with, in a form that travels to other processes.

A worker process (a Ray actor) must build its own reranker: models are loaded once per worker,
not pickled across the cluster. So a job takes a *recipe*: a configuration (a dict, a
JSON/YAML file, a ready profile's name, as :func:`rerank_plus.from_config` reads them) or a
function without arguments that returns a reranker. Files are read once, here, so workers on
other machines need no copy of them. The local engine also takes a ready reranker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeAlias

from rerank_plus.reranker import Reranker

#: A ready reranker, a function that builds one, or a from_config configuration.
RerankerSource: TypeAlias = "Reranker | Callable[[], Reranker] | Mapping[str, Any] | str | Path"
Recipe: TypeAlias = "Callable[[], Reranker] | dict[str, Any]"

#: Used when a job names no reranker: BM25+NLP, multilingual and offline.
DEFAULT_CONFIG: dict[str, Any] = {"reranker": {"provider": "bm25"}}


def recipe(source: RerankerSource | None) -> Recipe:
    """``source`` as something a worker can build its reranker from (files read here)."""
    from rerank_plus.compose.profiles import read_config

    if source is None:
        return dict(DEFAULT_CONFIG)
    if isinstance(source, Reranker):
        raise TypeError(
            "A worker builds its own reranker: pass a configuration (dict, file, profile "
            "name) or a function that returns the reranker, not a ready reranker."
        )
    if callable(source):
        return source
    return read_config(source)


def build(source: RerankerSource | None) -> Reranker:
    """The reranker ``source`` describes (a ready one is used as it is)."""
    from rerank_plus.compose.profiles import from_config

    if isinstance(source, Reranker):
        return source
    made = recipe(source)
    reranker = made() if callable(made) else from_config(made)
    if not isinstance(reranker, Reranker):
        raise TypeError(
            f"The reranker function returned {type(reranker).__name__}; it must return a "
            "Reranker (for example BM25Reranker())."
        )
    return reranker
