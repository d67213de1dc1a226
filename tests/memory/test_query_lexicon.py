"""The cue tables are data: each file follows the schema (a file that does not is refused with
its name and key), each entry compiles, folds as written, and folding keeps offsets."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rerank_plus.errors import RerankPlusError
from rerank_plus.memory.query.cues import words_pattern
from rerank_plus.memory.query.folding import fold
from rerank_plus.memory.query.lexicon import LEXICONS, Lexicon, LexiconFileError, load_lexicons
from rerank_plus.memory.query.lexicon.loader import PRECEDENCE, load_lexicon
from rerank_plus.memory.query.lexicon.schema import KEYS

#: The smallest file the schema takes: every required key, one entry where one is needed.
MINIMAL = r"""
[language]
code = "xx"

[fragments]
STEM = 'summar\w*'

[intent]
summary = ['{STEM}']
breadth = []
scope = ['meetings?']
future = []
recency = []
entity_leads = []
name_leads = []

[time]
since = ['since']
ago = ['<N> <UNIT> ago']
last_n = []
day_parts = [{ words = 'tonight', day = 0, part = 'evening' }]
part_joiner = ' '
weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
previous_weekday = []
previous_period = []
current_period = []
numbers = { one = 1, two = 2 }
units = { day = 'days?' }
days = { 0 = 'today', -1 = 'yesterday' }
parts = { morning = 'morning' }
periods = { week = 'week' }
"""


def written(folder: Path, text: str, name: str = "xx.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def edited(old: str, new: str) -> str:
    assert old in MINIMAL, old
    return MINIMAL.replace(old, new, 1)


def test_the_shipped_files_pass_every_check_and_keep_their_order() -> None:
    """LEXICONS skips compiling each fragment alone at import; here it is done, and the
    languages come in :data:`PRECEDENCE` order."""
    checked = load_lexicons(compile_check=True)
    assert checked == LEXICONS
    assert list(LEXICONS) == list(PRECEDENCE)


def test_every_field_of_a_lexicon_is_a_key_of_the_schema() -> None:
    assert set(KEYS) == {spec.name for spec in fields(Lexicon)}


def test_a_minimal_file_loads_with_its_fragments_written_in(tmp_path: Path) -> None:
    code, lexicon = load_lexicon(written(tmp_path, MINIMAL))
    assert code == "xx"
    assert lexicon.summary == (r"summar\w*",)
    assert dict(lexicon.days) == {0: "today", -1: "yesterday"}
    assert lexicon.day_parts == (("tonight", 0, "evening"),)
    assert lexicon.spaced is True and lexicon.months == ()


def test_a_fragment_may_be_written_in_pieces(tmp_path: Path) -> None:
    text = edited("scope = ['meetings?']", "scope = [['meet', 'ings?|call', 's?']]")
    assert load_lexicon(written(tmp_path, text))[1].scope == ("meetings?|calls?",)


def test_a_folder_lists_known_languages_first_then_by_file_name(tmp_path: Path) -> None:
    written(tmp_path, MINIMAL.replace('code = "xx"', 'code = "zz"'), "a.toml")
    written(tmp_path, MINIMAL, "b.toml")
    written(tmp_path, MINIMAL.replace('code = "xx"', 'code = "fr"'), "c.toml")
    assert list(load_lexicons(tmp_path)) == ["fr", "zz", "xx"]


#: (text replaced in :data:`MINIMAL`, its replacement, the start of the message after the
#: file's name).
BROKEN = [
    # an unknown key, table or fragment
    ("summary =", "summry =", "[intent] summry is not a key of [intent] (did you mean summary?)"),
    ("[intent]", "[intents]", "[intents] is not a table of a lexicon file (did you mean intent?)"),
    ("units =", "unit =", "[time] unit is not a key of [time] (did you mean units?); the keys"),
    ("{ day = 'days?' }", "{ days = 'days?' }", "[time] units.days is not one of minute, hour"),
    (
        "['{STEM}']",
        "['{STEMS}']",
        "[intent] summary[0] uses {STEMS}, which no fragment defines; define it under "
        "[fragments] (defined: STEM)",
    ),
    ("'summar\\w*'", "'summar{STEM}'", "[intent] summary[0] uses {STEM} inside itself"),
    # a missing key
    ("breadth = []\n", "", "[intent] breadth is missing; add it (breadth = [] if there is none)"),
    ('code = "xx"\n', "", "[language] code must be the language's ISO 639-1 code"),
    ("numbers = { one = 1, two = 2 }\n", "", "[time] numbers is missing; add it"),
    # a wrong type
    (
        "scope = ['meetings?']",
        "scope = 'meetings?'",
        "[intent] scope must be an array, got a string",
    ),
    ("-1 = 'yesterday'", "yesterday = 'yesterday'", "[time] days.yesterday is not a day offset"),
    ("day = 0,", "day = 'today',", "[time] day_parts[0].day must be a whole number of days"),
    ("two = 2", "two = 'two'", "[time] numbers.two must be a whole number, got 'two'"),
    ("scope = ['meetings?']", "scope = [3]", "[intent] scope[0] must be a string (a regular-exp"),
    ('code = "xx"', 'code = "xx"\nspaced = 0', "[language] spaced must be true or false, got an"),
    (
        'code = "xx"',
        'code = "xx"\nscript = ["Elvish"]',
        "[language] script[0] 'Elvish' is no script",
    ),
    ("'sat', 'sun'", "'sat'", "[time] weekdays must have 7 entries, Monday first; got 6"),
    # a fragment that does not compile
    (
        "scope = ['meetings?']",
        "scope = ['meetings?', '(?:call']",
        "[intent] scope[1] is not a valid regular expression (missing ), unterminated subpattern",
    ),
    ("'morning'", "'morn[ing'", "[time] parts.morning is not a valid regular expression"),
    # a fragment never used; numbers given twice or from an unknown table
    ("'summar\\w*'", "'summar\\w*'\nSPARE = 'x'", "[fragments] SPARE is never used"),
    (
        "numbers = { one = 1, two = 2 }",
        "numbers = { one = 1 }\nnumbers_from = 'han'",
        "[time] numbers_from and [time] numbers are both given; keep one",
    ),
    (
        "numbers = { one = 1, two = 2 }",
        "numbers_from = 'roman'",
        "[time] numbers_from must be one of han, got 'roman'",
    ),
    # not TOML
    ("summary = ['{STEM}']", "summary = ['{STEM}'", "not valid TOML ("),
]


@pytest.mark.parametrize(("old", "new", "message"), BROKEN)
def test_a_file_that_breaks_the_schema_names_itself_and_the_key(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    path = written(tmp_path, edited(old, new))
    with pytest.raises(LexiconFileError, match=re.escape(f"{path}: {message}")) as raised:
        load_lexicons(path)
    assert "\n" not in str(raised.value)
    assert isinstance(raised.value, RerankPlusError) and isinstance(raised.value, ValueError)


def test_a_pattern_is_compiled_at_load_unless_told_not_to(tmp_path: Path) -> None:
    path = written(tmp_path, edited("scope = ['meetings?']", "scope = ['(?:call']"))
    with pytest.raises(LexiconFileError, match="not a valid regular expression"):
        load_lexicon(path)
    assert load_lexicon(path, compile_check=False)[1].scope == ("(?:call",)


def test_two_files_of_one_language_and_missing_files_are_refused(tmp_path: Path) -> None:
    written(tmp_path, MINIMAL, "a.toml")
    written(tmp_path, MINIMAL, "b.toml")
    with pytest.raises(LexiconFileError, match=r"b\.toml: \[language\] code 'xx' is also the code"):
        load_lexicons(tmp_path)
    with pytest.raises(LexiconFileError, match=r"no such file; pass a lexicon file or a folder"):
        load_lexicons(tmp_path / "absent.toml")
    (tmp_path / "empty").mkdir()
    with pytest.raises(LexiconFileError, match=r"empty: no \.toml file in this folder"):
        load_lexicons(tmp_path / "empty")


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
