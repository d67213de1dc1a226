"""Intent from any phrasing: the retriever reads the repository's intent set (natural questions
in eight languages, each asked of a small memory: ``tests/memory/intent_set/``) at 0.95 or
better, and the issue's broad questions as synthesis; the reader of the set refuses a broken
file with the place to fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from rerank_plus.evaluation.memory.intent_set import (
    IntentSetError,
    accuracy_rows,
    accuracy_table,
    read_intent_set,
    read_questions,
)

INTENT_SET = Path(__file__).parent / "intent_set"
TARGET = 0.95


@pytest.mark.slow
def test_the_retriever_reads_the_intent_set_at_the_target_or_better() -> None:
    memories, questions = read_intent_set(INTENT_SET)
    assert len(questions) >= 400
    assert len({question.language for question in questions}) >= 8
    readings = read_questions(memories, questions)
    print(accuracy_table(readings))  # the figures per language, intent and shape (pytest -s)
    (_, intents, shapes, total) = accuracy_rows(readings, "language")[-1]
    assert intents >= TARGET * total, accuracy_table(readings)
    assert shapes >= TARGET * total, accuracy_table(readings)


@pytest.mark.parametrize(
    "key",
    ["fr/chat", "en/chat", "de/chat"],
)
def test_the_issues_broad_questions_are_synthesis_asked_of_a_memory(key: str) -> None:
    """The phrasings the issue found read as detail ("so far" taken as the topic)."""
    memories, questions = read_intent_set(INTENT_SET)
    asked = {
        "fr/chat": "Peux-tu me faire un résumé de tout ce qui a été dit ?",
        "en/chat": "what's the big picture so far",
        "de/chat": "Worum ging es bisher?",
    }[key]
    (question,) = [q for q in questions if q.memory == key and q.text == asked]
    (reading,) = read_questions(memories, [question])
    assert (reading.intent, reading.shape) == ("synthesis", "plain"), reading.reason


def _written(folder: Path, text: str) -> Path:
    (folder / "xx.toml").write_text(text, encoding="utf-8")
    return folder


def test_a_message_without_its_three_parts_is_refused_with_the_form_to_write(
    tmp_path: Path,
) -> None:
    folder = _written(
        tmp_path,
        'language = "en"\n[memories.chat]\nnow = "2024-06-01 12:00"\n'
        'messages = ["2024-01-06 18:02 Ana Happy new year!"]\n',
    )
    with pytest.raises(IntentSetError, match=r"messages\[0\]: write 'YYYY-MM-DD HH:MM \| speaker"):
        read_intent_set(folder)


def test_a_group_asking_an_unknown_memory_is_refused(tmp_path: Path) -> None:
    folder = _written(
        tmp_path,
        'language = "en"\n[memories.chat]\nnow = "2024-06-01 12:00"\n'
        'messages = ["2024-01-06 18:02 | Ana | Hi"]\n'
        '[[groups]]\nmemory = "meeting"\nintent = "detail"\nquestions = ["Who?"]\n',
    )
    with pytest.raises(IntentSetError, match="memory 'meeting' is not one of the file's"):
        read_intent_set(folder)


def test_an_empty_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IntentSetError, match=r"no \.toml file"):
        read_intent_set(tmp_path)
