"""Tokenization with spaCy's rule-based tokenizers, one whitespace-separated piece at a time.

``spacy.blank(lang)`` needs no model download and still splits French elisions ("l'homme") and
hyphenated clitics correctly; languages spaCy has no rules for use its neutral ``"xx"``
tokenizer. spaCy cuts a text at spaces first and applies its rules to each piece on its own, so
a piece's tokens are cached here: a text whose words were seen before is tokenized by lookups,
with no ``Doc`` built. A piece of letters alone (most pieces) is not given to spaCy at all,
nor is spaCy imported for it (:mod:`~rerank_plus.analysis.special_cases`). A trained pipeline
(part-of-speech tags, to drop punctuation by tag and lemmatize by part of speech: "je cours" ->
"courir") still reads whole texts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from rerank_plus.analysis.special_cases import TRAILING_PUNCTUATION, shortcut_cases, stored_cases

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokenizer import Tokenizer

#: Parts of speech that never carry content.
NON_CONTENT_POS = frozenset({"PUNCT", "SYM", "SPACE"})
#: Texts for a trained pipeline are read in pieces of at most this many characters, cut at
#: white space, so a 1 MB document neither hits spaCy's max_length nor builds one huge Doc.
CHUNK_CHARS = 100_000
#: A whitespace-separated piece longer than this (a URL, an unspaced paragraph) is not cached.
LONGEST_CACHED_PIECE = 64


_WORD_CHARACTER = re.compile(r"[^\W_]")


def is_content_shape(text: str) -> bool:
    """A token carries content when it has a letter or a digit (not punctuation, emoji, space)."""
    return _WORD_CHARACTER.search(text) is not None


@cache
def blank_pipeline(language: str) -> Language:
    import spacy

    try:
        return spacy.blank(language)
    except (ImportError, KeyError, ValueError) as error:
        raise ValueError(
            f"spaCy has no tokenizer for language {language!r}; pass languages that spaCy "
            "supports (see https://spacy.io/usage/models#languages)."
        ) from error


@cache
def _tokenizer(language: str) -> Tokenizer:
    return blank_pipeline(language).tokenizer


@cache
def trained_pipeline(name: str) -> Language:
    import spacy

    try:
        return spacy.load(name, exclude=["ner", "parser", "senter", "textcat"])
    except OSError as error:
        raise ValueError(
            f"The spaCy pipeline {name!r} is not installed. Install it with "
            f"`pip install {name.replace('_', '-')}`, or leave it out to use the blank tokenizer."
        ) from error


def chunks(text: str, size: int = CHUNK_CHARS) -> Iterator[str]:
    """Cut ``text`` into pieces of about ``size`` characters, at white space where there is any."""
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            space = text.rfind(" ", start, end)
            end = space + 1 if space > start else end
        yield text[start:end]
        start = end


@cache
def _special_cases(tokenizer: str) -> frozenset[str]:
    """The pieces of letters (and one trailing mark) spaCy's ``tokenizer`` has an exception
    for ("cannot"), from :mod:`~rerank_plus.analysis.special_cases` when it holds the
    installed spaCy's, else from spaCy."""
    stored = stored_cases(tokenizer)
    if stored is not None:
        return stored
    return shortcut_cases(_tokenizer(tokenizer).rules or ())


def letters_only_tokens(piece: str, tokenizer: str) -> tuple[str, ...] | None:
    """The tokens of a piece of letters, with or without one trailing ``, ; : ! ? )``, without
    building a spaCy ``Doc`` (which adds the word to spaCy's vocabulary: most of the cost of a
    word never seen before); None for any other piece, and for spaCy's special cases. Every
    tokenizer of the registry gives the same tokens (tests/languages/test_tokenize.py)."""
    special = _special_cases(tokenizer)
    if piece in special:
        return None
    if piece.isalpha():
        return (piece,)
    word = piece[:-1]
    if piece[-1:] in TRAILING_PUNCTUATION and word.isalpha() and word not in special:
        return (word, piece[-1])
    return None


@lru_cache(maxsize=200_000)
def _cached_piece_tokens(piece: str, tokenizer: str) -> tuple[str, ...]:
    simple = letters_only_tokens(piece, tokenizer)
    if simple is not None:
        return simple
    return tuple(token.text for token in _tokenizer(tokenizer)(piece))


def piece_tokens(piece: str, tokenizer: str) -> tuple[str, ...]:
    """The tokens spaCy's ``tokenizer`` rules make of one whitespace-free piece of text."""
    if len(piece) <= LONGEST_CACHED_PIECE:
        return _cached_piece_tokens(piece, tokenizer)
    return tuple(token.text for token in _tokenizer(tokenizer)(piece))


def tagged_tokens(text: str, pipeline: str) -> list[tuple[str, str | None]]:
    """(word, lemma) pairs from a trained pipeline, without punctuation, symbols and spaces."""
    nlp = trained_pipeline(pipeline)
    return [
        (token.text, token.lemma_ or None)
        for doc in nlp.pipe(chunks(text))
        for token in doc
        if token.pos_ not in NON_CONTENT_POS
    ]
