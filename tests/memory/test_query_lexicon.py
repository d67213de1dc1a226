"""The cue tables are data: each entry compiles, folds as written, and folding keeps offsets."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rerank_plus.memory.query.cues import words_pattern
from rerank_plus.memory.query.folding import fold
from rerank_plus.memory.query.lexicon import LEXICONS, Lexicon


def fragments(lexicon: Lexicon) -> list[str]:
    found: list[str] = []
    for spec in fields(lexicon):
        value = getattr(lexicon, spec.name)
        if isinstance(value, bool):  # how the language is written, not a fragment
            continue
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, tuple):
            found.extend(v if isinstance(v, str) else v[0] for v in value)
        else:
            found.extend(str(key) for key in value if isinstance(key, str))
            found.extend(v for v in value.values() if isinstance(v, str))
    return found


@pytest.mark.parametrize("language", sorted(LEXICONS))
def test_every_entry_compiles_and_survives_folding(language: str) -> None:
    for fragment in fragments(LEXICONS[language]):
        # Folding lowercases: an uppercase escape (\S, \W, \D) would change meaning, and a
        # hyphen between letters becomes a space, which would break a character range.
        assert not re.search(r"\\[A-Z]", fragment), fragment
        assert not re.search(r"\[[^\]]*\w-\w[^\]]*\]", fragment), fragment
        placeholders = re.sub(r"<(N|UNIT|PERIOD|WEEKDAY|DAY|MONTH|YEAR)>", "x", fragment)
        re.compile(words_pattern([placeholders]))


def test_every_lexicon_has_seven_weekdays_twelve_months_and_the_same_units() -> None:
    for lexicon in LEXICONS.values():
        assert len(lexicon.weekdays) == 7
        assert len(lexicon.months) == 12
        assert set(lexicon.units) == {"minute", "hour", "day", "week", "month", "year"}
        assert set(lexicon.periods) == {"week", "month", "year"}


@given(st.text())
def test_folding_keeps_the_length(text: str) -> None:
    assert len(fold(text)) == len(text)


def test_folding_unifies_case_accents_and_apostrophes() -> None:
    assert fold("AUJOURD\u2019HUI") == fold("aujourd'hui") == fold("Aujourd`hui") == "aujourd hui"
    assert fold("Résumé") == "resume"
    assert fold("2024-05-01") == "2024-05-01"


def test_folding_keeps_hangul_syllables_whole() -> None:
    # a syllable's first jamo alone would make 회의 (meeting) and 화요 (Tues-) one form
    assert fold("회의 내용을 요약해") == "회의 내용을 요약해"
    assert fold("회의") != fold("화요")
    assert fold("がガ") == "かカ"  # a voiced kana still folds to its plain form
