"""Chats as the evaluation reads them: dated messages to build a memory from, questions judged
by the messages that answer them, each in a category.

A chat file is JSON, one chat per file::

    {"name": "ana-ben",                                     (optional: the file's stem)
     "messages": [{"id": "m0", "speaker": "Ana", "time": "2024-03-04T19:02:00+01:00",
                   "text": "I started at the bakery today!"}, ...],
     "questions": [{"question": "When did Ana start at the bakery?", "answer_ids": ["m0"],
                    "category": "time", "answer": "4 March 2024"}, ...]}

``id``, ``time`` (ISO 8601; the offset is the speaker's, and a date is read in it) and ``text``
are required, ``speaker`` optional; messages are read in the file's order. A question names
the messages that answer it (``answer_ids``, at least one) and a ``category``; ``answer`` is for
people reading the results. LoCoMo's shape (Maharana et al., ACL 2024: ``conversation`` with
``session_N`` lists and ``session_N_date_time``, ``qa`` with ``evidence`` and a numbered
``category``) is read too, a list of such chats as one chat each (see :func:`parse_locomo`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rerank_plus.evaluation.memory.qmsum import Meeting, Query, Turn
from rerank_plus.memory.model.times import parse_time

#: LoCoMo's numbered categories (its 1,986 questions: 282, 321, 96, 841 and 446 of them).
LOCOMO_CATEGORIES = {1: "multi-hop", 2: "time", 3: "open-domain", 4: "single-hop"}
#: A LoCoMo session's time, "1:56 pm on 8 May, 2023".
_LOCOMO_TIME = re.compile(
    r"(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})", re.IGNORECASE
)
_LOCOMO_ID = re.compile(r"D\d+:\d+")


def is_chat_data(data: str | Path) -> bool:
    """Whether ``data`` is a chat file (or a folder of them): JSON with ``messages`` and
    ``questions``, or LoCoMo's ``conversation`` and ``qa``."""
    path = Path(data)
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    if not files or not files[0].is_file() or files[0].suffix != ".json":
        return False
    try:
        head = json.loads(files[0].read_text("utf-8"))
    except (OSError, ValueError):
        return False
    first = head[0] if isinstance(head, list) and head else head
    return isinstance(first, Mapping) and (
        {"messages", "questions"} <= first.keys() or {"conversation", "qa"} <= first.keys()
    )


def load_chats(data: str | Path, limit: int | None = None) -> list[Meeting]:
    """The chats of a file or of a folder's ``*.json`` files (by name), each as a
    :class:`Meeting` whose turns carry their times; ``limit`` keeps the first N chats."""
    path = Path(data)
    if not path.exists():
        raise FileNotFoundError(f"no chat file or folder at {path}; pass --data a chat file.")
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    chats: list[Meeting] = []
    for file in files:
        try:
            decoded = json.loads(file.read_text("utf-8"))
        except ValueError as error:
            raise ValueError(f"{file}: not JSON ({error}).") from None
        for position, chat in enumerate(decoded if isinstance(decoded, list) else [decoded]):
            name = file.stem if not isinstance(decoded, list) else f"{file.stem}-{position}"
            chats.append(parse_any(name, chat))
    return chats[:limit]


def parse_any(name: str, data: Any) -> Meeting:
    """One chat in either shape (see the module docstring)."""
    if isinstance(data, Mapping) and "conversation" in data:
        return parse_locomo(str(data.get("sample_id") or name), data)
    return parse_chat(name, data)


def parse_chat(name: str, data: Any) -> Meeting:
    """A chat in this project's shape (see the module docstring)."""
    if not isinstance(data, Mapping) or not {"messages", "questions"} <= data.keys():
        raise ValueError(
            f"{name}: not a chat; give an object with 'messages' (id, speaker, time, text) and "
            "'questions' (question, answer_ids, category)."
        )
    name = str(data.get("name") or name)
    turns: list[Turn] = []
    position: dict[str, int] = {}
    for n, message in enumerate(data["messages"]):
        where = f"{name} messages[{n}]"
        if not isinstance(message, Mapping) or not {"id", "time", "text"} <= message.keys():
            raise ValueError(f"{where}: a message needs 'id', 'time' and 'text'.")
        key = str(message["id"])
        if key in position:
            raise ValueError(f"{where}: the id {key!r} is used twice; ids must be unique.")
        position[key] = n
        moment = parse_time(message["time"], f"{where}.time")
        turns.append(Turn(n, str(message.get("speaker") or ""), str(message["text"]), moment))
    queries = []
    for n, question in enumerate(data["questions"]):
        where = f"{name} questions[{n}]"
        if not isinstance(question, Mapping) or not {"question", "answer_ids"} <= question.keys():
            raise ValueError(f"{where}: a question needs 'question' and 'answer_ids'.")
        ids = question["answer_ids"]
        if not isinstance(ids, list) or not ids:
            raise ValueError(f"{where}: 'answer_ids' must be a non-empty list of message ids.")
        missing = [str(i) for i in ids if str(i) not in position]
        if missing:
            raise ValueError(f"{where}: no message has the id(s) {', '.join(missing)}.")
        gold = tuple(sorted({position[str(i)] for i in ids}))
        queries.append(
            Query(
                name,
                n,
                "specific",
                str(question["question"]),
                str(question.get("answer", "")),
                gold,
                str(question.get("category") or "uncategorized"),
            )
        )
    return Meeting(name, tuple(turns), (), tuple(queries))


def locomo_time(text: str, where: str) -> datetime:
    """A LoCoMo session time ("1:56 pm on 8 May, 2023") as an aware datetime (UTC: LoCoMo
    gives no zone)."""
    found = _LOCOMO_TIME.search(text or "")
    if found is None:
        raise ValueError(f"{where}: {text!r} is not a time like '1:56 pm on 8 May, 2023'.")
    hour, minute, half, day, month, year = found.groups()
    moment = datetime.strptime(f"{day} {month[:3]} {year}", "%d %b %Y")
    hour_of_day = int(hour) % 12 + (12 if half.lower() == "pm" else 0)
    return moment.replace(hour=hour_of_day, minute=int(minute), tzinfo=UTC)


def parse_locomo(name: str, data: Mapping[str, Any]) -> Meeting:
    """A LoCoMo chat. Sessions in order; a message's time is its session's plus a minute per
    message before it in the session (LoCoMo dates sessions, not messages), a shared photo's
    caption follows its text. Categories by :data:`LOCOMO_CATEGORIES`; adversarial questions
    (category 5, about what the chat does not say) and questions whose evidence names no
    message are left out."""
    conversation = data["conversation"]
    sessions = sorted(
        (int(key.split("_")[1]), key)
        for key in conversation
        if re.fullmatch(r"session_\d+", key) and conversation[key]
    )
    turns: list[Turn] = []
    position: dict[str, int] = {}
    for _, key in sessions:
        start = locomo_time(conversation.get(f"{key}_date_time", ""), f"{name} {key}_date_time")
        for k, message in enumerate(conversation[key]):
            text = str(message.get("text") or "")
            if message.get("blip_caption"):
                text = f"{text} (shares a photo: {message['blip_caption']})".strip()
            position[str(message.get("dia_id"))] = len(turns)
            moment = start + timedelta(minutes=k)
            turns.append(Turn(len(turns), str(message.get("speaker") or ""), text, moment))
    queries = []
    for n, question in enumerate(data.get("qa", [])):
        category = LOCOMO_CATEGORIES.get(question.get("category"))
        evidence = " ".join(str(e) for e in question.get("evidence", []))
        gold = tuple(sorted({position[i] for i in _LOCOMO_ID.findall(evidence) if i in position}))
        if category is None or not gold:
            continue
        answer = str(question.get("answer", ""))
        queries.append(
            Query(name, n, "specific", str(question["question"]), answer, gold, category)
        )
    return Meeting(name, tuple(turns), (), tuple(queries))
