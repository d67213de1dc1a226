"""Questions written by an LLM for a corpus without any, against a scripted
OpenAI-compatible server on loopback: generate, mine, train, evaluate, end to end."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from rerank_plus.cli import main
from rerank_plus.training import NoQuestionsError, QuestionBudget, generate_questions, read_data
from rerank_plus.training.synthetic import parse_questions

from tests.training.chat_server import QuestionServer
from tests.training.conftest import TOPICS, passage, write_jsonl


@pytest.fixture
def server() -> Iterator[QuestionServer]:
    with QuestionServer() as running:
        yield running


@pytest.fixture
def corpus_file(tmp_path: Path) -> Path:
    rng = random.Random(1)
    records = [{"_id": f"d-{t}", "text": passage(rng, t)} for t in TOPICS]
    return write_jsonl(tmp_path / "corpus.jsonl", records)


def chat(server: QuestionServer):
    from rerank_plus import OpenAICompatibleChat

    return OpenAICompatibleChat("scripted", base_url=server.base_url)


def test_questions_are_generated_within_the_budget_and_cached(
    server: QuestionServer, corpus_file: Path, tmp_path: Path
) -> None:
    corpus = read_data(corpus_file)
    budget = QuestionBudget(passages=10, per_passage=2, calls=6)
    cache = tmp_path / "questions.jsonl"
    data = generate_questions(corpus, chat(server), budget, cache=cache)
    assert len(server.requests) == 6
    assert len(data.examples) == 12
    assert data.skipped["passages over the call budget"] == 4
    example = data.examples[0]
    (positive,) = example.positives
    topic = example.query.split()[-1]
    assert topic in corpus.passages[positive].text
    again = generate_questions(corpus, chat(server), budget, cache=cache)
    assert len(server.requests) == 10  # six answers from the cache, four new calls
    assert len(again.examples) == 20
    assert "passages over the call budget" not in again.skipped


def test_an_llm_without_usable_questions(server: QuestionServer, corpus_file: Path) -> None:
    server.mode = "nothing"
    with pytest.raises(NoQuestionsError, match="no usable question for 3 passages"):
        generate_questions(read_data(corpus_file), chat(server), QuestionBudget(passages=3))


def test_parse_questions_drops_numbering_and_repeats() -> None:
    answer = "Here you go\n1) What is it made of?\n* What is it made of?\n- Why?\nQ3: Who built it"
    assert parse_questions(answer, 5) == ["Here you go", "What is it made of?", "Who built it"]


@pytest.mark.slow
def test_generate_mine_train_evaluate_from_the_command_line(
    server: QuestionServer,
    corpus_file: Path,
    tiny_encoder_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        [
            "finetune",
            "--data", str(corpus_file),
            "--base", str(tiny_encoder_path),
            "--output", str(tmp_path / "model"),
            "--max-steps", "4", "--batch-size", "8", "--max-length", "32",
            "--learning-rate", "1e-3", "--miner", "bm25", "--no-progress",
            "--llm-model", "scripted", "--llm-base-url", server.base_url,
            "--questions-passages", "16", "--questions-cache", str(tmp_path / "q.jsonl"),
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    assert "'source': 'generated'" in out and "| fine-tuned |" in out
    assert len(server.requests) == 16
    assert "generated" in (tmp_path / "model" / "README.md").read_text("utf-8")
