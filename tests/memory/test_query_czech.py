"""Query analysis in Czech beyond its phrase table (phrases/czech.toml, which also holds the
words of other languages that the Czech cues must leave alone): "who is" needs a name."""

from __future__ import annotations

from rerank_plus.analysis import Analyzer

from tests.memory.query_moment import analyze


def test_who_is_needs_a_name(analyzer: Analyzer) -> None:
    qa = analyze("Kdo je Petr Novák?", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("Petr Novák",)), qa.reason
    qa = analyze("Kdo je zodpovědný za rozpočet?", analyzer)
    assert (qa.intent, qa.keywords) == ("detail", ("zodpovědný", "rozpočet")), qa.reason
