"""From one token to its lemma and whether it is a term: the per-word half of the analysis.

Words repeat across documents, so the whole decision is cached per distinct word (and
settings): analyzing a 200-word document costs 200 cache lookups once the vocabulary is warm.
"""

from __future__ import annotations

from functools import lru_cache

from rerank_plus.analysis.lemmatize import lemmatize
from rerank_plus.analysis.stopwords import stop_words
from rerank_plus.analysis.tokenize import is_content_shape

#: How stop words are matched: against the surface form, the lemma, either, or not at all.
STOPWORD_MODES = ("both", "lemma", "surface", "none")


@lru_cache(maxsize=500_000)
def word_form(
    word: str, language: str, tagged_lemma: str | None, use_lemmas: bool, stopwords: str
) -> tuple[str, bool] | None:
    """``(lemma, is_term)`` for a word, or None when it carries no content (punctuation, emoji).

    ``tagged_lemma`` is a trained pipeline's part-of-speech-aware lemma, preferred when given.
    """
    if not is_content_shape(word):
        return None
    if not use_lemmas:
        lemma = word.lower()
    elif tagged_lemma:
        lemma = tagged_lemma.lower()
    else:
        lemma = lemmatize(word, language)
    if stopwords == "none":
        return lemma, True
    stops = stop_words(language)
    is_stop = (stopwords in ("both", "lemma") and lemma in stops) or (
        stopwords in ("both", "surface") and word.lower() in stops
    )
    return lemma, not is_stop
