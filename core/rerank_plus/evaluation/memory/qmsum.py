"""QMSum meetings as the evaluation reads them: turns to build memories from, queries to judge.

One meeting per JSON file (Zhong et al., NAACL 2021): ``meeting_transcripts`` (speaker,
content; a turn's index is its position), ``topic_list`` (topic, ``relevant_text_span``),
``general_query_list`` (query, answer) and ``specific_query_list`` (query, answer,
``relevant_text_span``). Spans are ``[[first, last], ...]`` turn indices, inclusive, written
as strings. Only the turns go into a memory; topics, spans and answers are for the judges.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

QueryKind = Literal["general", "specific"]


@dataclass(frozen=True, slots=True)
class Turn:
    """One utterance of the transcript; ``index`` is its position in the meeting, ``time``
    when it was said (a chat's messages have one, QMSum's turns none)."""

    index: int
    speaker: str
    text: str
    time: datetime | None = None

    @property
    def line(self) -> str:
        """``"Speaker: text"``, after ``[2024-03-04 09:30]`` when the turn has a time: how flat
        baselines put a turn into a context (a chat log shows each message's time)."""
        said = f"{self.speaker}: {self.text}" if self.speaker else self.text
        return f"[{self.time:%Y-%m-%d %H:%M}] {said}" if self.time is not None else said


@dataclass(frozen=True, slots=True)
class Topic:
    name: str
    turns: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Query:
    """A question about one meeting with what judges it.

    ``kind`` is ``"general"`` (a broad question; judged against ``answer`` and the meeting's
    topics) or ``"specific"`` (judged by the ``gold_turns`` that answer it). ``category`` is a
    chat question's (``single-hop``, ``multi-hop``, ``time``, ``open-domain``, ...), which the
    report breaks the metrics down by; QMSum's have none.
    """

    meeting: str
    number: int
    kind: QueryKind
    text: str
    answer: str
    gold_turns: tuple[int, ...] = ()
    category: str = ""

    @property
    def id(self) -> str:
        return f"{self.meeting}/{self.kind}/{self.number}"


@dataclass(frozen=True, slots=True)
class Meeting:
    name: str
    turns: tuple[Turn, ...]
    topics: tuple[Topic, ...]
    queries: tuple[Query, ...]

    @property
    def asked_at(self) -> datetime | None:
        """When its questions are asked: at its latest turn's time (a chat's questions come
        after the conversation; "in the last months" reads back from there), None without
        times."""
        return max((turn.time for turn in self.turns if turn.time is not None), default=None)

    @property
    def transcript(self) -> str:
        """Every turn's line, one per line: the whole meeting as one text."""
        return "\n".join(turn.line for turn in self.turns)

    def messages(self) -> list[dict[str, str]]:
        """The turns as the memory builder's message mappings (id, speaker, text, and the
        time in ISO 8601 where a turn has one)."""
        messages = []
        for turn in self.turns:
            message = {"id": f"turn-{turn.index}", "speaker": turn.speaker, "text": turn.text}
            if turn.time is not None:
                message["time"] = turn.time.isoformat()
            messages.append(message)
        return messages


def span_turns(spans: Any, count: int, where: str) -> tuple[int, ...]:
    """Turn indices of inclusive ``[[first, last], ...]`` spans (strings or ints), in order,
    without repeats, clipped to the meeting's ``count`` turns."""
    if not isinstance(spans, list):
        raise ValueError(f"{where}: relevant_text_span must be a list of [first, last] pairs.")
    indices: dict[int, None] = {}
    for pair in spans:
        try:
            first, last = (int(value) for value in pair)
        except (TypeError, ValueError):
            raise ValueError(
                f"{where}: a span must be a [first, last] pair of turn indices, got {pair!r}."
            ) from None
        for index in range(max(first, 0), min(last, count - 1) + 1):
            indices[index] = None
    return tuple(sorted(indices))


def parse_meeting(name: str, data: Any) -> Meeting:
    """A meeting from one QMSum file's decoded JSON; ``name`` is the file's stem."""
    if not isinstance(data, dict) or "meeting_transcripts" not in data:
        raise ValueError(f"{name}: not a QMSum meeting (no 'meeting_transcripts').")
    turns = tuple(
        Turn(i, str(turn.get("speaker") or ""), str(turn.get("content") or ""))
        for i, turn in enumerate(data["meeting_transcripts"])
    )
    count = len(turns)
    topics = tuple(
        Topic(
            str(topic.get("topic", "")),
            span_turns(topic.get("relevant_text_span"), count, f"{name} topic_list[{i}]"),
        )
        for i, topic in enumerate(data.get("topic_list", []))
    )
    queries = [
        Query(name, i, "general", str(q["query"]), str(q.get("answer", "")))
        for i, q in enumerate(data.get("general_query_list", []))
    ]
    queries += [
        Query(
            name,
            i,
            "specific",
            str(q["query"]),
            str(q.get("answer", "")),
            span_turns(q.get("relevant_text_span"), count, f"{name} specific_query_list[{i}]"),
        )
        for i, q in enumerate(data.get("specific_query_list", []))
    ]
    return Meeting(name, turns, topics, tuple(queries))


def load_meetings(
    data: str | Path, split: str | None = "test", limit: int | None = None
) -> list[Meeting]:
    """Meetings of ``data/split`` (or of ``data`` itself when it holds the JSON files), by file
    name; ``limit`` keeps the first N."""
    folder = Path(data)
    if split and (folder / split).is_dir():
        folder = folder / split
    if not folder.is_dir():
        raise FileNotFoundError(
            f"no QMSum folder at {folder}; pass --data pointing at the folder that holds "
            "train/ and test/ (e.g. ../shared/eval/qmsum)."
        )
    files = sorted(folder.glob("*.json"))
    if not files:
        raise FileNotFoundError(f"no meeting files (*.json) in {folder}.")
    if limit is not None:
        files = files[:limit]
    return [parse_meeting(file.stem, json.loads(file.read_text("utf-8"))) for file in files]
