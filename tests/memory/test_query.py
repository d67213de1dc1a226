# ruff: noqa: RUF001  (queries as users type them: typographic apostrophes included)
"""Query analysis (step 0 of the memory retriever): intents, windows, entities, bad input."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import INTENTS, TimeWindow, analyze_query

from tests.memory.query_moment import NOW, UTC, analyze, at

KNOWN = ("Marketing", "Project Manager", "Industrial Designer")


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
        ("from Monday to Wednesday", at(2024, 5, 6), at(2024, 5, 9)),
        # a clock range's end on its start's day, or the next when earlier
        ("from 9:00 to 11:00", at(2024, 5, 8, 9), at(2024, 5, 8, 11, 1)),
        ("between 10:00 and 11:30", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
        ("from 22:00 to 2:00", at(2024, 5, 7, 22), at(2024, 5, 8, 2, 1)),
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
        ("du lundi au mercredi", at(2024, 5, 6), at(2024, 5, 9)),
        ("entre 10h00 et 11h30", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
        # German, Spanish, Italian, Portuguese
        ("gestern", at(2024, 5, 7), at(2024, 5, 8)),
        ("letzte Woche", at(2024, 4, 29), at(2024, 5, 6)),
        ("vor 3 Tagen", at(2024, 5, 5), at(2024, 5, 6)),
        ("in den letzten 2 Stunden", at(2024, 5, 8, 7, 30), None),
        ("um 15 Uhr", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
        ("zwischen Montag und Mittwoch", at(2024, 5, 6), at(2024, 5, 9)),
        ("von 10:00 bis 11:30", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
        ("ayer", at(2024, 5, 7), at(2024, 5, 8)),
        ("la semana pasada", at(2024, 4, 29), at(2024, 5, 6)),
        ("hace 3 días", at(2024, 5, 5), at(2024, 5, 6)),
        ("a las 00:18", at(2024, 5, 8, 0, 18), at(2024, 5, 8, 0, 19)),
        ("de lunes a miércoles", at(2024, 5, 6), at(2024, 5, 9)),
        ("desde 10:00 hasta 11:30", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
        ("ieri", at(2024, 5, 7), at(2024, 5, 8)),
        ("la settimana scorsa", at(2024, 4, 29), at(2024, 5, 6)),
        ("3 giorni fa", at(2024, 5, 5), at(2024, 5, 6)),
        ("dal lunedì al mercoledì", at(2024, 5, 6), at(2024, 5, 9)),
        ("da marzo a maggio", at(2024, 3, 1), at(2024, 6, 1)),  # each month takes its word in
        ("ontem", at(2024, 5, 7), at(2024, 5, 8)),
        ("a semana passada", at(2024, 4, 29), at(2024, 5, 6)),
        ("há 3 dias", at(2024, 5, 5), at(2024, 5, 6)),
        ("de segunda-feira a quarta-feira", at(2024, 5, 6), at(2024, 5, 9)),
        ("entre 10:00 e 11:30", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
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
        at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31), "from 10:00 to 11:30"
    )
    window = analyze("the message of 2024-05-01T10:00+02:00", analyzer).window
    assert window is not None and window.start == at(2024, 5, 1, 8)


def test_the_window_says_what_it_contains(analyzer: Analyzer) -> None:
    window = analyze("yesterday", analyzer).window
    assert window is not None
    assert window.contains(at(2024, 5, 7, 23, 59))
    assert not window.contains(at(2024, 5, 8))
    assert TimeWindow(at(2024, 5, 7), None, "since yesterday").contains(at(2030, 1, 1))


def test_the_last_meeting_is_recent(analyzer: Analyzer) -> None:
    for query in ("Summarize the last meeting", "Résume la dernière réunion"):
        qa = analyze(query, analyzer)
        assert (qa.intent, qa.recency, qa.window) == ("recent", True, None), query


@pytest.mark.parametrize(
    ("query", "intent", "keywords"),
    [
        ("Was wurde letzte Woche über das Budget gesagt?", "detail", ("budget",)),
        ("Was gibt es Neues seit Montag?", "recent", ()),
        ("Was waren die wichtigsten Punkte?", "synthesis", ()),
        ("¿Qué se decidió sobre el presupuesto ayer?", "detail", ("presupuesto",)),
        ("¿Cuáles fueron los puntos principales de la reunión?", "synthesis", ()),
        ("Cosa abbiamo deciso ieri sera sul bilancio?", "detail", ("bilancio",)),
        ("O que foi discutido nas últimas 2 horas?", "recent", ()),
    ],
)
def test_german_spanish_italian_portuguese(
    query: str, intent: str, keywords: tuple[str, ...], analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert qa.intent == intent, qa.reason
    assert qa.keywords == keywords


def test_cues_do_not_depend_on_detection() -> None:
    """An analyzer that knows English and French only still reads German and Spanish cues."""
    narrow = Analyzer(languages=("en", "fr"))
    qa = analyze_query("seit gestern", NOW, analyzer=narrow)
    assert qa.intent == "recent" and qa.window is not None and qa.window.start == at(2024, 5, 7)
    assert analyze_query("Resume la reunión", NOW, analyzer=narrow).intent == "synthesis"


def test_a_clock_time_s_lead_word_says_the_language(analyzer: Analyzer) -> None:
    assert analyze("quelle commande à 00:18 ?", analyzer).language == "fr"
    assert analyze("um 15 Uhr", analyzer).language == "de"


@pytest.mark.parametrize(
    ("query", "intent", "entities"),
    [
        ("who is responsible for the budget?", "detail", ()),
        ("Where was the meeting held?", "detail", ()),
        ("Where is the budget mentioned?", "entity", ("budget",)),
        ("Wo wird das Budget erwähnt?", "entity", ("Budget",)),
        ("who is bob?", "entity", ("Bob",)),  # a known name, as the caller spells it
        ("Who is Will?", "entity", ("Will",)),  # a known name, though "will" is a stop word
        ("who will present?", "detail", ()),  # the stop word, not the name
        ("What did Will say?", "detail", ("Will",)),  # a name narrows: not a summary
    ],
)
def test_who_and_where_ask_for_an_entity_only_when_one_follows(
    query: str, intent: str, entities: tuple[str, ...], analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer, known_entities=("Bob", "Will"))
    assert (qa.intent, qa.entities) == (intent, entities), qa.reason


@pytest.mark.parametrize(
    ("query", "intent"),
    [
        ("tl;dr", "synthesis"),
        ("What were the action items?", "synthesis"),
        ("Quelles décisions ont été prises ?", "synthesis"),
        ("Liste les points clés de la réunion", "synthesis"),
        ("Zusammenfassung bitte", "synthesis"),
        ("What did I miss?", "recent"),
        ("Qu'est-ce que j'ai raté ?", "recent"),
        ("What did they listen to?", "detail"),
        ("what happened at 14:05?", "detail"),  # a moment: the lines said then
        ("Was haben wir gestern entschieden?", "synthesis"),  # a day: its summary
    ],
)
def test_chat_phrasings(query: str, intent: str, analyzer: Analyzer) -> None:
    assert analyze(query, analyzer).intent == intent


def test_the_longest_known_name_wins_and_thousands_of_names_are_fine(analyzer: Analyzer) -> None:
    many = tuple(f"Person {number}" for number in range(5000))
    names = (*many, "Project", "Project Manager", "Finch-Saunders")
    qa = analyze("What did the project manager tell Finch Saunders and person 4321?", analyzer,
                 known_entities=names)  # fmt: skip
    assert qa.entities == ("Project Manager", "Finch-Saunders", "Person 4321")


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("What did we decide in March?", at(2024, 3, 1), at(2024, 4, 1)),
        ("in June", at(2023, 6, 1), at(2023, 7, 1)),  # June 2024 is still to come
        ("since May", at(2024, 5, 1), None),
        ("on May 3rd", at(2024, 5, 3), at(2024, 5, 4)),
        ("the 3rd of May 2023", at(2023, 5, 3), at(2023, 5, 4)),
        ("May 3 at 10:15", at(2024, 5, 3, 10, 15), at(2024, 5, 3, 10, 16)),
        ("Feb 29", at(2024, 2, 29), at(2024, 3, 1)),
        ("le 3 mai", at(2024, 5, 3), at(2024, 5, 4)),
        ("en mars 2023", at(2023, 3, 1), at(2023, 4, 1)),
        ("seit dem 3. Mai", at(2024, 5, 3), None),
        ("am 3. Mai um 10:00", at(2024, 5, 3, 10), at(2024, 5, 3, 10, 1)),
        ("el 3 de mayo", at(2024, 5, 3), at(2024, 5, 4)),
        ("desde enero", at(2024, 1, 1), None),
        ("il 3 maggio", at(2024, 5, 3), at(2024, 5, 4)),
        ("3 de maio de 2023", at(2023, 5, 3), at(2023, 5, 4)),
    ],
)
def test_months_and_days_of_months(
    query: str, start: datetime, end: datetime | None, analyzer: Analyzer
) -> None:
    window = analyze(query, analyzer).window
    assert window is not None and (window.start, window.end) == (start, end)


@pytest.mark.parametrize("query", ["What may happen?", "Jan said hi", "February 30", "mars"])
def test_words_that_only_look_like_dates_give_no_window(query: str, analyzer: Analyzer) -> None:
    assert analyze(query, analyzer).window is None


def test_what_comes_next_is_a_detail_but_next_steps_are_a_synthesis(analyzer: Analyzer) -> None:
    assert analyze("What may happen next?", analyzer).intent == "detail"
    assert analyze("What will we discuss in the next meeting?", analyzer).intent == "detail"
    assert analyze("What are the next steps?", analyzer).intent == "synthesis"
    assert analyze("Quelles sont les prochaines étapes ?", analyzer).intent == "synthesis"


def test_spaced_cue_spellings(analyzer: Analyzer) -> None:
    for query in ("standup notes", "stand-up notes", "todo list", "to-do list", "to do list"):
        assert analyze(query, analyzer).intent == "synthesis", query
