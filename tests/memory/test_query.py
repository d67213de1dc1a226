# ruff: noqa: RUF001  (queries as users type them: typographic apostrophes included)
"""Query analysis (step 0 of the memory retriever): intents, windows, entities, bad input."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import INTENTS, TimeWindow, analyze_query

UTC = timezone.utc
#: A Wednesday morning: every relative time below is resolved against it.
NOW = datetime(2024, 5, 8, 9, 30, tzinfo=UTC)
KNOWN = ("Marketing", "Project Manager", "Industrial Designer")


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def analyze(query: str, analyzer: Analyzer, now: datetime | None = NOW, **options):
    return analyze_query(query, now, analyzer=analyzer, **options)


# --- intents: the examples ----------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "Summarize the whole meeting.",
        "Summarize the meeting",
        "summarize the Meeting ",
        "What was the meeting about?",
        "What were the main topics?",
        "What was discussed in the meeting?",
        "What were the final decisions made by the team?",
        "What’s the summary of the meeting?",
        "Give me an overview.",
        "What's the big picture?",
        "Key points, please",
        "raconte les grandes étapes du projet",
        "Résume la réunion",
        "De quoi a-t-on parlé pendant la réunion ?",
        "Dans l'ensemble, qu'est-ce qui a été décidé ?",
        "Fasse die Besprechung zusammen",
        "Worum ging es in der Sitzung?",
        "Resume la reunión",
        "¿De qué se habló en la reunión?",
        "Riassumi la riunione",
        "Resuma a reunião",
    ],
)
def test_broad_questions_are_synthesis(query: str, analyzer: Analyzer) -> None:
    qa = analyze(query, analyzer)
    assert qa.intent == "synthesis", qa.reason
    assert qa.window is None and not qa.recency


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("Summarize the discussion about remote concepts", ("remote", "concept")),
        ("What did Marketing think of the remote?", ("marketing", "think", "remote")),
        ("Summarize what was said about digits form", ("digit", "form")),
        ("What was the budget discussion about?", ("budget",)),
        ("Résume la discussion sur le budget", ("budget",)),
        ("Fasse die Diskussion über das Budget zusammen", ("budget",)),
        ("Resume la discusión sobre el presupuesto", ("presupuesto",)),
    ],
)
def test_a_summary_narrowed_to_a_topic_is_detail(
    query: str, words: tuple[str, ...], analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert qa.intent == "detail", qa.reason
    assert set(words) <= set(qa.keywords)
    assert "content words" in qa.reason


def test_a_known_speaker_is_an_entity_of_a_detail_question(analyzer: Analyzer) -> None:
    qa = analyze("What did Marketing think of the remote?", analyzer, known_entities=KNOWN)
    assert qa.intent == "detail"
    assert qa.entities == ("Marketing",)
    assert qa.keywords == ("marketing", "think", "remote")


@pytest.mark.parametrize(
    "query",
    [
        "what's new",
        "What’s new?",
        "latest",
        "anything new recently?",
        "quoi de neuf ?",
        "dernièrement",
        "Was gibt's Neues?",
        "¿qué hay de nuevo?",
        "Cosa c'è di nuovo?",
        "O que há de novo?",
    ],
)
def test_implicit_recency_has_no_window(query: str, analyzer: Analyzer) -> None:
    qa = analyze(query, analyzer)
    assert (qa.intent, qa.window, qa.recency) == ("recent", None, True), qa.reason


@pytest.mark.parametrize(
    ("query", "language"),
    [
        ("quoi de neuf depuis hier ?", "fr"),
        ("since yesterday", "en"),
        ("What happened since yesterday?", "en"),
        ("seit gestern", "de"),
        ("desde ayer", "es"),
        ("da ieri", "it"),
        ("desde ontem", "pt"),
    ],
)
def test_since_yesterday_is_recent_with_an_open_window(
    query: str, language: str, analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert qa.intent == "recent" and qa.recency
    assert qa.window == TimeWindow(at(2024, 5, 7), None, qa.window.expression)
    assert qa.window.explicit
    assert qa.language == language


@pytest.mark.parametrize(
    ("query", "entity"),
    [
        ("where do we talk about the budget?", "budget"),
        ("Where did they discuss the new remote control in the meeting?", "new remote control"),
        ("mentions of Kubernetes", "Kubernetes"),
        ("everything about the LDA filters", "LDA filters"),
        ("Who is Sarah?", "Sarah"),
        ("où parle-t-on de la migration ?", "migration"),
        ("Où est-ce qu'on parle du budget ?", "budget"),
        ("wo reden wir über das Budget?", "Budget"),
        ("¿Dónde hablamos del presupuesto?", "presupuesto"),
        ("Dove parliamo della migrazione?", "migrazione"),
        ("Onde falamos sobre o orçamento?", "orçamento"),
    ],
)
def test_entity_questions_name_their_target(query: str, entity: str, analyzer: Analyzer) -> None:
    qa = analyze(query, analyzer)
    assert qa.intent == "entity", qa.reason
    assert qa.entities[0] == entity


def test_every_intent_is_one_of_the_four(analyzer: Analyzer) -> None:
    queries = ["Summarize the meeting", "what's new", "who is Bob?", "What did Bob say?"]
    assert {analyze(q, analyzer).intent for q in queries} == set(INTENTS)


# --- time windows against a fixed now ---------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("What did we decide yesterday?", at(2024, 5, 7), at(2024, 5, 8)),
        ("today", at(2024, 5, 8), at(2024, 5, 9)),
        ("this morning", at(2024, 5, 8), at(2024, 5, 8, 12)),
        ("yesterday evening", at(2024, 5, 7, 18), at(2024, 5, 8)),
        ("last night", at(2024, 5, 7, 18), at(2024, 5, 8, 6)),
        ("last week", at(2024, 4, 29), at(2024, 5, 6)),
        ("this week", at(2024, 5, 6), at(2024, 5, 13)),
        ("last month", at(2024, 4, 1), at(2024, 5, 1)),
        ("this year", at(2024, 1, 1), at(2025, 1, 1)),
        ("in the last 2 hours", at(2024, 5, 8, 7, 30), None),
        ("over the past week", at(2024, 5, 1, 9, 30), None),
        ("3 days ago", at(2024, 5, 5), at(2024, 5, 6)),
        ("two hours ago", at(2024, 5, 8, 7), at(2024, 5, 8, 8)),
        ("at 00:18", at(2024, 5, 8, 0, 18), at(2024, 5, 8, 0, 19)),
        ("at 10:15", at(2024, 5, 7, 10, 15), at(2024, 5, 7, 10, 16)),  # later than now: yesterday
        ("at 3pm", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
        ("yesterday at 00:18", at(2024, 5, 7, 0, 18), at(2024, 5, 7, 0, 19)),
        ("on 2024-05-01", at(2024, 5, 1), at(2024, 5, 2)),
        ("2024-05-01T14:05", at(2024, 5, 1, 14, 5), at(2024, 5, 1, 14, 6)),
        ("on Monday", at(2024, 5, 6), at(2024, 5, 7)),
        ("on Wednesday", at(2024, 5, 8), at(2024, 5, 9)),  # today
        ("last Wednesday", at(2024, 5, 1), at(2024, 5, 2)),
        ("since Monday", at(2024, 5, 6), None),
        ("between Monday and Tuesday", at(2024, 5, 6), at(2024, 5, 8)),
        # French
        ("depuis hier", at(2024, 5, 7), None),
        ("hier", at(2024, 5, 7), at(2024, 5, 8)),
        ("aujourd’hui", at(2024, 5, 8), at(2024, 5, 9)),
        ("ce matin", at(2024, 5, 8), at(2024, 5, 8, 12)),
        ("hier soir", at(2024, 5, 7, 18), at(2024, 5, 8)),
        ("la semaine dernière", at(2024, 4, 29), at(2024, 5, 6)),
        ("cette semaine", at(2024, 5, 6), at(2024, 5, 13)),
        ("le mois dernier", at(2024, 4, 1), at(2024, 5, 1)),
        ("il y a 3 jours", at(2024, 5, 5), at(2024, 5, 6)),
        ("au cours des deux dernières heures", at(2024, 5, 8, 7, 30), None),
        ("depuis 3 jours", at(2024, 5, 5, 9, 30), None),
        ("à 00h18", at(2024, 5, 8, 0, 18), at(2024, 5, 8, 0, 19)),
        ("à 15h", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
        ("lundi dernier", at(2024, 5, 6), at(2024, 5, 7)),
        # German, Spanish, Italian, Portuguese
        ("gestern", at(2024, 5, 7), at(2024, 5, 8)),
        ("letzte Woche", at(2024, 4, 29), at(2024, 5, 6)),
        ("vor 3 Tagen", at(2024, 5, 5), at(2024, 5, 6)),
        ("in den letzten 2 Stunden", at(2024, 5, 8, 7, 30), None),
        ("um 15 Uhr", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
        ("ayer", at(2024, 5, 7), at(2024, 5, 8)),
        ("la semana pasada", at(2024, 4, 29), at(2024, 5, 6)),
        ("hace 3 días", at(2024, 5, 5), at(2024, 5, 6)),
        ("a las 00:18", at(2024, 5, 8, 0, 18), at(2024, 5, 8, 0, 19)),
        ("ieri", at(2024, 5, 7), at(2024, 5, 8)),
        ("la settimana scorsa", at(2024, 4, 29), at(2024, 5, 6)),
        ("3 giorni fa", at(2024, 5, 5), at(2024, 5, 6)),
        ("ontem", at(2024, 5, 7), at(2024, 5, 8)),
        ("a semana passada", at(2024, 4, 29), at(2024, 5, 6)),
        ("há 3 dias", at(2024, 5, 5), at(2024, 5, 6)),
    ],
)
def test_windows_resolve_against_now(
    query: str, start: datetime, end: datetime | None, analyzer: Analyzer
) -> None:
    window = analyze(query, analyzer).window
    assert window is not None
    assert (window.start, window.end, window.explicit) == (start, end, True)


def test_a_precise_question_at_a_clock_time_is_detail_with_a_window(analyzer: Analyzer) -> None:
    qa = analyze("quelle commande à 00:18 ?", analyzer)
    assert qa.intent == "detail"
    assert qa.window == TimeWindow(at(2024, 5, 8, 0, 18), at(2024, 5, 8, 0, 19), "à 00:18")
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
