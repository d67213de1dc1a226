"""From a piece of text to its words, base forms and terms: the per-word half of the analysis.

Words repeat across documents, so each decision is cached per distinct piece (and settings):
analyzing a 200-word document costs 200 cache lookups once the vocabulary is warm.
"""

from __future__ import annotations

from functools import lru_cache

from rerank_plus.analysis.languages import profile
from rerank_plus.analysis.lemmatize import lemmatize
from rerank_plus.analysis.normalize import fold
from rerank_plus.analysis.script import OTHER, needs_segmentation, script_runs
from rerank_plus.analysis.segment import segment
from rerank_plus.analysis.stem import stem, stemmer_available
from rerank_plus.analysis.stopwords import stop_words
from rerank_plus.analysis.tokenize import (
    LONGEST_CACHED_PIECE,
    is_content_shape,
    piece_tokens,
)

#: How stop words are matched: against the surface form, the lemma, either, or not at all.
STOPWORD_MODES = ("both", "lemma", "surface", "none")

#: (surface word, base form, is a term) for each word of a piece.
Word = tuple[str, str, bool]


@lru_cache(maxsize=500_000)
def word_form(
    word: str,
    language: str,
    tagged_lemma: str | None,
    use_lemmas: bool,
    stopwords: str,
    segmented: bool = False,
) -> tuple[str, bool] | None:
    """``(base form, is_term)`` for a word, or None when it carries no content (punctuation,
    emoji). The base form is the folded lemma, or stem, in ``language`` and nothing else.

    ``tagged_lemma`` is a trained pipeline's part-of-speech-aware lemma, preferred when given;
    ``segmented`` words come from a segmenter (already a dictionary form, or a bigram).
    """
    if not is_content_shape(word):
        return None
    parts = profile(language)
    surface = fold(word, language)
    if not use_lemmas or segmented:
        base = surface
    elif tagged_lemma:
        base = fold(tagged_lemma, language)
    elif parts.lemmas:
        base = fold(lemmatize(word, parts.lemmas), language)
    elif parts.stemmer and stemmer_available():
        base = stem(surface, parts.stemmer)
    else:
        base = surface
    if stopwords == "none":
        return base, True
    stops = stop_words(language)
    is_stop = (stopwords in ("both", "lemma") and base in stops) or (
        stopwords in ("both", "surface") and surface in stops
    )
    return base, not is_stop


def _piece_words(piece: str, language: str, use_lemmas: bool, stopwords: str) -> tuple[Word, ...]:
    words: list[Word] = []
    for token in piece_tokens(piece, profile(language).tokenizer):
        if not needs_segmentation(token):
            form = word_form(token, language, None, use_lemmas, stopwords)
            if form is not None:
                words.append((token, *form))
            continue
        for script, run in script_runs(token):
            unspaced = script != OTHER
            for word in segment(run, script, language) if unspaced else [run]:
                form = word_form(word, language, None, use_lemmas, stopwords, unspaced)
                if form is not None:
                    words.append((word, *form))
    return tuple(words)


_cached_piece_words = lru_cache(maxsize=200_000)(_piece_words)


def piece_words(piece: str, language: str, use_lemmas: bool, stopwords: str) -> tuple[Word, ...]:
    """The words of one whitespace-free piece of text in ``language`` (cached when short)."""
    if len(piece) <= LONGEST_CACHED_PIECE:
        return _cached_piece_words(piece, language, use_lemmas, stopwords)
    return _piece_words(piece, language, use_lemmas, stopwords)
