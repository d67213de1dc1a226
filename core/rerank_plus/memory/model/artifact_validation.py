"""The JSON data of the artifacts file read back into a memory, validated
(:mod:`rerank_plus.memory.model.artifacts` documents the shape).

Errors name the place in the data (``levels[0][3].covers[1]``, item id included) and say how to
fix it; unknown keys are listed, not ignored, so a typo is not silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.model.artifact_shape import FORMAT, VERSION
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.times import parse_time

_TOP_KEYS = ("format", "version", "messages", "levels")
_ITEM_KEYS = (
    "id",
    "level",
    "index",
    "text",
    "covers",
    "time",
    "end_time",
    "speaker",
    "source",
    "tags",
    "entities",
    "signals",
    "extras",
    "embedding",
)


def _listed(keys: Sequence[str]) -> str:
    return ", ".join(repr(key) for key in keys)


def _frozen(value: Any) -> Any:
    """JSON data made immutable, as a frozen item holds it: lists as tuples, objects as
    read-only mappings."""
    if isinstance(value, list):
        return tuple(_frozen(entry) for entry in value)
    if isinstance(value, dict):
        return MappingProxyType({key: _frozen(entry) for key, entry in value.items()})
    return value


def _text(value: Any, where: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        wanted = "text or null" if optional else "text"
        raise MemoryFormatError(f"{where} must be {wanted}, got {value!r}.")
    return value


def _texts(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise MemoryFormatError(f"{where} must be a list of text, got {value!r}.")
    return tuple(_text(entry, f"{where}[{n}]") for n, entry in enumerate(value))


def _implied(value: Any, expected: int, where: str) -> None:
    """``level`` and ``index`` are implied by where an item sits; when given they must agree."""
    if isinstance(value, bool) or not isinstance(value, int) or value != expected:
        raise MemoryFormatError(
            f"{where} is {value!r}, but where the item sits makes it {expected}; leave it out "
            "or fix it (an item's list gives its level, its place in the list its index)."
        )


def _entities(value: Any, where: str) -> Mapping[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise MemoryFormatError(
            f'{where} must be an object of group -> list of names (e.g. {{"people": ["Ana"]}}),'
            f" got {value!r}."
        )
    return MappingProxyType(
        {group: _texts(names, f"{where}.{group}") for group, names in value.items()}
    )


def _data(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise MemoryFormatError(f"{where} must be an object, got {value!r}.")
    return _frozen(value)


def _embedding(value: Any, where: str) -> tuple[float, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise MemoryFormatError(f"{where} must be a list of numbers or null, got {value!r}.")
    vector = []
    for n, entry in enumerate(value):
        if isinstance(entry, bool) or not isinstance(entry, (int, float)):
            raise MemoryFormatError(f"{where}[{n}] must be a number, got {entry!r}.")
        vector.append(float(entry))
    return tuple(vector)


#: How each optional item field is read from JSON (``where`` names it in errors).
_READERS: dict[str, Callable[[Any, str], Any]] = {
    "covers": _texts,
    "time": parse_time,
    "end_time": parse_time,
    "speaker": lambda value, where: _text(value, where, optional=True),
    "source": lambda value, where: _text(value, where, optional=True),
    "tags": _texts,
    "entities": _entities,
    "signals": _data,
    "extras": _data,
    "embedding": _embedding,
}


def item_from_dict(data: Any, level: int, index: int, where: str) -> MemoryItem:
    """The item at ``level`` and ``index`` that the JSON object ``data`` describes, checked
    field by field (``where`` names it in errors)."""
    if not isinstance(data, dict):
        raise MemoryFormatError(
            f"{where} is {type(data).__name__}, not an object with at least id and text."
        )
    unknown = [key for key in data if key not in _ITEM_KEYS]
    if unknown:
        raise MemoryFormatError(
            f"{where} has unknown keys {_listed(unknown)}; an item's keys are "
            f"{_listed(_ITEM_KEYS)} (put other data under 'extras')."
        )
    for name in ("id", "text"):
        if name not in data:
            raise MemoryFormatError(f"{where} has no {name!r}; every item needs an id and a text.")
    item_id = _text(data["id"], f"{where}.id")
    if not item_id:
        raise MemoryFormatError(f"{where}.id is empty; every item needs its own non-empty id.")
    where = f"{where} (id {item_id!r})"
    if "level" in data:
        _implied(data["level"], level, f"{where}.level")
    if "index" in data:
        _implied(data["index"], index, f"{where}.index")
    fields = {
        name: reader(data[name], f"{where}.{name}")
        for name, reader in _READERS.items()
        if name in data
    }
    if level == 0 and fields.get("covers"):
        raise MemoryFormatError(
            f"{where}.covers: a message covers nothing; summaries go under 'levels'."
        )
    return MemoryItem(
        id=item_id, level=level, index=index, text=_text(data["text"], f"{where}.text"), **fields
    )


def _check_links(placed: list[tuple[MemoryItem, str]]) -> None:
    """Duplicate ids and covers that point nowhere or not strictly down, named by place (the
    memory checks them again, by id)."""
    first: dict[str, tuple[MemoryItem, str]] = {}
    for item, where in placed:
        if item.id in first:
            raise MemoryFormatError(
                f"{where}.id {item.id!r} is also the id of {first[item.id][1]}; every item needs "
                "its own id."
            )
        first[item.id] = (item, where)
    for item, where in placed:
        for n, covered in enumerate(item.covers):
            child = first.get(covered)
            if child is None:
                raise MemoryFormatError(
                    f"{where} (id {item.id!r}).covers[{n}]: no item has the id {covered!r}."
                )
            if child[0].level >= item.level:
                raise MemoryFormatError(
                    f"{where} (id {item.id!r}).covers[{n}]: {covered!r} is {child[1]}, at level "
                    f"{child[0].level}; a summary at level {item.level} covers lower levels only."
                )


def _check_header(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise MemoryFormatError(
            f'not a rerank-plus memory: expected an object with "format": "{FORMAT}", found '
            f"{found!r}. Build one with `rerank-plus memory build` or build_memory(...)."
        )
    version = data.get("version")
    if version != VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        hint = (
            "it was written by a newer rerank-plus; upgrade rerank-plus to read it"
            if newer
            else f'set "version": {VERSION}'
        )
        raise MemoryFormatError(
            f"memory format version {version!r} is not supported (this rerank-plus reads "
            f"version {VERSION}); {hint}."
        )
    unknown = [key for key in data if key not in _TOP_KEYS]
    if unknown:
        raise MemoryFormatError(
            f"unknown top-level keys {_listed(unknown)}; a memory file has {_listed(_TOP_KEYS)}."
        )


def memory_from_dict(data: Mapping[str, Any] | Any) -> Memory:
    """The memory described by ``data`` (what :func:`memory_to_dict` or ``json.load`` gives),
    validated, with errors that name the place in the data.

    >>> memory = memory_from_dict({"format": "rerank-plus-memory", "version": 1,
    ...     "messages": [{"id": "m0", "text": "Hi"}],
    ...     "levels": [[{"id": "s0", "text": "A greeting", "covers": ["m0"]}]]})
    >>> memory.children("s0")[0].text
    'Hi'
    """
    if isinstance(data, Mapping) and not isinstance(data, dict):
        data = dict(data)
    _check_header(data)
    messages = data.get("messages", [])
    levels = data.get("levels", [])
    if not isinstance(messages, list):
        raise MemoryFormatError(f"messages must be a list of items, got {type(messages).__name__}.")
    if not isinstance(levels, list) or not all(isinstance(row, list) for row in levels):
        raise MemoryFormatError(
            "levels must be a list of lists of items (levels[0] holds L1, levels[1] L2, ...)."
        )
    if not messages and not levels:
        return Memory()
    rows = [("messages", messages)] + [(f"levels[{k}]", row) for k, row in enumerate(levels)]
    placed: list[tuple[MemoryItem, str]] = []
    for level, (name, row) in enumerate(rows):
        if not row:
            raise MemoryFormatError(
                f"{name} is empty; every level below the top needs items (drop empty levels "
                "at the top, and give summaries something to cover)."
            )
        for index, entry in enumerate(row):
            where = f"{name}[{index}]"
            placed.append((item_from_dict(entry, level, index, where), where))
    _check_links(placed)
    return Memory(item for item, _ in placed)
