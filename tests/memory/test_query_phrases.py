"""The phrase tables: what the query analysis must read in each language's questions, one data
file per language (``phrases/<language>.toml``), beside its lexicon.

A file holds ``language = "<code>"`` and groups of questions, each a table:

- ``about``: what the group shows;
- ``expect``: the checks every question of the group passes (a question may add its own);
- ``known_entities``: the names the caller knows, for every question (a question may give its
  own);
- ``queries``: questions with nothing of their own, and/or ``cases``: tables with a ``query``,
  checks and ``known_entities``.

The checks, each against :func:`analyze_query` at :data:`~tests.memory.query_moment.NOW`:
``intent``, ``language``, ``recency``, ``keywords`` and ``entities`` (exactly, in order),
``keywords_include`` (these among the keywords), ``first_entity``, ``topic`` (its terms, as
the query's language analyzes them, among the keywords), ``reason_has`` (a phrase of the
reason), ``window`` (``"none"``, or ``[start, end]`` in UTC, ``"open"`` for no end) and
``explicit`` (the window's).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import QueryAnalysis
from rerank_plus.memory.query.lexicon import LEXICONS

from tests.memory.query_moment import UTC, analyze

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PHRASES = Path(__file__).parent / "phrases"
_GROUP_KEYS = {"about", "expect", "known_entities", "queries", "cases"}
_INPUTS = {"query", "known_entities"}


def _window(qa: QueryAnalysis, expected: Any, analyzer: Analyzer) -> Any:
    if qa.window is None:
        return "none"
    return [moment and moment.isoformat() for moment in (qa.window.start, qa.window.end)]


def _topic(qa: QueryAnalysis, topic: str, analyzer: Analyzer) -> Any:
    terms = analyzer.analyze(topic, language=qa.language).terms
    return topic if set(terms) <= set(qa.keywords) else f"{terms} not all in {qa.keywords}"


#: Check -> what the analysis shows for it, given the expected value.
OBSERVED = {
    "intent": lambda qa, expected, analyzer: qa.intent,
    "language": lambda qa, expected, analyzer: qa.language,
    "recency": lambda qa, expected, analyzer: qa.recency,
    "keywords": lambda qa, expected, analyzer: list(qa.keywords),
    "entities": lambda qa, expected, analyzer: list(qa.entities),
    "keywords_include": lambda qa, expected, analyzer: [w for w in expected if w in qa.keywords],
    "first_entity": lambda qa, expected, analyzer: qa.entities[0] if qa.entities else None,
    "topic": _topic,
    "reason_has": lambda qa, expected, analyzer: expected if expected in qa.reason else qa.reason,
    "window": _window,
    "explicit": lambda qa, expected, analyzer: qa.window and qa.window.explicit,
}


def _moment(text: str) -> str | None:
    """ "2024-05-07" or "2024-05-07 10:15" (UTC) as isoformat; "open": no end."""
    return None if text == "open" else datetime.fromisoformat(text).replace(tzinfo=UTC).isoformat()


@dataclass(frozen=True)
class Phrase:
    """One question of a phrase file, the names the caller knows, and its checks."""

    query: str
    known_entities: tuple[str, ...]
    expect: dict[str, Any]
    language: str

    def wanted(self) -> dict[str, Any]:
        wanted = dict(self.expect)
        if isinstance(wanted.get("window"), list):
            wanted["window"] = [_moment(text) for text in wanted["window"]]
        return wanted


def read_phrases(path: Path) -> tuple[str, list[tuple[str, Phrase]]]:
    """A phrase file's language and its (id, phrase) pairs; a key the schema does not know is
    an error that names the file, the group and the key."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    language = data.pop("language")
    found = []
    for group, table in data.items():
        where = f"{path.name} [{group}]"
        if unknown := set(table) - _GROUP_KEYS:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)}; use {sorted(_GROUP_KEYS)}")
        cases = [{"query": query} for query in table.get("queries", [])] + table.get("cases", [])
        for i, case in enumerate(cases):
            own = {key: value for key, value in case.items() if key not in _INPUTS}
            expect = {**table.get("expect", {}), **own}
            if unknown := set(expect) - set(OBSERVED):
                raise ValueError(f"{where} {case['query']!r}: unknown checks {sorted(unknown)}")
            known = case.get("known_entities", table.get("known_entities", ()))
            phrase = Phrase(case["query"], tuple(known), expect, language)
            found.append((f"{path.stem}-{group}-{i}", phrase))
    return language, found


FILES = {path.stem: read_phrases(path) for path in sorted(PHRASES.glob("*.toml"))}
CASES = [case for _, cases in FILES.values() for case in cases]


def test_every_lexicon_has_a_phrase_file_and_every_phrase_file_a_lexicon() -> None:
    """Adding a language is its lexicon file and its phrase file."""
    assert sorted(language for language, _ in FILES.values()) == sorted(LEXICONS)


@pytest.mark.parametrize("phrase", [case for _, case in CASES], ids=[id_ for id_, _ in CASES])
def test_the_analysis_reads_each_phrase_as_its_table_says(
    phrase: Phrase, analyzer: Analyzer
) -> None:
    qa = analyze(phrase.query, analyzer, known_entities=phrase.known_entities)
    found = {key: OBSERVED[key](qa, value, analyzer) for key, value in phrase.expect.items()}
    assert found == phrase.wanted(), f"{phrase.query!r}: {qa.reason}"
