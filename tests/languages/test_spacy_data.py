"""spaCy's stop-word lists read from their files equal what spaCy itself gives, for every
language, and reading them imports neither spaCy nor torch."""

from __future__ import annotations

import pytest
from rerank_plus.analysis.languages import profile, supported_languages
from rerank_plus.analysis.spacy_data import (
    has_spacy_language,
    has_stop_word_list,
    spacy_stop_words,
)
from spacy.util import get_lang_class

from tests.languages.fresh_interpreter import run_fresh


@pytest.mark.parametrize("code", supported_languages())
def test_stop_words_equal_spacys_own(code: str) -> None:
    if not has_spacy_language(code):
        assert not has_stop_word_list(code)
        assert not profile(code).stop_words
        return
    expected = frozenset(get_lang_class(code).Defaults.stop_words)
    assert profile(code).stop_words == bool(expected)
    if has_stop_word_list(code):
        assert spacy_stop_words(code) == expected
    else:  # a language package without a list: spaCy's empty default
        assert expected == frozenset()


def test_a_package_without_a_file_goes_through_spacy() -> None:
    # Norwegian Nynorsk has a language package but no stop_words.py: spaCy's answer, empty
    assert has_spacy_language("nn") and not has_stop_word_list("nn")
    assert spacy_stop_words("nn") == frozenset()
    assert not has_spacy_language("zz") and not has_stop_word_list("zz")


def test_common_lists_hold_their_function_words() -> None:
    assert {"the", "and", "of"} <= spacy_stop_words("en")
    assert {"und", "der", "die"} <= spacy_stop_words("de")
    assert {"και", "το"} <= spacy_stop_words("el")


def test_detecting_a_language_imports_neither_spacy_nor_torch() -> None:
    script = (
        "import json, sys\n"
        "from rerank_plus.analysis.function_words import FunctionWordCounts\n"
        "from rerank_plus.analysis.languages import LANGUAGE_SCRIPTS\n"
        "counts = FunctionWordCounts('the cat and the dog', tuple(LANGUAGE_SCRIPTS)).counts\n"
        "print(json.dumps([counts['en'], 'spacy' in sys.modules, 'torch' in sys.modules]))\n"
    )
    assert run_fresh(script) == [3, False, False]
