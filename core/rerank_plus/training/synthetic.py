"""Questions for a corpus without any, written by the user's LLM (any :class:`ChatModel`,
e.g. :class:`OpenAICompatibleChat`), within a budget, cached on disk.

Each sampled passage gets one call asking for ``per_passage`` questions it answers, one per
line; the passage is the questions' positive. Answers are cached in a JSONL file keyed by the
model and the prompt, so a rerun (or a larger budget) only pays for passages not asked yet.
Lines that are not questions (too short, numbering only, repeats) are dropped; when no passage
yields a question, :class:`NoQuestionsError` says so.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rerank_plus.training.errors import NoQuestionsError
from rerank_plus.training.examples import Example, TrainingData

SYSTEM = (
    "You write search queries for a retrieval benchmark. Answer with the queries only, one "
    "per line, no numbering, no other text."
)
USER = (
    "Write {count} different questions that the passage below answers, as a user who has "
    "not seen it would ask them, in the passage's language.\n\nPassage:\n{passage}"
)
#: Fewest words a question keeps; retries of a rate-limited call.
MIN_WORDS = 3
RETRIES = 3
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)]|Q\d*[:.])\s*")


@dataclass(frozen=True, slots=True)
class QuestionBudget:
    """At most ``passages`` passages are asked (a seeded sample), ``per_passage`` questions
    each, and at most ``calls`` new calls are made (cached answers are free)."""

    passages: int = 200
    per_passage: int = 2
    calls: int = 200
    max_tokens: int = 200


def parse_questions(text: str, limit: int) -> list[str]:
    """Up to ``limit`` distinct questions from the model's answer, one per line.

    >>> parse_questions("1. Who wrote it?\\n2. Who wrote it?\\n- When was it built?", 5)
    ['Who wrote it?', 'When was it built?']
    """
    out: list[str] = []
    for line in text.splitlines():
        question = _BULLET.sub("", line).strip().strip('"').strip()
        if len(question.split()) >= MIN_WORDS and question not in out:
            out.append(question)
    return out[:limit]


class _Cache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.answers: dict[str, str] = {}
        if path is not None and path.is_file():
            for line in path.read_text("utf-8").splitlines():
                if line.strip():
                    record = json.loads(line)
                    self.answers[record["key"]] = record["answer"]

    def put(self, key: str, answer: str) -> None:
        self.answers[key] = answer
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps({"key": key, "answer": answer}) + "\n")


def _complete(chat: Any, prompt: Any, max_tokens: int) -> str:
    from rerank_plus.scoring.llm.errors import RetryableLLMError

    for attempt in range(RETRIES + 1):
        try:
            return str(chat.complete(prompt, max_tokens=max_tokens).text)
        except RetryableLLMError as error:
            if attempt == RETRIES:
                raise
            time.sleep(min(error.retry_after or 2.0**attempt, 30.0))
    raise AssertionError("unreachable")


def generate_questions(
    corpus: TrainingData,
    chat: Any,
    budget: QuestionBudget | None = None,
    *,
    cache: str | Path | None = None,
    seed: int = 0,
) -> TrainingData:
    """``corpus`` with one example per generated question (its passage the positive)."""
    from rerank_plus.scoring.llm.protocol import Prompt

    budget = budget or QuestionBudget()
    ids = sorted(corpus.passages)
    random.Random(seed).shuffle(ids)
    answers = _Cache(Path(cache) if cache else None)
    examples: list[Example] = []
    calls = empty = unasked = 0
    for pid in ids[: budget.passages]:
        user = USER.format(count=budget.per_passage, passage=corpus.passages[pid].text)
        key = hashlib.sha256(f"{chat.model_name}\n{SYSTEM}\n{user}".encode()).hexdigest()
        if key not in answers.answers:
            if calls >= budget.calls:
                unasked += 1
                continue
            calls += 1
            answers.put(key, _complete(chat, Prompt(SYSTEM, user), budget.max_tokens))
        questions = parse_questions(answers.answers[key], budget.per_passage)
        empty += not questions
        for number, question in enumerate(questions):
            group = corpus.passages[pid].group
            examples.append(Example(f"{pid}#q{number}", question, (pid,), group=group))
    if not examples:
        asked = min(len(ids), budget.passages)
        raise NoQuestionsError(
            f"The LLM {chat.model_name!r} returned no usable question for {asked} "
            "passages (each line should be one question of 3 words or more); check the "
            "model and base URL, or try a larger instruction-tuned model."
        )
    skipped = {
        "passages without a usable question": empty,
        "passages over the call budget": unasked,
    }
    return TrainingData(
        "generated",
        corpus.passages,
        tuple(examples),
        {k: v for k, v in skipped.items() if v} | {"LLM calls": calls},
    )
