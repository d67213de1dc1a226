"""Query analysis in languages written without spaces: a known name inside a run of letters.
Each language's questions and what they must read as are in phrases/<language>.toml
(test_query_phrases.py), the earlier languages' included."""

from __future__ import annotations

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import analyze_query

from tests.memory.query_moment import NOW


def test_known_names_are_found_inside_a_run_of_letters(analyzer: Analyzer) -> None:
    """No word boundary falls inside "张伟和李娜讨论了预算": a known name is looked up at every
    character, the longest first ("李娜", not "李")."""
    names = ("张伟", "李娜", "李", "สมชาย")
    for query, found in [("张伟和李娜讨论了预算", ("张伟", "李娜")), ("สมชายพูดอะไร", ("สมชาย",))]:
        qa = analyze_query(query, NOW, analyzer=analyzer, known_entities=names)
        assert qa.entities == found
