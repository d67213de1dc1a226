"""Plain message lists -> level-0 memory items, with errors that name ``messages[i].field``.

A message is a str (its text) or a mapping with ``text`` (or ``content``, the chat-API name),
and optionally ``speaker`` (or ``role``), ``time`` (ISO 8601 text, a datetime, a date or epoch
seconds; naive times are UTC), ``tags`` (a str or a list of str), ``entities`` (a mapping from a
group to names, or a list of names, which go to the ``others`` group), ``source`` and ``id``
(generated as ``m{index}`` when absent). Other keys are kept in the item's ``extras``, so no
metadata is lost; a key that is a misspelling of one of those (``speakr``) is refused, naming
the key it resembles, since its value would otherwise be lost to the field silently. A level-0
:class:`MemoryItem` is taken as it is, re-indexed.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.model.items import OTHER_ENTITIES, MemoryItem
from rerank_plus.memory.model.times import parse_time

#: The keys a message mapping may use for its fields; anything else goes to ``extras``.
_TEXT_KEYS = ("text", "content")
_SPEAKER_KEYS = ("speaker", "role")
_KNOWN_KEYS = frozenset({*_TEXT_KEYS, *_SPEAKER_KEYS, "time", "tags", "entities", "source", "id"})


def _check_misspellings(extras: Mapping[str, Any], where: str) -> None:
    for key in extras:
        if not isinstance(key, str):
            continue
        close = difflib.get_close_matches(key.casefold(), _KNOWN_KEYS, n=1, cutoff=0.75)
        if close and key.casefold() not in _KNOWN_KEYS:
            raise MemoryFormatError(
                f"{where} has the key {key!r}: did you mean {close[0]!r}? Rename it (keys that "
                "name no field are kept as extras, so a misspelt field would be lost)."
            )
        if key.casefold() in _KNOWN_KEYS:
            raise MemoryFormatError(
                f"{where} has the key {key!r}: write it {key.casefold()!r} (keys are lowercase)."
            )


def _text(message: Mapping[str, Any], where: str) -> str:
    for key in _TEXT_KEYS:
        if key in message:
            value = message[key]
            if not isinstance(value, str):
                raise MemoryFormatError(
                    f"{where}.{key} must be a str, got {type(value).__name__}; convert it "
                    f"first (e.g. str(value)) or drop the message."
                )
            return value
    raise MemoryFormatError(
        f"{where} has no 'text' (or 'content') key; give each message its text, e.g. "
        "{'text': 'Hello', 'speaker': 'Ann'}."
    )


def _optional_str(message: Mapping[str, Any], keys: tuple[str, ...], where: str) -> str | None:
    for key in keys:
        value = message.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise MemoryFormatError(
                f"{where}.{key} must be a str or None, got {type(value).__name__}."
            )
        return value or None
    return None


def _names(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,) if value else ()
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        names = tuple(value)
        for position, name in enumerate(names):
            if not isinstance(name, str):
                raise MemoryFormatError(
                    f"{where}[{position}] must be a str, got {type(name).__name__}."
                )
        return tuple(dict.fromkeys(name for name in names if name))
    raise MemoryFormatError(f"{where} must be a str or a list of str, got {type(value).__name__}.")


def _entities(value: Any, where: str) -> Mapping[str, tuple[str, ...]]:
    if value is None:
        return MappingProxyType({})
    if isinstance(value, Mapping):
        groups: dict[str, tuple[str, ...]] = {}
        for group, names in value.items():
            if not isinstance(group, str) or not group:
                raise MemoryFormatError(f"{where} has the group {group!r}; groups are str.")
            found = _names(names, f"{where}[{group!r}]")
            if found:
                groups[group] = found
        return MappingProxyType(groups)
    names = _names(value, where)
    return MappingProxyType({OTHER_ENTITIES: names} if names else {})


def _identifier(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value:
        return value
    raise MemoryFormatError(f"{where}.id must be a non-empty str (or an int), got {value!r}.")


def message_to_item(message: Any, index: int, where: str | None = None) -> MemoryItem:
    """One message as the level-0 item at ``index``; ``where`` names it in errors
    (``messages[index]`` by default)."""
    where = where or f"messages[{index}]"
    if isinstance(message, MemoryItem):
        if message.level != 0:
            raise MemoryFormatError(
                f"{where} is a level-{message.level} MemoryItem; only raw messages (level 0) "
                "can be added, summaries are built from them."
            )
        return _reindexed(message, index)
    if isinstance(message, str):
        return MemoryItem(id=f"m{index}", level=0, index=index, text=message)
    if not isinstance(message, Mapping):
        raise MemoryFormatError(
            f"{where} is a {type(message).__name__}; give a str or a mapping with 'text' "
            "(and optionally speaker, time, tags, entities, id)."
        )
    tags = message.get("tags")
    extras = {key: value for key, value in message.items() if key not in _KNOWN_KEYS}
    _check_misspellings(extras, where)
    return MemoryItem(
        id=_identifier(message.get("id"), where) or f"m{index}",
        level=0,
        index=index,
        text=_text(message, where),
        time=parse_time(message.get("time"), f"{where}.time"),
        speaker=_optional_str(message, _SPEAKER_KEYS, where),
        source=_optional_str(message, ("source",), where),
        tags=() if tags is None else _names(tags, f"{where}.tags"),
        entities=_entities(message.get("entities"), f"{where}.entities"),
        extras=MappingProxyType(extras) if extras else MappingProxyType({}),
    )


def _reindexed(item: MemoryItem, index: int) -> MemoryItem:
    return item if item.index == index else replace(item, index=index)


def messages_to_items(messages: Iterable[Any]) -> list[MemoryItem]:
    """Level-0 items from a list of messages, in order (see the module docstring for the
    accepted shapes).

    >>> [item.id for item in messages_to_items(["Hi", {"text": "Hello", "id": "b"}])]
    ['m0', 'b']
    """
    if isinstance(messages, (str, bytes, Mapping)):
        raise MemoryFormatError(
            f"messages must be a list of messages, got one {type(messages).__name__}; "
            "wrap it in a list."
        )
    items: list[MemoryItem] = []
    seen: dict[str, int] = {}
    for index, message in enumerate(messages):
        item = message_to_item(message, index)
        if item.id in seen:
            raise MemoryFormatError(
                f"messages[{index}].id {item.id!r} repeats messages[{seen[item.id]}]'s id; "
                "give every message its own id (or none: ids m0, m1, ... are generated)."
            )
        seen[item.id] = index
        items.append(item)
    return items
