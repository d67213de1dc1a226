"""LangGraph item values as memory messages, and LangGraph's search filters over values."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

#: Extras of a stored message: the LangGraph key it was put under, and the value put.
KEY = "langgraph_key"
VALUE = "langgraph_value"
#: Value fields that are message fields too (the text is ``text`` or ``content``).
_FIELDS = ("speaker", "time", "tags", "entities", "source")


def _text(value: Mapping[str, Any]) -> str:
    """The value's ``text`` or ``content`` (JSON when it is not a str: LangMem puts a schema's
    fields there), else the whole value as JSON."""
    for name in ("text", "content"):
        if name in value:
            said = value[name]
            return said if isinstance(said, str) else json.dumps(said, ensure_ascii=False)
    return json.dumps(dict(value), ensure_ascii=False, sort_keys=True)


def stored_message(key: str, value: Any) -> dict[str, Any]:
    """The message a ``put(namespace, key, value)`` adds (see
    :mod:`langchain_rerank_plus.langgraph_store`).

    >>> message = stored_message("k1", {"content": "Ana likes tea", "speaker": "Ana"})
    >>> message["id"], message["text"], message["speaker"]
    ('k1', 'Ana likes tea', 'Ana')
    """
    if not isinstance(value, Mapping):
        raise TypeError(
            f"The value put under key {key!r} is a {type(value).__name__}; LangGraph values are "
            'dicts, e.g. {"text": "Ana likes tea"}.'
        )
    message: dict[str, Any] = {"id": key, "text": _text(value)}
    message.update((name, value[name]) for name in _FIELDS if value.get(name) is not None)
    message.setdefault("time", datetime.now(UTC))
    message[KEY] = key
    message[VALUE] = dict(value)
    return message


def matches(value: Mapping[str, Any], wanted: Mapping[str, Any] | None) -> bool:
    """Whether ``value`` passes a LangGraph search filter: each key equal to the filter's
    value (nested mappings compared key by key), or a mapping of operators ``$eq``, ``$ne``,
    ``$gt``, ``$gte``, ``$lt``, ``$lte``, as LangGraph's own stores read it.

    >>> matches({"speaker": "Ana", "level": 0}, {"speaker": "Ana", "level": {"$lte": 1}})
    True
    """
    return all(_compare(value.get(key), want) for key, want in (wanted or {}).items())


_OPERATORS = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a is not None and a > b,
    "$gte": lambda a, b: a is not None and a >= b,
    "$lt": lambda a, b: a is not None and a < b,
    "$lte": lambda a, b: a is not None and a <= b,
}


def _compare(found: Any, want: Any) -> bool:
    if isinstance(want, Mapping) and any(str(name).startswith("$") for name in want):
        unknown = [name for name in want if name not in _OPERATORS]
        if unknown:
            raise ValueError(
                f"Unsupported filter operator {unknown[0]!r}; use one of {', '.join(_OPERATORS)}."
            )
        try:
            return all(_OPERATORS[name](found, operand) for name, operand in want.items())
        except TypeError:  # an order between a str and a number: not a match
            return False
    if isinstance(want, Mapping):
        return isinstance(found, Mapping) and all(
            _compare(found.get(key), inner) for key, inner in want.items()
        )
    return bool(found == want)
