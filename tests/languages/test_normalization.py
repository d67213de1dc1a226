# ruff: noqa: RUF001  (text in many scripts is the point here)
"""Normalization that real text needs: each case joins two spellings of one word into one term
(and would fail without its rule)."""

from __future__ import annotations

import pytest
from rerank_plus import Analyzer
from rerank_plus.analysis.normalize import fold, normalize_text


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer(stopwords="none")


def terms(analyzer: Analyzer, text: str, language: str) -> tuple[str, ...]:
    return analyzer.analyze(text, language).terms


def test_full_width_latin_is_ordinary_latin(analyzer: Analyzer) -> None:
    assert terms(analyzer, "ＲＥＲＡＮＫ ２０２４", "und") == ("rerank", "2024")


def test_half_width_katakana_is_full_width_katakana() -> None:
    assert normalize_text("ｶﾀｶﾅ") == "カタカナ"


def test_turkish_capital_i_is_dotless(analyzer: Analyzer) -> None:
    assert terms(analyzer, "KIRMIZI", "tr") == terms(analyzer, "kırmızı", "tr")
    assert fold("KIRMIZI", "tr") == "kırmızı"
    assert fold("KIRMIZI", "en") == "kirmizi"


def test_turkish_and_azerbaijani_dotted_capital_i_is_i() -> None:
    assert fold("İZMİR", "tr") == "izmir"
    assert fold("İLHAM", "az") == "ilham"
    assert fold("İstanbul", "en") == "istanbul"  # no stray combining dot elsewhere either


def test_romanian_cedilla_and_comma_below_are_one_letter(analyzer: Analyzer) -> None:
    assert terms(analyzer, "Bucureşti ţară", "ro") == terms(analyzer, "București țară", "ro")


def test_german_sharp_s_matches_ss(analyzer: Analyzer) -> None:
    assert terms(analyzer, "STRASSE", "de") == terms(analyzer, "Straße", "de")


def test_greek_final_sigma_and_capitals_match(analyzer: Analyzer) -> None:
    assert fold("ΑΘΗΝΑΣ", "el") == fold("Αθήνας", "el") == "αθηνασ"


def test_greek_accents_do_not_split_a_word(analyzer: Analyzer) -> None:
    assert terms(analyzer, "ΠΡΩΤΕΥΟΥΣΑ", "el") == terms(analyzer, "πρωτεύουσα", "el")


def test_arabic_diacritics_are_removed(analyzer: Analyzer) -> None:
    assert terms(analyzer, "عَاصِمَةُ مِصْرَ", "ar") == terms(analyzer, "عاصمة مصر", "ar")


def test_arabic_tatweel_is_removed(analyzer: Analyzer) -> None:
    assert terms(analyzer, "عاصـــمة", "ar") == terms(analyzer, "عاصمة", "ar")
