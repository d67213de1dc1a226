"""A memory as the JSON data of the artifacts file (:mod:`rerank_plus.memory.model.artifacts`
documents the shape): what :func:`memory_to_dict` writes, every field at its empty default left
out, and the format's name and version that a reader checks first."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory

#: The value of the file's ``"format"`` key.
FORMAT = "rerank-plus-memory"
#: The format version this module writes and reads.
VERSION = 1


def _json_data(value: Any, where: str) -> Any:
    """``value`` as JSON data (tuples as lists), or an error naming where it sits."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        if not math.isfinite(number):
            raise MemoryFormatError(f"{where}: {number} cannot be stored in JSON; use None.")
        return number
    if isinstance(value, (list, tuple)):
        return [_json_data(entry, f"{where}[{n}]") for n, entry in enumerate(value)]
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, entry in value.items():
            if not isinstance(key, str):
                raise MemoryFormatError(
                    f"{where}: key {key!r} is {type(key).__name__}; JSON keys are text."
                )
            out[key] = _json_data(entry, f"{where}.{key}")
        return out
    raise MemoryFormatError(
        f"{where}: a {type(value).__name__} cannot be stored in JSON; keep text, numbers, "
        "booleans, None, lists and mappings with text keys there."
    )


def _json_vector(values: Any, where: str) -> list[float]:
    """An embedding as plain floats: one pass, no per-number type dispatch (they are long)."""
    vector = [float(value) for value in values]
    if not all(map(math.isfinite, vector)):
        position = next(n for n, value in enumerate(vector) if not math.isfinite(value))
        raise MemoryFormatError(
            f"{where}[{position}]: {vector[position]} cannot be stored in JSON."
        )
    return vector


def item_to_dict(item: MemoryItem, where: str, embeddings: bool) -> dict[str, Any]:
    """One item as the file's JSON object (``where`` names it in errors); its level is where
    the object sits, so it is not written."""
    data: dict[str, Any] = {"id": item.id, "index": item.index, "text": item.text}
    if item.covers:
        data["covers"] = list(item.covers)
    for name in ("time", "end_time"):
        moment: datetime | None = getattr(item, name)
        if moment is not None:
            data[name] = moment.isoformat()
    for name in ("speaker", "source"):
        if getattr(item, name) is not None:
            data[name] = getattr(item, name)
    if item.tags:
        data["tags"] = list(item.tags)
    for name in ("entities", "signals", "extras"):
        if getattr(item, name):
            data[name] = _json_data(getattr(item, name), f"{where}.{name}")
    if embeddings and item.embedding is not None:
        data["embedding"] = _json_vector(item.embedding, f"{where}.embedding")
    return data


def memory_to_dict(memory: Memory, *, embeddings: bool = True) -> dict[str, Any]:
    """The memory as the documented JSON data (see the module docstring).

    ``embeddings=False`` leaves the vectors out (a file several times smaller; a retriever
    with an embedder re-embeds what it needs).

    >>> from rerank_plus.memory import Memory, MemoryItem
    >>> memory_to_dict(Memory([MemoryItem("m0", 0, 0, "Hi")]))
    {'format': 'rerank-plus-memory', 'version': 1, 'messages': [{'id': 'm0', 'index': 0, \
'text': 'Hi'}], 'levels': []}
    """
    messages = [
        item_to_dict(item, f"messages[{n}]", embeddings) for n, item in enumerate(memory.messages)
    ]
    levels = [
        [
            item_to_dict(item, f"levels[{level - 1}][{n}]", embeddings)
            for n, item in enumerate(memory.level(level))
        ]
        for level in range(1, memory.depth)
    ]
    return {"format": FORMAT, "version": VERSION, "messages": messages, "levels": levels}
