"""A rerank-plus memory store as a LangGraph ``BaseStore``: translation only.

LangGraph agents, and LangMem's memory tools, read and write long-term memory through a
``BaseStore``: items under a namespace tuple and a key, found by ``search``.
``HierarchicalMemoryStore`` maps them onto a :class:`~rerank_plus.memory.MemoryStore`:

- a namespace tuple is the store namespace of its labels joined by ``/`` (``("memories",
  "ana")`` is ``"memories/ana"``); a ``/`` inside a label is written ``%2F`` and a ``%`` is
  written ``%25``, so every tuple has its own name and names read back as the same tuple;
- ``put`` adds the value as a message (its ``text`` or ``content``; a value with neither is
  stored as its JSON text), with the value's ``speaker``, ``time`` (default: now), ``tags``,
  ``entities`` and ``source``, and keeps the value to hand back; a key put again adds a newer
  version of it (the memory keeps what was said: ``get`` gives the newest version, ``search``
  may show older ones too, each with its time);
- ``search(prefix, query=...)`` is the context the store composes for the query in each
  namespace under the prefix: summaries, extracts and quotes as ``SearchItem``\\ s with their
  scores, each value the one put (for a summary, or a message added otherwise, its
  ``text``) plus ``level``, ``block``, ``time``, ``end_time`` and ``speaker`` where known, in
  the context's order (by score across several namespaces); without a query, the most recent
  messages first;
- ``get`` reads the key's versions by id (``key``, ``key~2``, ...: one indexed read each,
  never the whole namespace);
- ``delete`` of a key deletes every version of it (``MemoryStore.delete_message``): the
  summaries over them are built again without them, and their text is in no later search;
  a summary's key is refused (:class:`UnsupportedOperation`: summaries are made from the
  messages). ``index`` and ``ttl`` are ignored: every message is indexed, and kept.

Example::

    from langchain.agents import create_agent
    from langmem import create_manage_memory_tool, create_search_memory_tool

    store = HierarchicalMemoryStore(open_store("sqlite:///memory.db"), max_tokens=800)
    tools = [
        create_manage_memory_tool(namespace=("memories", "{user_id}")),
        create_search_memory_tool(namespace=("memories", "{user_id}")),
    ]
    agent = create_agent(model, tools, store=store)
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from rerank_plus.memory.adapters_support import context_metadata, plain_copy
from rerank_plus.memory.store import DuplicateMessageIdError, UnknownNamespaceError

from langchain_rerank_plus.langgraph_values import KEY, VALUE, matches, stored_message

#: The time of an item that has none (``Item`` needs one).
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ESCAPED = {"%25": "%", "%2F": "/"}
#: The ids a memory store gives summaries (``L1.0``, ``L2.3``); no message may take one.
_SUMMARY_KEY = re.compile(r"L\d+\.\d+")


class UnsupportedOperation(NotImplementedError):
    """An operation a memory store cannot do (deleting a summary)."""


def namespace_name(namespace: tuple[str, ...]) -> str:
    """The store namespace of a LangGraph namespace tuple (see the module docstring).

    >>> namespace_name(("memories", "ana/bob", "100%"))
    'memories/ana%2Fbob/100%25'
    """
    if not namespace or not all(isinstance(label, str) and label for label in namespace):
        raise InvalidNamespaceError(
            f"Namespace {namespace!r}: give a non-empty tuple of non-empty str labels."
        )
    return "/".join(label.replace("%", "%25").replace("/", "%2F") for label in namespace)


def namespace_tuple(name: str) -> tuple[str, ...]:
    """The LangGraph namespace tuple of a store namespace (the inverse of
    :func:`namespace_name`).

    >>> namespace_tuple("memories/ana%2Fbob/100%25")
    ('memories', 'ana/bob', '100%')
    """
    return tuple(
        re.sub("%(25|2F)", lambda found: _ESCAPED[found.group(0)], label)
        for label in name.split("/")
    )


def _value(item: Any) -> dict[str, Any]:
    """What a stored message reads as: the value it was put as, or its text, speaker and time."""
    kept = item.extras.get(VALUE)
    if isinstance(kept, Mapping):
        return dict(plain_copy(kept))
    value: dict[str, Any] = {"text": item.text}
    if item.speaker:
        value["speaker"] = item.speaker
    if item.time is not None:
        value["time"] = item.time.isoformat()
    return value


def _key(item: Any) -> str:
    kept = item.extras.get(KEY)
    return kept if isinstance(kept, str) else item.id


def _found(namespace: tuple[str, ...], item: Any, value: dict[str, Any], score: Any) -> SearchItem:
    moment = item.time or EPOCH
    return SearchItem(namespace, _key(item), value, moment, item.end_time or moment, score)


class HierarchicalMemoryStore(BaseStore):
    """A LangGraph store over a rerank-plus memory store (see the module docstring).

    ``store`` is a :class:`~rerank_plus.memory.MemoryStore`; ``max_tokens``, ``intent``,
    ``now`` and ``profile`` are passed to every retrieval ``search`` makes.
    """

    def __init__(
        self,
        store: Any,
        *,
        max_tokens: int = 2000,
        intent: str | None = None,
        now: datetime | None = None,
        profile: Any = None,
    ) -> None:
        if not all(callable(getattr(store, name, None)) for name in ("add", "retrieve")):
            raise TypeError(
                f"store must be a rerank_plus MemoryStore, got {type(store).__name__}; open one "
                'with rerank_plus.memory.open_store("sqlite:///memory.db").'
            )
        self.store = store
        self.settings = {"max_tokens": max_tokens, "intent": intent, "now": now, "profile": profile}

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Each op in order; consecutive puts to a namespace go to the store as one add."""
        results: list[Result] = []
        pending: list[PutOp] = []
        for op in ops:
            if isinstance(op, PutOp):
                pending.append(op)
                results.append(None)
                continue
            self._put(pending)
            pending = []
            results.append(self._run(op))
        self._put(pending)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list(op)
        raise TypeError(
            f"Unknown operation {type(op).__name__}; give a GetOp, PutOp, SearchOp or "
            "ListNamespacesOp."
        )

    def _put(self, ops: list[PutOp]) -> None:
        """Puts in order: the values of consecutive ones as one add per namespace, a delete
        (a None value) after the puts before it."""
        by_namespace: dict[str, list[PutOp]] = {}
        for op in ops:
            if op.value is None:
                self._add(by_namespace)
                by_namespace = {}
                self._delete(op)
            else:
                by_namespace.setdefault(namespace_name(op.namespace), []).append(op)
        self._add(by_namespace)

    def _add(self, by_namespace: dict[str, list[PutOp]]) -> None:
        for name, puts in by_namespace.items():
            messages = [stored_message(op.key, op.value) for op in puts]
            self._versioned(name, messages, stored=False)
            try:
                self.store.add(name, messages)
            except DuplicateMessageIdError:
                self._versioned(name, messages, stored=True)
                self.store.add(name, messages)

    def _delete(self, op: PutOp) -> None:
        name = namespace_name(op.namespace)
        if _SUMMARY_KEY.fullmatch(op.key):
            raise UnsupportedOperation(
                f"HierarchicalMemoryStore cannot delete the summary {op.key!r} in "
                f"{op.namespace!r}: summaries are made from the messages; delete the messages "
                f"it covers, or call delete({name!r}) on the rerank_plus store to forget all."
            )
        for item in reversed(self._versions(name, op.key)):
            self.store.delete_message(name, item.id)

    def _message(self, name: str, message_id: str) -> Any:
        """The namespace's message of that id (None: none, or no such namespace)."""
        try:
            return self.store.message(name, message_id)
        except UnknownNamespaceError:
            return None

    def _versions(self, name: str, key: str) -> list[Any]:
        """The messages put under ``key``, oldest first: ``key``, ``key~2``, ... (a put of a
        taken key adds the next one, a delete removes them all, so they have no gap)."""
        found = []
        item = self._message(name, key)
        while item is not None and _key(item) == key:
            found.append(item)
            item = self._message(name, f"{key}~{len(found) + 1}")
        return found

    def _versioned(self, name: str, messages: list[dict[str, Any]], stored: bool) -> None:
        """Give a message whose key an earlier one of the add has (and, if ``stored``, one
        whose id the namespace holds) the next version's id (``key~2``, ...)."""
        chosen: set[str] = set()
        for message in messages:
            version = 1
            while message["id"] in chosen or (
                stored and self._message(name, message["id"]) is not None
            ):
                version += 1
                message["id"] = f"{message[KEY]}~{version}"
            chosen.add(message["id"])

    def _get(self, op: GetOp) -> Item | None:
        name = namespace_name(op.namespace)
        versions = self._versions(name, op.key)
        if versions:
            return _found(op.namespace, versions[-1], _value(versions[-1]), None)
        if not _SUMMARY_KEY.fullmatch(op.key):
            return None
        memory = self.store.memory(name)  # a summary, as search shows them (brought up to date)
        if op.key not in memory:
            return None
        summary = memory.get(op.key)
        return _found(op.namespace, summary, _value(summary), None)

    def _under(self, prefix: tuple[str, ...]) -> list[str]:
        if not prefix:
            return list(self.store.namespaces())
        name = namespace_name(prefix)
        return [
            n for n in self.store.namespaces(prefix=name) if n == name or n.startswith(name + "/")
        ]

    def _search(self, op: SearchOp) -> list[SearchItem]:
        found: list[SearchItem] = []
        for name in self._under(op.namespace_prefix):
            namespace = namespace_tuple(name)
            if op.query:
                found += self._recall(namespace, name, op.query)
            else:
                found += [_found(namespace, m, _value(m), None) for m in self.store.messages(name)]
        if not op.query:
            found.reverse()  # the newest first, across namespaces by time
            found.sort(key=lambda entry: entry.created_at, reverse=True)
        elif len({entry.namespace for entry in found}) > 1:
            found.sort(key=lambda entry: entry.score or 0.0, reverse=True)
        kept = [entry for entry in found if matches(entry.value, op.filter)]
        return kept[op.offset : op.offset + op.limit]

    def _recall(self, namespace: tuple[str, ...], name: str, query: str) -> list[SearchItem]:
        context = self.store.retrieve(name, query, **self.settings)
        found = []
        for entry in context.items:
            shown = {
                key: value
                for key, value in context_metadata(entry).items()
                if value is not None and key not in ("memory_id", "score", "elided")
            }
            found.append(
                _found(namespace, entry.item, {**_value(entry.item), **shown}, entry.score)
            )
        return found

    def _list(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        namespaces = [namespace_tuple(name) for name in self.store.namespaces()]
        namespaces = [ns for ns in namespaces if all(_matches(c, ns) for c in conditions)]
        if op.max_depth is not None:
            namespaces = list({ns[: op.max_depth] for ns in namespaces})
        return sorted(namespaces)[op.offset : op.offset + op.limit]


def _matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """Whether ``namespace`` starts (``prefix``) or ends (``suffix``) with the condition's
    path, ``"*"`` matching any label."""
    path = condition.path
    if not path:
        return True
    if len(namespace) < len(path):
        return False
    labels = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    return all(want in ("*", label) for want, label in zip(path, labels, strict=True))
