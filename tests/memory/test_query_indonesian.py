"""Query analysis in Indonesian beyond its phrase table (phrases/indonesian.toml, which also
holds the words of other languages that the Indonesian cues must leave alone): scope words,
"siapa" (who) and "di mana" (where)."""

from __future__ import annotations

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import analyze_query

from tests.memory.query_moment import NOW, analyze


def test_scope_words_leave_the_keywords(analyzer: Analyzer) -> None:
    qa = analyze("Ringkas diskusi tentang anggaran", analyzer)
    assert (qa.language, qa.keywords) == ("id", ("anggar",))
    qa = analyze("Di mana anggaran dibahas dalam rapat?", analyzer)
    assert qa.keywords == ("anggaran",)


def test_who_is_needs_a_name(analyzer: Analyzer) -> None:
    for query, name in [("Siapa Budi?", "Budi"), ("Siapa itu Sarah?", "Sarah")]:
        qa = analyze(query, analyzer)
        assert (qa.intent, qa.entities) == ("entity", (name,)), qa.reason
    qa = analyze("Siapa yang bertanggung jawab?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason


def test_a_name_before_siapa_counts_when_known(analyzer: Analyzer) -> None:
    qa = analyze_query("Budi itu siapa?", NOW, analyzer=analyzer, known_entities=("Budi",))
    assert (qa.intent, qa.entities) == ("entity", ("Budi",)), qa.reason
    qa = analyze("Yang bertanggung jawab siapa?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason


def test_where_is_something_held_is_no_entity_question(analyzer: Analyzer) -> None:
    """ "di mana" asks about talk only with a verb of talking: "where was it held" is a
    detail."""
    qa = analyze("Di mana rapatnya diadakan?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason
