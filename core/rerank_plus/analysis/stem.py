"""Snowball stemming, for languages that simplemma has no lemma dictionary for (Basque, Tamil,
Serbian...): a stem is cruder than a lemma but still joins a word's inflected forms.

Needs ``snowballstemmer`` (``pip install rerank-plus[stem]``); without it those languages keep
their surface forms, which :func:`stemmer_available` lets the analysis report.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import cache, lru_cache


@cache
def stemmer_available() -> bool:
    return importlib.util.find_spec("snowballstemmer") is not None


@cache
def _stemmer(algorithm: str) -> Callable[[str], str]:
    import snowballstemmer

    return snowballstemmer.stemmer(algorithm).stemWord


@lru_cache(maxsize=500_000)
def stem(word: str, algorithm: str) -> str:
    """The Snowball stem of ``word`` (already case-folded)."""
    return _stemmer(algorithm)(word)
