"""Pieces of letters are tokenized without spaCy: the shortcut must give spaCy's own tokens.

Checked on the tokenizers with the most affix rules of each script (loading all ~70 takes
minutes; the full sweep, every registry language with all its stop words, was run once when
the shortcut was written and agreed everywhere but on "." for the languages named in
``TRAILING_PUNCTUATION``'s comment)."""

from __future__ import annotations

import pytest
from rerank_plus.analysis.languages import profile
from rerank_plus.analysis.tokenize import (
    TRAILING_PUNCTUATION,
    _tokenizer,
    letters_only_tokens,
)

#: Words in several scripts, beside each language's own stop words.
WORDS = ["Abcdef", "Ελλάδα", "Москва", "İstanbul", "naïve", "Straße", "القاهرة", "ամբողջ"]


def sample_words(code: str) -> list[str]:
    if not profile(code).stop_words:
        return WORDS
    from spacy.util import get_lang_class

    return sorted(get_lang_class(code).Defaults.stop_words)[:40] + WORDS


#: Latin (English exceptions, French elisions, Catalan, Irish, Turkish, Yoruba), Cyrillic,
#: Greek, Armenian, Arabic script, Hebrew, Indic scripts, and the neutral tokenizer.
LANGUAGES = ["en", "fr", "ca", "ga", "tr", "yo", "ru", "sr", "el", "hy", "ar", "fa", "ur", "he"]
LANGUAGES += ["hi", "bn", "ta", "zh"]


@pytest.mark.parametrize("code", LANGUAGES)
def test_letters_only_shortcut_gives_spacys_tokens(code: str) -> None:
    tokenizer = profile(code).tokenizer
    checked = 0
    for word in sample_words(code):
        for piece in (word, word.capitalize(), *(word + mark for mark in TRAILING_PUNCTUATION)):
            shortcut = letters_only_tokens(piece, tokenizer)
            if shortcut is not None:
                checked += 1
                assert shortcut == tuple(t.text for t in _tokenizer(tokenizer)(piece)), piece
    assert checked >= len(WORDS)


def test_special_cases_and_other_pieces_go_to_spacy() -> None:
    assert letters_only_tokens("cannot", "en") is None  # spaCy: "can", "not"
    assert letters_only_tokens("l'homme", "fr") is None
    assert letters_only_tokens("attack.", "en") is None
    assert letters_only_tokens("wing,", "en") == ("wing", ",")
