"""Query analysis in Vietnamese beyond its phrase table (phrases/vietnamese.toml, which also
holds the words of other languages that the Vietnamese cues, folded without their tones, must
leave alone): "là ai" (who is) and "từ" (since)."""

from __future__ import annotations

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import analyze_query

from tests.memory.query_moment import NOW, analyze, at


def test_who_is_needs_a_name(analyzer: Analyzer) -> None:
    qa = analyze("Ai là Sarah?", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("Sarah",)), qa.reason
    qa = analyze("Ai là người phụ trách?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason


def test_a_name_before_la_ai_counts_when_known_or_capitalized_inside(analyzer: Analyzer) -> None:
    """ "Sarah là ai?" names first, as Vietnamese usually does: the question's first word is
    capitalized anyway, so a name there counts when it is known."""
    qa = analyze_query("Sarah là ai?", NOW, analyzer=analyzer, known_entities=("Sarah",))
    assert (qa.intent, qa.entities) == ("entity", ("Sarah",)), qa.reason
    qa = analyze("Anh Tuấn là ai vậy?", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("Tuấn",)), qa.reason
    for query in ("Người phụ trách dự án là ai?", "Tuấn là ai trong nhóm?"):
        assert analyze(query, analyzer).intent == "detail", query


def test_since_is_vietnamese_only_inside_a_vietnamese_time(analyzer: Analyzer) -> None:
    """ "từ" folds to "tu": the Italian, French and Spanish "tu" before a day is no "since"."""
    for query in ("Che cosa hai detto tu ieri?", "¿Qué dijiste tú ayer?"):
        window = analyze(query, analyzer).window
        assert window is not None
        assert (window.start, window.end) == (at(2024, 5, 7), at(2024, 5, 8)), query
