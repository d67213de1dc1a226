"""Relative times dated against a message's own time, read with the query grammar of every
language (the table: ``relative_times.toml``), words that only look like times left alone,
and the ``[annotation]`` lexicon table a query never reads."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query.lexicon import LEXICONS, LexiconFileError
from rerank_plus.memory.query.lexicon.loader import load_lexicon
from rerank_plus.memory.query.time_annotations import annotate, relative_times

from tests.memory.query_moment import NOW, analyze
from tests.memory.test_query_lexicon import MINIMAL, written

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TABLE = tomllib.loads((Path(__file__).parent / "relative_times.toml").read_text("utf-8"))
MOMENT = datetime.fromisoformat(TABLE.pop("moment"))
#: The share of the table's messages that must get exactly their notes (issue #48's target).
TARGET = 0.95


def labels(text: str, languages: tuple[str, ...] | None) -> list[str]:
    return [found.label for found in relative_times(text, MOMENT, languages)]


def test_the_table_covers_every_language_the_analysis_reads() -> None:
    assert set(TABLE) == set(LEXICONS)
    assert sum(len(table["dated"]) for table in TABLE.values()) >= 200


@pytest.mark.parametrize("read_in", ["its language", "every language"])
def test_the_table_s_relative_times_get_their_dates(read_in: str) -> None:
    cases = [(code, text, notes) for code, t in TABLE.items() for text, *notes in t["dated"]]
    wrong = []
    for code, text, notes in cases:
        found = labels(text, (code,) if read_in == "its language" else None)
        if found != notes:
            wrong.append((code, text, found, notes))
    assert 1 - len(wrong) / len(cases) >= TARGET, wrong
    print(f"{len(cases) - len(wrong)}/{len(cases)} dated right, read in {read_in}: {wrong}")


@pytest.mark.parametrize("read_in", ["its language", "every language"])
def test_words_that_only_look_like_times_get_no_note(read_in: str) -> None:
    noted = [
        (code, text, found)
        for code, table in TABLE.items()
        for text in table["undated"]
        if (found := labels(text, (code,) if read_in == "its language" else None))
    ]
    assert noted == []


def test_the_note_follows_the_word_and_the_message_s_own_day() -> None:
    paris = timezone(timedelta(hours=2))
    late = datetime(2023, 5, 8, 0, 30, tzinfo=paris)  # still the 7th in UTC
    assert annotate("Yesterday's talk, and tomorrow's.", late) == (
        "Yesterday's [2023-05-07] talk, and tomorrow's [2023-05-09]."
    )
    assert annotate("no time here", late) == "no time here"
    assert annotate("", late) == ""


def test_a_note_that_restates_the_message_s_own_day_can_be_left_out() -> None:
    """A quote's header gives its date: "today" and "this morning" need no note then."""
    text = "Today I slept, this morning I ran, tonight I read, yesterday I swam."
    assert labels(text, ("en",)) == ["2023-05-08"] * 3 + ["2023-05-07"]
    assert annotate(text, MOMENT, ("en",), own_day=False) == (
        "Today I slept, this morning I ran, tonight I read, yesterday [2023-05-07] I swam."
    )


def test_huge_and_mixed_language_messages_are_dated_in_order() -> None:
    text = "Hier on a parlé. Yesterday we talked. 昨天我们谈过。" * 200
    found = labels(text, None)
    assert found == ["2023-05-07"] * 600


def test_a_query_never_reads_the_annotation_table(analyzer: Analyzer) -> None:
    """'tomorrow' dates a message; as a question it names no window (nothing in a memory
    can be said tomorrow)."""
    assert analyze("what is planned for tomorrow?", analyzer).window is None
    assert analyze("what happens next week?", analyzer).window is None
    assert analyze("what happened last week?", analyzer).window is not None
    assert NOW.weekday() == 2  # the phrase files' Wednesday


def test_the_annotation_table_is_checked_like_the_others(tmp_path: Path) -> None:
    good = MINIMAL + (
        "\n[annotation]\nnext_period = ['next <PERIOD>']\ndays_ahead = { 1 = 'tomorrow' }\n"
    )
    _, lexicon = load_lexicon(written(tmp_path, good))
    assert lexicon.next_period == ("next <PERIOD>",) and lexicon.days_ahead == {1: "tomorrow"}
    bad = MINIMAL + "\n[annotation]\ndays_ahead = { -1 = 'yesterday' }\n"
    with pytest.raises(LexiconFileError, match=r"\[annotation\] days_ahead.-1 is not a day ahead"):
        load_lexicon(written(tmp_path, bad))
    typo = MINIMAL + "\n[annotation]\nnext_periods = []\n"
    with pytest.raises(LexiconFileError, match=r"did you mean next_period\?"):
        load_lexicon(written(tmp_path, typo))
