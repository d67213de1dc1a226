"""Message files as the memory commands read them: ``.jsonl`` (one message per line), a JSON
list, or a JSON object's ``messages`` (or QMSum ``meeting_transcripts``) list."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rerank_plus.memory.errors import MemoryFormatError

#: Where a JSON object keeps its messages: ours, then QMSum's transcript.
MESSAGE_KEYS = ("messages", "meeting_transcripts")


def _json_lines(path: Path) -> list[Any]:
    messages = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                messages.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise MemoryFormatError(
                    f"{path} line {number}: not JSON ({error.msg}); each line is one message, "
                    'a JSON text or an object like {"text": "...", "speaker": "Ana"}.'
                ) from error
    return messages


def read_messages(path: str | Path) -> list[Any]:
    """The messages of a ``.jsonl`` file, a JSON list, or a JSON object's ``messages`` (or
    QMSum ``meeting_transcripts``) list; errors name the file, the line and the fix."""
    source = Path(path)
    if source.suffix in (".jsonl", ".ndjson"):
        return _json_lines(source)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise MemoryFormatError(
            f"{source}: not JSON ({error.msg} at line {error.lineno}); give a JSON list of "
            "messages, or a .jsonl file with one message per line."
        ) from error
    if isinstance(data, dict):
        key = next((key for key in MESSAGE_KEYS if isinstance(data.get(key), list)), None)
        if key is None:
            raise MemoryFormatError(
                f"{source}: a JSON object needs a list of messages under "
                f"{' or '.join(map(repr, MESSAGE_KEYS))}; it has {', '.join(map(repr, data))}."
            )
        return list(data[key])
    if not isinstance(data, list):
        raise MemoryFormatError(
            f"{source}: expected a list of messages, got a JSON {type(data).__name__}."
        )
    return data
