"""spaCy's tokenizer exceptions kept in a file equal spaCy's own for every tokenizer of the
registry; tokenizing pieces of letters with them imports neither spaCy nor torch; with another
spaCy installed the file is not used."""

from __future__ import annotations

import json

import pytest
import spacy
from rerank_plus.analysis import special_cases
from rerank_plus.analysis.languages import profile, supported_languages
from rerank_plus.analysis.special_cases import installed_spacy, shortcut_cases, stored_cases

from tests.languages.fresh_interpreter import run_fresh

TOKENIZERS = sorted({profile(code).tokenizer for code in supported_languages()})
REWRITE = 'python -c "from rerank_plus.analysis.special_cases import write_stored; write_stored()"'


def test_the_file_was_made_from_the_installed_spacy() -> None:
    made_from = json.loads(special_cases.STORED.read_text(encoding="utf-8"))["spacy"]
    assert made_from == installed_spacy() == spacy.__version__, (
        f"the file was made from spaCy {made_from}, {spacy.__version__} is installed: {REWRITE}"
    )


@pytest.mark.parametrize("tokenizer", TOKENIZERS)
def test_the_stored_cases_are_spacys_own(tokenizer: str) -> None:
    expected = shortcut_cases(spacy.blank(tokenizer).tokenizer.rules or ())
    assert stored_cases(tokenizer) == expected, REWRITE


def test_the_shortcut_cases_are_letters_with_at_most_one_trailing_mark() -> None:
    rules = ["cannot", "don't", "z.B.", "etc.", "Mr.", "wanna,", "A", "xD"]
    assert shortcut_cases(rules) == {"cannot", "wanna,", "A", "xD"}
    assert "cannot" in stored_cases("en") and "gonna" in stored_cases("en")


def test_letter_pieces_are_tokenized_without_importing_spacy_or_torch() -> None:
    script = (
        "import json, sys\n"
        "from rerank_plus.analysis.tokenize import piece_tokens\n"
        "found = [piece_tokens(p, t) for p, t in (('cannot', 'en'), ('budget?', 'en'), "
        "('Haus,', 'de'), ('Grad', 'xx'))]\n"
        "print(json.dumps([found, 'spacy' in sys.modules, 'torch' in sys.modules]))\n"
    )
    found, spacy_loaded, _ = run_fresh(script)
    assert found == [["can", "not"], ["budget", "?"], ["Haus", ","], ["Grad"]]
    assert spacy_loaded  # "cannot" is an exception: spaCy cut it
    assert run_fresh(script.replace("('cannot', 'en'), ", ""))[1:] == [False, False]


def test_another_spacy_version_reads_spacy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(special_cases, "installed_spacy", lambda: "0.0.1")
    special_cases._stored.cache_clear()
    try:
        assert stored_cases("en") is None
    finally:
        monkeypatch.undo()
        special_cases._stored.cache_clear()
    assert stored_cases("en") is not None
