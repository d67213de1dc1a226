"""What ``add`` does before its transaction: check the namespace, read the messages as
``build_memory`` reads them (same errors), add entities and hashtags as ``MemoryWriter`` does,
and embed them, so that the transaction only numbers and inserts them.

Everything slow (the embedder) happens here, with no lock held. If the embedder fails, ``add``
raises and stores nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.ingest.builder import MemoryBuilder
from rerank_plus.memory.ingest.embedding import Embedder
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.messages import message_to_item
from rerank_plus.memory.store.errors import StoreError

#: The longest namespace, in characters (adapters join their keys with "/"; hash longer ones).
NAMESPACE_LIMIT = 512

#: The ids the store gives summaries (``L1.0``, ``L2.3``): a message cannot take one.
_SUMMARY_ID = re.compile(r"L\d+\.\d+")


def check_namespace(namespace: Any) -> str:
    """``namespace`` if it is a usable name, else a StoreError saying what to change."""
    if not isinstance(namespace, str):
        raise StoreError(
            f"a namespace is a str (e.g. 'ana' or 'ana/2024-05'), got {type(namespace).__name__}."
        )
    if not namespace:
        raise StoreError("the namespace is empty; name it, e.g. 'user-42' or 'user-42/session-7'.")
    if len(namespace) > NAMESPACE_LIMIT:
        raise StoreError(
            f"the namespace is {len(namespace)} characters long; keep it to {NAMESPACE_LIMIT} "
            "(use a hash of a long key)."
        )
    if "\x00" in namespace:
        raise StoreError("the namespace holds a NUL character (\\x00); remove it.")
    return namespace


@dataclass(frozen=True)
class Incoming:
    """Read messages: each item (index from 0) and whether its id was given (else the store
    gives it ``m<index>`` once it knows the index)."""

    items: list[MemoryItem]
    given: list[bool]

    @property
    def given_ids(self) -> list[str]:
        return [item.id for item, given in zip(self.items, self.given, strict=True) if given]

    def placed(self, start: int, removed: int = 0) -> list[MemoryItem]:
        """The items as the messages ``start``, ``start + 1``, ... of their namespace, from
        which ``removed`` messages were deleted (a generated id counts every message ever
        added, so it is never one a message still holds)."""
        return [
            replace(item, index=start + n, id=item.id if given else f"m{removed + start + n}")
            for n, (item, given) in enumerate(zip(self.items, self.given, strict=True))
        ]


def _given(message: Any) -> bool:
    if isinstance(message, MemoryItem):
        return True
    return isinstance(message, Mapping) and message.get("id") is not None


def read_messages(messages: Iterable[Any], builder: MemoryBuilder) -> Incoming:
    """Items of ``messages`` (see :func:`~rerank_plus.memory.messages_to_items`), enriched as
    the builder enriches them."""
    if isinstance(messages, (str, bytes, Mapping, MemoryItem)):
        raise MemoryFormatError(
            f"messages must be a list of messages, got one {type(messages).__name__}; "
            "wrap it in a list."
        )
    items: list[MemoryItem] = []
    given: list[bool] = []
    seen: dict[str, int] = {}
    for position, message in enumerate(messages):
        item = message_to_item(message, position)
        if _given(message):
            if item.id in seen:
                raise MemoryFormatError(
                    f"messages[{position}].id {item.id!r} repeats messages[{seen[item.id]}]'s "
                    "id; give every message its own id (or none: one is generated)."
                )
            if _SUMMARY_ID.fullmatch(item.id):
                raise MemoryFormatError(
                    f"messages[{position}].id {item.id!r} has the form of a summary's id "
                    "(L<level>.<index>); give the message another id."
                )
            seen[item.id] = position
        items.append(builder.enrich(item))
        given.append(_given(message))
    return Incoming(items, given)


def embedded(incoming: Incoming, embedder: Embedder | None) -> Incoming:
    """The items with their embeddings (those without one embedded in one batch)."""
    missing = [n for n, item in enumerate(incoming.items) if item.embedding is None]
    if embedder is None or not missing:
        return incoming
    try:
        rows = embedder.embed([incoming.items[n].text for n in missing])
    except Exception as error:
        raise StoreError(
            f"the embedder failed on the added messages ({type(error).__name__}: {error}); "
            "nothing was stored: fix the embedder and add them again."
        ) from error
    items = list(incoming.items)
    for n, row in zip(missing, rows, strict=True):
        items[n] = replace(items[n], embedding=tuple(row.tolist()))
    return Incoming(items, incoming.given)


def dimension_of(items: Sequence[MemoryItem]) -> int | None:
    """The length of the items' embeddings (None: none has one); they must agree."""
    sizes = {len(item.embedding) for item in items if item.embedding is not None}
    if len(sizes) > 1:
        raise StoreError(
            f"the added messages have embeddings of different lengths ({sorted(sizes)}); "
            "embed them all with one model."
        )
    return next(iter(sizes), None)
