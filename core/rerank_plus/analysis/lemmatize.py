"""Lemmatization with simplemma: "running" -> "run", "courait" -> "courir", "Häuser" -> "Haus"."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=500_000)
def lemmatize(word: str, dictionary: str) -> str:
    """The lemma of ``word`` in simplemma's ``dictionary`` (a word it does not know stays as it
    is), not yet case-folded: folding is the language's own (:func:`normalize.fold`).

    Cached per (word, dictionary): word forms repeat across documents, so most calls are lookups.
    """
    import simplemma

    try:
        return str(simplemma.lemmatize(word, lang=dictionary))
    except ValueError:  # a dictionary simplemma does not ship
        return word
