"""Stop words: spaCy's per-language lists ("the", "le", "der" ...)."""

from __future__ import annotations

from functools import cache

from rerank_plus.analysis.tokenize import blank_pipeline


@cache
def stop_words(language: str) -> frozenset[str]:
    """spaCy's stop words for ``language``, lowercased."""
    return frozenset(word.lower() for word in blank_pipeline(language).Defaults.stop_words)
