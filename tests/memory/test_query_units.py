"""Units of time are no topic (``rerank_plus.memory.query.unit_words``): a question's
"week", "day" or "moment" leaves its keywords while another keyword remains, in the language
the question is read in, accents counted."""

from __future__ import annotations

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query.unit_words import without_time_units

from tests.memory.query_moment import analyze


@pytest.mark.parametrize(
    ("question", "unit"),
    [
        ("Which books did Paul finish over these weeks?", "week"),
        ("On which day does the choir rehearse now?", "day"),
        ("Which town is Ben living in at the moment?", "moment"),
        ("Welche Bücher hat Paul in diesen Wochen beendet?", "woche"),
        ("Dans quelle ville est-ce que Hugo vit en ce moment ?", "moment"),
    ],
)
def test_a_unit_of_time_is_no_keyword(question: str, unit: str, analyzer: Analyzer) -> None:
    qa = analyze(question, analyzer)
    assert qa.keywords, qa.reason
    assert all(unit not in keyword.casefold() for keyword in qa.keywords), qa.keywords


def test_a_unit_alone_stays_a_keyword() -> None:
    assert without_time_units(("week",), "en") == ("week",)
    assert without_time_units(("week", "budget"), "en") == ("budget",)


def test_a_name_that_folds_to_a_unit_stays() -> None:
    """Vietnamese "tuần" is a week; the name "Tuấn" differs by its accent."""
    assert without_time_units(("tuấn", "marketing"), "vi") == ("tuấn", "marketing")
    assert without_time_units(("tuần", "marketing"), "vi") == ("marketing",)


def test_a_language_without_a_lexicon_keeps_every_keyword() -> None:
    assert without_time_units(("week", "budget"), None) == ("week", "budget")
    assert without_time_units(("week", "budget"), "xx") == ("week", "budget")


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("Il y a du nouveau sur le projet ?", "recent"),  # news about the project
        ("Quelle est la date de lancement du nouveau site ?", "detail"),  # the adjective
        ("What's new with the launch?", "recent"),  # no list or time cue
        ("Which books has Ben read recently?", "detail"),  # a list asked of a period
    ],
)
def test_recency_and_a_particular_question(question: str, intent: str, analyzer) -> None:
    assert analyze(question, analyzer).intent == intent


@pytest.mark.parametrize(
    ("plural", "counted", "singular"),
    [
        ("Where did Ana travel in the last months?", "in the last 3 months", "in the last month"),
        (
            "Quels livres a-t-elle lus ces dernières semaines ?",
            "ces 3 dernières semaines",
            "cette dernière semaine",
        ),
        (
            "Wohin ist Lena in den letzten Monaten gereist?",
            "in den letzten drei Monaten",
            "im letzten Monat",
        ),
    ],
)
def test_a_plural_unit_without_a_count_reads_as_a_few(
    plural: str, counted: str, singular: str, analyzer: Analyzer
) -> None:
    """ "The last months" is a few months, as "the last 3 months"; "the last month" one."""
    few = analyze(plural, analyzer).window
    three = analyze(counted, analyzer).window
    one = analyze(singular, analyzer).window
    assert few is not None and three is not None and one is not None
    assert few.start == three.start
    assert one.start is not None and few.start is not None and few.start < one.start
