"""From a piece of text to its words, base forms and terms: the per-word half of the analysis.

Words repeat across documents, so each decision is cached per distinct piece (and settings):
analyzing a 200-word document costs 200 dictionary lookups once the vocabulary is warm.
"""

from __future__ import annotations

from collections.abc import Mapping
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

#: A piece's words, their base forms (one per word), and the terms among the base forms.
PieceWords = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


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


def _remembered_form(token: str, known: Mapping[str, PieceWords]) -> tuple[str, bool] | None:
    """``word_form`` of a token that was a piece of its own before (kept, or remembered from a
    stored memory), read off that piece: a question's "budget?" finds "budget" there, and a new
    process answers it without loading the language's lemma table."""
    entry = known.get(token)
    if entry is None or entry[0] != (token,):
        return None
    return entry[1][0], bool(entry[2])


def _piece_words(piece: str, language: str, use_lemmas: bool, stopwords: str) -> PieceWords:
    known = _piece_cache.get((language, use_lemmas, stopwords), {})
    words: list[str] = []
    bases: list[str] = []
    terms: list[str] = []

    def add(word: str, form: tuple[str, bool] | None) -> None:
        if form is not None:
            words.append(word)
            bases.append(form[0])
            if form[1]:
                terms.append(form[0])

    for token in piece_tokens(piece, profile(language).tokenizer):
        if not needs_segmentation(token):
            form = _remembered_form(token, known)
            add(token, form or word_form(token, language, None, use_lemmas, stopwords))
            continue
        for script, run in script_runs(token):
            unspaced = script != OTHER
            for word in segment(run, script, language) if unspaced else [run]:
                add(word, word_form(word, language, None, use_lemmas, stopwords, unspaced))
    return tuple(words), tuple(bases), tuple(terms)


#: Distinct pieces whose words are kept, over all languages and settings; past it the cache
#: starts afresh (cheaper per lookup than a least-recently-used order, and as good for text).
MAX_CACHED_PIECES = 200_000
_piece_cache: dict[tuple[str, bool, str], dict[str, PieceWords]] = {}
_cached_pieces = 0


def clear_piece_cache() -> None:
    """Forget every piece's words (for tests that change which segmenters are installed)."""
    global _cached_pieces
    _piece_cache.clear()
    _cached_pieces = 0


def remember_pieces(
    language: str, use_lemmas: bool, stopwords: str, pieces: Mapping[str, PieceWords]
) -> None:
    """Keep the words of pieces read earlier (e.g. stored with a memory), so that texts made
    of them are analyzed without tokenizers or lemma tables; they must be what
    :func:`text_words` gives with these settings."""
    global _cached_pieces
    cache = _piece_cache.setdefault((language, use_lemmas, stopwords), {})
    for piece, words in pieces.items():
        if len(piece) > LONGEST_CACHED_PIECE or piece in cache:
            continue
        if _cached_pieces >= MAX_CACHED_PIECES:
            return
        cache[piece] = words
        _cached_pieces += 1


def text_words(
    pieces: list[str], language: str, use_lemmas: bool, stopwords: str
) -> list[PieceWords]:
    """The words of each whitespace-free piece of a text in ``language``: one dictionary lookup
    per piece seen before (short pieces are cached), whatever the piece holds."""
    global _cached_pieces
    cache = _piece_cache.setdefault((language, use_lemmas, stopwords), {})
    found: list[PieceWords | None] = list(map(cache.get, pieces))
    if None not in found:
        return found  # type: ignore[return-value]  # no None in it
    words: list[PieceWords] = []
    for piece, hit in zip(pieces, found, strict=True):
        if hit is None:
            hit = _piece_words(piece, language, use_lemmas, stopwords)
            if len(piece) <= LONGEST_CACHED_PIECE:
                if _cached_pieces >= MAX_CACHED_PIECES:
                    clear_piece_cache()
                    cache = _piece_cache.setdefault((language, use_lemmas, stopwords), {})
                cache[piece] = hit
                _cached_pieces += 1
        words.append(hit)
    return words
