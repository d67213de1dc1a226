"""Stop words: spaCy's per-language lists ("the", "le", "der" ...), folded like the text is."""

from __future__ import annotations

from functools import cache

from rerank_plus.analysis.languages import profile
from rerank_plus.analysis.normalize import fold
from rerank_plus.analysis.spacy_data import spacy_stop_words


@cache
def stop_words(language: str) -> frozenset[str]:
    """spaCy's stop words for ``language``, case-folded by its rules; empty where spaCy has no
    list (and always for the neutral analysis: no language's stop words fit unknown text)."""
    if not profile(language).stop_words:
        return frozenset()
    return frozenset(fold(word, language) for word in spacy_stop_words(language))
