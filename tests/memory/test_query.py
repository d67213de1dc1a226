"""Query analysis (step 1 of the memory retriever): intents, windows, entities and bad input,
where a test shows a behaviour; the phrase tables of every language (question -> intent,
window, keywords ...) are data, phrases/<language>.toml, read by test_query_phrases.py."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import INTENTS, TimeWindow, analyze_query

from tests.memory.query_moment import NOW, UTC, analyze, at

KNOWN = ("Marketing", "Project Manager", "Industrial Designer")


# --- intents --------------------------------------------------------------------------------


def test_a_known_speaker_is_an_entity_of_a_detail_question(analyzer: Analyzer) -> None:
    qa = analyze("What did Marketing think of the remote?", analyzer, known_entities=KNOWN)
    assert qa.intent == "detail"
    assert qa.entities == ("Marketing",)
    assert qa.keywords == ("marketing", "think", "remote")


def test_every_intent_is_one_of_the_four(analyzer: Analyzer) -> None:
    queries = ["Summarize the meeting", "what's new", "who is Bob?", "What did Bob say?"]
    assert {analyze(q, analyzer).intent for q in queries} == set(INTENTS)


# --- time windows against a fixed now ---------------------------------------------------------


def test_a_precise_question_at_a_clock_time_is_detail_with_a_window(analyzer: Analyzer) -> None:
    qa = analyze("quelle commande à 00:18 ?", analyzer)
    assert qa.intent == "detail"
    assert qa.window == TimeWindow(
        at(2024, 5, 8, 0, 18), at(2024, 5, 8, 0, 19), "à 00:18", any_day=True
    )
    assert not qa.recency
    assert "commande" in qa.keywords


def test_the_window_keeps_now_s_time_zone(analyzer: Analyzer) -> None:
    paris = timezone(timedelta(hours=2))
    qa = analyze("yesterday", analyzer, now=datetime(2024, 5, 8, 0, 30, tzinfo=paris))
    assert qa.window is not None
    assert qa.window.start == datetime(2024, 5, 7, tzinfo=paris)
    assert qa.window.start.utcoffset() == timedelta(hours=2)


def test_a_naive_now_is_taken_as_utc(analyzer: Analyzer) -> None:
    qa = analyze("since yesterday", analyzer, now=datetime(2024, 5, 8, 9, 30))
    assert qa.window is not None and qa.window.start == at(2024, 5, 7)
    assert "naive now taken as UTC" in qa.reason


def test_without_now_the_current_utc_time_resolves_and_the_reason_says_so(
    analyzer: Analyzer,
) -> None:
    before = datetime.now(UTC)
    qa = analyze("since yesterday", analyzer, now=None)
    assert qa.window is not None and qa.window.start is not None
    assert qa.window.start.date() in {before.date() - timedelta(days=1), before.date()}
    assert "now not given: the current UTC time" in qa.reason


def test_window_words_are_not_keywords(analyzer: Analyzer) -> None:
    qa = analyze("What did Marketing say about the budget last week?", analyzer)
    assert qa.intent == "detail"
    assert qa.keywords == ("marketing", "budget")
    assert qa.window is not None and qa.window.expression == "last week"
    assert not qa.recency


def test_to_dict_is_json_ready(analyzer: Analyzer) -> None:
    import json

    qa = analyze("quoi de neuf depuis hier ?", analyzer)
    data = json.loads(json.dumps(qa.to_dict()))
    assert data["window"] == {
        "start": "2024-05-07T00:00:00+00:00",
        "end": None,
        "expression": "depuis hier",
        "explicit": True,
    }
    assert (data["intent"], data["recency"], data["language"]) == ("recent", True, "fr")


# --- entities -------------------------------------------------------------------------------


def test_known_entities_match_whole_words_case_and_accent_insensitively(
    analyzer: Analyzer,
) -> None:
    qa = analyze(
        "what did the project manager and ÉLODIE say about marketingplan?",
        analyzer,
        known_entities=(*KNOWN, "Élodie"),
    )
    assert qa.entities == ("Project Manager", "Élodie")


def test_capitalized_and_quoted_names_are_entities(analyzer: Analyzer) -> None:
    qa = analyze('What did Chrystia Freeland say about "summer jobs"?', analyzer)
    assert qa.entities == ("summer jobs", "Chrystia Freeland")


def test_words_without_content_are_never_names(analyzer: Analyzer) -> None:
    assert analyze("Summarize The Meeting", analyzer).entities == ()
    assert analyze("What did I say on Monday?", analyzer).entities == ()
    assert analyze("WHAT DID THEY DECIDE?", analyzer).entities == ()


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_an_empty_query_is_detail_with_nothing_in_it(query: str, analyzer: Analyzer) -> None:
    qa = analyze(query, analyzer)
    assert (qa.intent, qa.reason, qa.keywords, qa.entities, qa.window) == (
        "detail",
        "empty query",
        (),
        (),
        None,
    )


def test_an_emoji_only_query_is_detail_with_no_keywords(analyzer: Analyzer) -> None:
    qa = analyze("🙂🚀🙂", analyzer)
    assert (qa.intent, qa.keywords, qa.entities, qa.window) == ("detail", (), (), None)


@pytest.mark.parametrize("query", [None, 42, b"Summarize the meeting", ["Summarize"]])
def test_a_query_that_is_not_text_is_a_type_error(query, analyzer: Analyzer) -> None:
    with pytest.raises(TypeError, match=r"query must be a str, got .*; pass the question's text"):
        analyze_query(query, NOW, analyzer=analyzer)


def test_a_now_that_is_not_a_datetime_is_a_type_error(analyzer: Analyzer) -> None:
    with pytest.raises(TypeError, match=r"now must be a datetime, got str .*datetime\.now"):
        analyze_query("since yesterday", "2024-05-08", analyzer=analyzer)  # type: ignore[arg-type]


def test_known_entities_must_be_names(analyzer: Analyzer) -> None:
    with pytest.raises(TypeError, match=r"got one str; wrap it: known_entities=\('Bob',\)"):
        analyze_query("who is Bob?", NOW, known_entities="Bob", analyzer=analyzer)
    with pytest.raises(TypeError, match=r"known_entities\[1\] must be a str, got int 3"):
        analyze_query("who is Bob?", NOW, known_entities=("Bob", 3), analyzer=analyzer)  # type: ignore[arg-type]


def test_mixed_language_queries_still_find_their_cues(analyzer: Analyzer) -> None:
    assert analyze("Résume the meeting", analyzer).intent == "synthesis"
    qa = analyze("what's new depuis hier?", analyzer)
    assert qa.intent == "recent"
    assert qa.window is not None and qa.window.start == at(2024, 5, 7)
    qa = analyze("Summarize la discussion sur le budget", analyzer)
    assert qa.intent == "detail" and "budget" in qa.keywords


def test_a_huge_query_is_analyzed(analyzer: Analyzer) -> None:
    qa = analyze("What did the team say about the budget? " * 2000, analyzer)
    assert qa.intent == "detail" and "budget" in qa.keywords


# --- more windows and languages -------------------------------------------------------------


def test_calendar_windows_cross_month_and_year_ends(analyzer: Analyzer) -> None:
    new_year = at(2024, 1, 3, 8)
    assert analyze("last week", analyzer, now=new_year).window == TimeWindow(
        at(2023, 12, 25), at(2024, 1, 1), "last week"
    )
    assert analyze("last month", analyzer, now=new_year).window == TimeWindow(
        at(2023, 12, 1), at(2024, 1, 1), "last month"
    )
    end_of_march = at(2024, 3, 31, 9, 30)
    window = analyze("in the last month", analyzer, now=end_of_march).window
    assert window is not None and window.start == at(2024, 2, 29, 9, 30)  # clamped, leap year
    window = analyze("a month ago", analyzer, now=end_of_march).window
    assert window is not None and (window.start, window.end) == (at(2024, 2, 1), at(2024, 3, 1))


def test_clock_ranges_and_offsets(analyzer: Analyzer) -> None:
    qa = analyze("What was said from 10:00 to 11:30?", analyzer)
    assert qa.window == TimeWindow(
        at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31), "from 10:00 to 11:30", any_day=True
    )
    assert not analyze("yesterday at 10:00", analyzer).window.any_day
    window = analyze("the message of 2024-05-01T10:00+02:00", analyzer).window
    assert window is not None and window.start == at(2024, 5, 1, 8)


def test_the_window_says_what_it_contains(analyzer: Analyzer) -> None:
    window = analyze("yesterday", analyzer).window
    assert window is not None
    assert window.contains(at(2024, 5, 7, 23, 59))
    assert not window.contains(at(2024, 5, 8))
    assert TimeWindow(at(2024, 5, 7), None, "since yesterday").contains(at(2030, 1, 1))


def test_cues_do_not_depend_on_detection() -> None:
    """An analyzer that knows English and French only still reads German and Spanish cues."""
    narrow = Analyzer(languages=("en", "fr"))
    qa = analyze_query("seit gestern", NOW, analyzer=narrow)
    assert qa.intent == "recent" and qa.window is not None and qa.window.start == at(2024, 5, 7)
    assert analyze_query("Resume la reunión", NOW, analyzer=narrow).intent == "synthesis"


def test_a_clock_time_s_lead_word_says_the_language(analyzer: Analyzer) -> None:
    assert analyze("quelle commande à 00:18 ?", analyzer).language == "fr"
    assert analyze("um 15 Uhr", analyzer).language == "de"


def test_the_longest_known_name_wins_and_thousands_of_names_are_fine(analyzer: Analyzer) -> None:
    many = tuple(f"Person {number}" for number in range(5000))
    names = (*many, "Project", "Project Manager", "Finch-Saunders")
    qa = analyze("What did the project manager tell Finch Saunders and person 4321?", analyzer,
                 known_entities=names)  # fmt: skip
    assert qa.entities == ("Project Manager", "Finch-Saunders", "Person 4321")


def test_what_comes_next_is_a_detail_but_next_steps_are_a_synthesis(analyzer: Analyzer) -> None:
    assert analyze("What may happen next?", analyzer).intent == "detail"
    assert analyze("What will we discuss in the next meeting?", analyzer).intent == "detail"
    assert analyze("What are the next steps?", analyzer).intent == "synthesis"
    assert analyze("Quelles sont les prochaines étapes ?", analyzer).intent == "synthesis"
