"""The "unified artifacts" file: a whole memory (messages and every summary level) as JSON.

One file carries what a retriever needs, so a memory built once (``rerank-plus memory build``)
is queried many times without rebuilding, and a memory made elsewhere (another builder, a hand
edit, a converter) is read through the same validation::

    {
      "format": "rerank-plus-memory",
      "version": 1,
      "messages": [                      # level 0, in order: messages[i] has index i
        {"id": "m0", "index": 0, "text": "Let's ship on Friday.",
         "time": "2024-05-01T09:30:00+02:00", "speaker": "Ana"},
        ...
      ],
      "levels": [                        # levels[0] is L1, levels[1] is L2, ...
        [{"id": "L1-0", "index": 0, "text": "Ana plans the release.",
          "covers": ["m0", "m1"], "time": "...", "end_time": "..."}, ...],
        ...
      ]
    }

An item is an object with the :class:`~rerank_plus.memory.model.items.MemoryItem` fields:
``id`` (required, unique in the file), ``text`` (required), ``index`` (its position in its
list; optional, checked when given), ``level`` (optional, checked when given: 0 for messages,
k for ``levels[k-1]``), ``covers`` (ids of lower-level items; never on a message), ``time`` and
``end_time`` (ISO 8601; a time without an offset is UTC; epoch seconds are read too),
``speaker``, ``source`` (text), ``tags`` (list of text), ``entities`` (object: group -> list of
names, the group ``"others"`` for untyped names), ``signals`` and ``extras`` (objects of any JSON
data) and ``embedding`` (list of numbers). Fields at their empty default are left out when
writing. Reading keeps what JSON can tell apart: times come back with a fixed UTC offset (the
same instant; a zone name is not kept), and JSON lists inside ``signals`` and ``extras`` come
back as tuples (items are frozen), so a memory whose data uses tuples round-trips exactly.

Errors name the place in the file (``levels[0][3].covers[1]``, item id included) and say how to
fix it; unknown keys are listed, not ignored, so a typo is not silently dropped.
"""

from __future__ import annotations

import gzip
import json
import math
import numbers
import os
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.times import parse_time

#: The value of the file's ``"format"`` key.
FORMAT = "rerank-plus-memory"
#: The format version this module writes and reads.
VERSION = 1

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


# --- writing -------------------------------------------------------------------------------


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


def _item_to_dict(item: MemoryItem, where: str, embeddings: bool) -> dict[str, Any]:
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
        _item_to_dict(item, f"messages[{n}]", embeddings) for n, item in enumerate(memory.messages)
    ]
    levels = [
        [
            _item_to_dict(item, f"levels[{level - 1}][{n}]", embeddings)
            for n, item in enumerate(memory.level(level))
        ]
        for level in range(1, memory.depth)
    ]
    return {"format": FORMAT, "version": VERSION, "messages": messages, "levels": levels}


# --- reading -------------------------------------------------------------------------------


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


def _item_from_dict(data: Any, level: int, index: int, where: str) -> MemoryItem:
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
            placed.append((_item_from_dict(entry, level, index, where), where))
    _check_links(placed)
    return Memory(item for item, _ in placed)


# --- files ---------------------------------------------------------------------------------


def _reader(path: Path) -> IO[str]:
    """A UTF-8 text handle, gzip-decompressed for ``.gz`` names."""
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open("r", encoding="utf-8")


def _writer(path: Path, *, compressed: bool) -> IO[str]:
    """A UTF-8 text handle, gzip-compressed on request (embeddings make files large) at zlib's
    default level 6: about half the time of gzip's 9 for 1% more bytes on a memory's JSON."""
    if compressed:
        return gzip.open(path, "wt", compresslevel=6, encoding="utf-8")
    return path.open("w", encoding="utf-8")


def save_memory(memory: Memory, path: str | os.PathLike[str], *, embeddings: bool = True) -> Path:
    """Write ``memory`` to ``path`` (``.json``, or ``.json.gz`` compressed); returns the path.

    The file is written beside the target and moved into place, so an interrupted save never
    leaves half a memory behind.
    """
    target = Path(path)
    data = memory_to_dict(memory, embeddings=embeddings)
    partial = target.with_name(f".{target.name}.partial")
    try:
        with _writer(partial, compressed=target.suffix == ".gz") as handle:
            # dumps, not dump: only the one-shot encoder is the C one (several times faster).
            handle.write(json.dumps(data, ensure_ascii=False, allow_nan=False))
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def load_memory(path: str | os.PathLike[str]) -> Memory:
    """Read a memory written by :func:`save_memory` (or by hand in the same format)."""
    source = Path(path)
    try:
        with _reader(source) as handle:
            data = json.load(handle)
    except json.JSONDecodeError as error:
        raise MemoryFormatError(
            f"{source}: not JSON ({error.msg} at line {error.lineno}, column {error.colno})."
        ) from error
    except (UnicodeDecodeError, gzip.BadGzipFile) as error:
        raise MemoryFormatError(f"{source}: not a UTF-8 JSON file ({error}).") from error
    try:
        return memory_from_dict(data)
    except MemoryFormatError as error:
        raise MemoryFormatError(f"{source}: {error}") from error
