"""Lemmatization with simplemma: "running" -> "run", "courait" -> "courir", "Häuser" -> "Haus"."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=500_000)
def lemmatize(word: str, language: str) -> str:
    """The lowercased lemma of ``word``; a word simplemma does not know stays as it is, lowercased.

    Cached per (word, language): word forms repeat across documents, so most calls are lookups.
    """
    import simplemma

    try:
        lemma = simplemma.lemmatize(word, lang=language)
    except ValueError:  # a language simplemma has no dictionary for
        lemma = word
    return lemma.lower()
