"""Intent and shape accuracy on an intent set: natural questions, each labelled with the intent
and shape the retriever should read, and asked of a small memory, since whether a question is
broad depends on what the memory says (:mod:`rerank_plus.memory.query.specificity`).

An intent set is a folder of TOML files, one per language (the repository's:
``tests/memory/intent_set/``)::

    language = "en"

    [memories.chat]
    about = "what the memory is"
    now = "2024-06-01 12:00"          # when its questions are asked (UTC)
    messages = ["2024-01-06 18:02 | Ana | Happy new year!", ...]   # time | speaker | text

    [[groups]]
    memory = "chat"                    # which memory of the file its questions are asked of
    intent = "synthesis"
    shape = "plain"                    # optional; "plain" when left out
    questions = ["Can you give me a summary of everything so far?", ...]

Each memory is built without an embedding model and each question goes through
:meth:`MemoryRetriever.retrieve <rerank_plus.memory.MemoryRetriever.retrieve>`: the intent and
shape judged are the ones the retriever reads, with the memory's names and word counts.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from rerank_plus.errors import RerankPlusError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


class IntentSetError(RerankPlusError, ValueError):
    """An intent-set file that breaks its format; the message names the file and the place."""


@dataclass(frozen=True, slots=True)
class LabelledQuestion:
    """One question of the set, the memory it is asked of (``"<language>/<name>"``), and the
    intent and shape it should be read as."""

    language: str
    memory: str
    text: str
    intent: str
    shape: str


@dataclass(frozen=True, slots=True)
class DevMemory:
    """A memory of the set: its messages (builder mappings) and the moment it is asked at."""

    messages: tuple[dict[str, str], ...]
    now: datetime


@dataclass(frozen=True, slots=True)
class Reading:
    """How the retriever read one question."""

    question: LabelledQuestion
    intent: str
    shape: str
    reason: str

    @property
    def intent_correct(self) -> bool:
        return self.intent == self.question.intent

    @property
    def shape_correct(self) -> bool:
        return self.shape == self.question.shape


def read_intent_set(
    folder: str | Path,
) -> tuple[dict[str, DevMemory], list[LabelledQuestion]]:
    """The memories (by ``"<language>/<name>"``) and the questions of every ``*.toml`` file in
    ``folder``."""
    paths = sorted(Path(folder).glob("*.toml"))
    if not paths:
        raise IntentSetError(f"{folder}: no .toml file; an intent set is one file per language")
    memories: dict[str, DevMemory] = {}
    questions: list[LabelledQuestion] = []
    for path in paths:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        language = data.get("language")
        if not isinstance(language, str):
            raise IntentSetError(f'{path.name}: language must be its code, e.g. language = "en"')
        for name, memory in data.get("memories", {}).items():
            where = f"{path.name} [memories.{name}]"
            memories[f"{language}/{name}"] = DevMemory(
                tuple(
                    _message(line, f"{where} messages[{i}]")
                    for i, line in enumerate(memory["messages"])
                ),
                _moment(memory["now"], f"{where} now"),
            )
        for i, group in enumerate(data.get("groups", [])):
            key = f"{language}/{group.get('memory')}"
            if key not in memories:
                raise IntentSetError(
                    f"{path.name} groups[{i}]: memory {group.get('memory')!r} is not one of the "
                    f"file's [memories.NAME] tables; name one of them"
                )
            shape = group.get("shape", "plain")
            questions += [
                LabelledQuestion(language, key, text, group["intent"], shape)
                for text in group["questions"]
            ]
    return memories, questions


def _moment(text: str, where: str) -> datetime:
    try:
        return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)
    except ValueError:
        raise IntentSetError(f"{where}: {text!r} is no time; write '2024-06-01 12:00'") from None


def _message(line: str, where: str) -> dict[str, str]:
    parts = [part.strip() for part in line.split("|", 2)]
    if len(parts) != 3:
        raise IntentSetError(f"{where}: write 'YYYY-MM-DD HH:MM | speaker | text', got {line!r}")
    time, speaker, text = parts
    return {"time": _moment(time, where).isoformat(), "speaker": speaker, "text": text}


def read_questions(
    memories: dict[str, DevMemory], questions: Iterable[LabelledQuestion]
) -> list[Reading]:
    """Each question asked of its memory through the retriever (no embedding model), and what
    the retriever read: its intent, its shape and the rule's reason."""
    from rerank_plus.memory import MemoryRetriever, build_memory

    retrievers: dict[str, Any] = {}
    readings = []
    for question in questions:
        memory = memories[question.memory]
        if question.memory not in retrievers:
            retrievers[question.memory] = MemoryRetriever(build_memory(list(memory.messages)))
        context = retrievers[question.memory].retrieve(question.text, 300, now=memory.now)
        step = next(step for step in context.trace.steps if step["step"] == "query")
        readings.append(Reading(question, context.intent, step["shape"], step["reason"]))
    return readings


def accuracy_rows(readings: Sequence[Reading], by: str) -> list[tuple[str, int, int, int]]:
    """``(value, intents read right, shapes read right, questions)`` per value of ``by``
    ("language", "intent", "shape"), then ``("all", ...)``."""
    groups: dict[str, list[Reading]] = {}
    for reading in readings:
        groups.setdefault(getattr(reading.question, by), []).append(reading)
    rows = [*sorted(groups.items()), ("all", list(readings))]
    return [
        (
            value,
            sum(r.intent_correct for r in found),
            sum(r.shape_correct for r in found),
            len(found),
        )
        for value, found in rows
    ]


def accuracy_table(readings: Sequence[Reading]) -> str:
    """Markdown tables of the intent and shape accuracy per language, per intent and per
    shape (the labelled ones)."""
    lines = []
    for by in ("language", "intent", "shape"):
        lines += [f"| {by} | questions | intent | shape |", "|---|---:|---:|---:|"]
        lines += [
            f"| {value} | {total} | {intents / total:.3f} | {shapes / total:.3f} |"
            for value, intents, shapes, total in accuracy_rows(readings, by)
        ]
        lines.append("")
    return "\n".join(lines)
