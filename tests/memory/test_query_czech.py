"""Query analysis in Czech: the questions of test_query_languages.py as Czech users ask them,
and the words of other languages that the Czech cues must leave alone."""

from __future__ import annotations

import pytest
from rerank_plus.analysis import Analyzer

from tests.memory.asked_alike import AskedAlike, KeepsOtherLanguagesWords
from tests.memory.query_moment import analyze, at

#: A summary, the main points, what was said or decided.
GENERAL = [
    "Shrň schůzku.",
    "Shrň prosím celou schůzku.",
    "Jaká byla hlavní témata?",
    "O čem jsme mluvili na poradě?",
    "Jaká rozhodnutí byla přijata?",
    "Stručně shrň diskusi, prosím.",
    "Čeho se týkalo jednání?",
    "Udělej krátké shrnutí schůzky.",
    "Co jsme řešili na poradě?",
    "Můžeš mi dát přehled celého jednání?",
]

#: A topic named, even next to a summary cue: the topic stays, the scope words go.
SPECIFIC = [
    ("Shrň diskusi o rozpočtu", ("rozpočet",)),
    ("Jaké byly hlavní body týkající se rozpočtu?", ("rozpočet",)),
    ("Co řekl Petr o marketingové kampani?", ("petr", "marketingový", "kampaň")),
    ("Kolik stojí nový produkt?", ("stát", "produkt")),
    ("Kdy je termín odevzdání projektu?", ("termín", "odevzdání")),
]

WHATS_NEW = ["Co je nového?", "Co jsem zmeškal?", "Jaké jsou novinky?"]

#: "Where do we talk about the budget?", and the entity as the question writes it.
WHERE = [
    ("Kde jsme mluvili o rozpočtu?", "rozpočtu"),
    ("Kde se mluví o rozpočtu?", "rozpočtu"),
    ("Kde se probíral rozpočet?", "rozpočet"),
    ("Všechny zmínky o rozpočtu", "rozpočtu"),
]

#: Time expressions resolved against NOW (Wednesday 2024-05-08 09:30).
WINDOWS = [
    ("dnes", at(2024, 5, 8), at(2024, 5, 9)),
    ("včera", at(2024, 5, 7), at(2024, 5, 8)),
    ("předevčírem", at(2024, 5, 6), at(2024, 5, 7)),
    ("včera večer", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("dnes ráno", at(2024, 5, 8), at(2024, 5, 8, 12)),
    ("minulý týden", at(2024, 4, 29), at(2024, 5, 6)),
    ("minulý měsíc", at(2024, 4, 1), at(2024, 5, 1)),
    ("tento týden", at(2024, 5, 6), at(2024, 5, 13)),
    ("před 3 dny", at(2024, 5, 5), at(2024, 5, 6)),
    ("před třemi dny", at(2024, 5, 5), at(2024, 5, 6)),
    ("za poslední 2 hodiny", at(2024, 5, 8, 7, 30), None),
    ("během posledních 24 hodin", at(2024, 5, 7, 9, 30), None),
    ("za poslední den", at(2024, 5, 7, 9, 30), None),
    ("v 14:05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("v 15 hodin", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("ve 3 odpoledne", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("včera v 15:30", at(2024, 5, 7, 15, 30), at(2024, 5, 7, 15, 31)),
    ("v pondělí", at(2024, 5, 6), at(2024, 5, 7)),
    ("minulé pondělí", at(2024, 5, 6), at(2024, 5, 7)),
    ("od pondělí", at(2024, 5, 6), None),
    ("3. května", at(2024, 5, 3), at(2024, 5, 4)),
    ("v březnu", at(2024, 3, 1), at(2024, 4, 1)),
    ("v květnu 2023", at(2023, 5, 1), at(2023, 6, 1)),
    ("od pondělí do středy", at(2024, 5, 6), at(2024, 5, 9)),
    ("mezi pondělím a středou", at(2024, 5, 6), at(2024, 5, 9)),
    ("od ledna do března", at(2024, 1, 1), at(2024, 4, 1)),  # each month takes its word in
]

#: Typical questions that the language detection reads as Czech. Short ones may read as
#: Slovak ("Co je nového od včerejška?") or Slovene ("Kdo je Petr?"): the cues still apply.
DETECTED = [
    "Shrň prosím včerejší schůzku.",
    "O čem jsme mluvili na poradě?",
    "Jaká rozhodnutí byla přijata na schůzce?",
    "Co nového se stalo od včerejška?",
    "Kde jsme mluvili o rozpočtu?",
    "Co jsme probírali minulý týden na poradě?",
    "Můžeš mi stručně shrnout celou diskusi?",
]

#: Other languages' words that a Czech stem or form took: each keeps its keywords, and
#: "seit 2020 den" opens no window.
OTHERS = [
    # "rekl\w*" (said): German "Reklame"
    ("Wie teuer war die Reklame im Fernsehen?", ("teuer", "reklame", "fernsehen")),
    # "bod", "bodem" (point): Dutch bid, bottom
    ("Wat was het bod op het huis?", ("bod", "huis")),
    ("Hoe diep is de bodem van het meer?", ("diep", "bodem")),
    # "řeší" (deals with): Italian "resi"
    ("Quali dati sono stati resi pubblici?", ("dato", "rendere", "pubblico")),
    # "sumarizace": Portuguese "sumarização"
    ("O que é a sumarização de textos?", ("sumarização", "texto")),
    # "krátký" (short): Polish "kratka"; "porada" (meeting): Polish advice; "napiš": "napis"
    ("Gdzie jest kratka wentylacyjna?", ("kratka", "wentylacyjny")),
    ("Jaka była porada prawnika?", ("porada", "prawnik")),
    ("Co oznacza ten napis?", ("oznaczać", "napis")),
    # "den" (day) after a number: the German article, not "since 2020 days"
    ("Hat Bayern seit 2020 den Titel gewonnen?", ("bayern", "2020", "titel", "gewinnen")),
    # "jaké" (which) alone: English "Jake"
    ("What did Jake say about the budget?", ("jake", "budget")),
]


@pytest.mark.parametrize(("query", "keywords"), SPECIFIC)
def test_a_named_topic_makes_a_detail_question(
    query: str, keywords: tuple[str, ...], analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert (qa.intent, qa.keywords) == ("detail", keywords), qa.reason


def test_who_is_needs_a_name(analyzer: Analyzer) -> None:
    qa = analyze("Kdo je Petr Novák?", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("Petr Novák",)), qa.reason
    qa = analyze("Kdo je zodpovědný za rozpočet?", analyzer)
    assert (qa.intent, qa.keywords) == ("detail", ("zodpovědný", "rozpočet")), qa.reason


class TestCzech(AskedAlike, KeepsOtherLanguagesWords):
    language = "cs"
    general = GENERAL
    since_yesterday = ("Co nového se stalo od včerejška?",)
    whats_new = WHATS_NEW
    where = WHERE
    windows = WINDOWS
    detected = DETECTED
    others = OTHERS
