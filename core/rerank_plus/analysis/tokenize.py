"""Tokenization with spaCy: blank per-language tokenizers, or a trained pipeline when asked for.

``spacy.blank(lang)`` needs no model download and still splits French elisions ("l'homme") and
hyphenated clitics correctly. A trained pipeline adds part-of-speech tags (to drop punctuation
and symbols by tag, and to lemmatize by part of speech: "je cours" -> "courir").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

#: Parts of speech that never carry content.
NON_CONTENT_POS = frozenset({"PUNCT", "SYM", "SPACE"})
#: Texts are tokenized in pieces of at most this many characters, cut at white space, so a
#: 1 MB document neither hits spaCy's max_length nor builds one huge Doc.
CHUNK_CHARS = 100_000


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


def tokenize(text: str, language: str, pipeline: str | None = None) -> list[tuple[str, str | None]]:
    """Split ``text`` into (word, lemma) pairs; the lemma is None without a trained pipeline.

    With a trained pipeline, tokens tagged as punctuation, symbol or space are dropped here;
    with a blank tokenizer every token is returned, and :func:`is_content_shape` decides later
    (per distinct word, cached).
    """
    if pipeline is None:
        tokenizer = blank_pipeline(language).tokenizer
        return [(token.text, None) for piece in chunks(text) for token in tokenizer(piece)]
    nlp = trained_pipeline(pipeline)
    return [
        (token.text, token.lemma_ or None)
        for doc in nlp.pipe(chunks(text))
        for token in doc
        if token.pos_ not in NON_CONTENT_POS
    ]
