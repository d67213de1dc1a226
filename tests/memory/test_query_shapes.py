"""Question shapes in every language the analysis reads: each detail question of the table
(``shape_phrases.toml``) reads as its shape, and a question of another intent is ``plain``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import SHAPES
from rerank_plus.memory.query.lexicon import LEXICONS

from tests.memory.query_moment import analyze

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TABLE = tomllib.loads((Path(__file__).parent / "shape_phrases.toml").read_text(encoding="utf-8"))
CASES = [
    (language, shape, question)
    for language, shapes in TABLE.items()
    for shape, questions in shapes.items()
    for question in questions
]


def test_the_table_has_every_shape_in_every_language() -> None:
    assert sorted(TABLE) == sorted(LEXICONS)
    for language, shapes in TABLE.items():
        assert sorted(shapes) == sorted(SHAPES), language


@pytest.mark.parametrize(("language", "shape", "question"), CASES, ids=[c[2] for c in CASES])
def test_each_question_reads_as_its_shape(
    language: str, shape: str, question: str, analyzer: Analyzer
) -> None:
    qa = analyze(question, analyzer)
    assert (qa.intent, qa.shape) == ("detail", shape), f"{language} {question!r}: {qa.reason}"


@pytest.mark.parametrize(
    "question",
    [
        "Summarize the chat so far",  # synthesis
        "what's new?",  # recent
        "Where do we talk about the budget?",  # entity
        "Quels sont les points principaux ?",  # synthesis, with a list cue
    ],
)
def test_a_question_of_another_intent_is_plain(question: str, analyzer: Analyzer) -> None:
    qa = analyze(question, analyzer)
    assert qa.intent != "detail"
    assert qa.shape == "plain"
    assert qa.to_dict()["shape"] == "plain"


def test_a_shape_key_outside_its_table_is_refused_with_the_table_named(tmp_path: Path) -> None:
    """The ``[shape]`` table holds the shape cues; written under ``[intent]`` they are refused."""
    from rerank_plus.memory.query.lexicon import LexiconFileError
    from rerank_plus.memory.query.lexicon.loader import load_lexicon

    english = Path(__file__).parents[2] / "core/rerank_plus/memory/query/lexicon/data/english.toml"
    text = english.read_text(encoding="utf-8").replace(
        "[shape]\ntime_questions", "time_questions", 1
    )
    path = tmp_path / "en.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LexiconFileError, match=r"\[intent\] time_questions is not a key of"):
        load_lexicon(path)
