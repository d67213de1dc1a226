"""The memory endpoints' work (``rerank-plus serve --memory URL``): messages added to a
namespace of a memory store, and the context a namespace gives for a question.

Each server process opens its own store: a database connection (and the store's background
summarizer thread) cannot be shared across processes, so the store is opened in the process
that serves, on first use, and opened again in a process forked after that; the child keeps
the store it inherited unclosed and unused (closing a SQLite or PostgreSQL connection in a
child can break its parent's). A SQLite store must not be forked while it writes (SQLite's
rule), so a server forks, if at all, before its first request. ``--workers N`` starts each
worker as a process of its own, which opens its own store; servers on several machines share
a PostgreSQL store the same way.

Store calls block (SQL, embedding), so they run in a worker thread. A failure of the store (a
server gone, a file locked beyond the timeout) is a 503 that says why; a bad message or time
is a 422 that names it; a message id the namespace already holds is a 409, a namespace that
holds no messages (or a message it does not hold) where one is read or deleted a 404. The
namespace's own rule (1 to 512 characters, no NUL) is checked by the route, from the schema
(``memory_routes``).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from typing import Any

from rerank_plus.serve.errors import ApiError
from rerank_plus.serve.settings import ServeSettings

#: The route paths of the memory endpoints (their namespace may hold "/").
MESSAGES_PATH = "/v1/memory/{namespace:path}/messages"
#: One message (its id without "/": the namespace before it may hold one).
MESSAGE_PATH = "/v1/memory/{namespace:path}/messages/{message_id}"
CONTEXT_PATH = "/v1/memory/{namespace:path}/context"
_PREFIX = "/v1/memory/"
#: What the metrics count a memory request under: its route, never its namespace.
_LABELS = {
    "/messages": "/v1/memory/{namespace}/messages",
    "/context": "/v1/memory/{namespace}/context",
}
_MESSAGE_LABEL = "/v1/memory/{namespace}/messages/{message_id}"


def memory_path_label(path: str) -> str | None:
    """The metrics label of a memory endpoint's path (bounded: no namespace or id in it), or
    None."""
    if path.startswith(_PREFIX):
        for suffix, label in _LABELS.items():
            if path.endswith(suffix) and len(path) > len(_PREFIX) + len(suffix):
                return label
        before, found, message_id = path[len(_PREFIX) :].rpartition("/messages/")
        if found and before and message_id and "/" not in message_id:
            return _MESSAGE_LABEL
    return None


class MemoryService:
    """The store of this process (opened by ``open_store`` on first use, again after a fork),
    and the checks and error answers of the memory endpoints."""

    def __init__(self, open_store: Callable[[], Any], settings: ServeSettings) -> None:
        self._open_store = open_store
        self.settings = settings
        self._store: Any = None
        self._owner: int | None = None
        #: Stores a forked child inherited: kept, so never closed nor finalized in the child.
        self._inherited: list[Any] = []
        self._lock = threading.Lock()

    def store(self) -> Any:
        """This process's store, opened now if it has none yet."""
        with self._lock:
            if self._owner != os.getpid():
                if self._store is not None:
                    self._inherited.append(self._store)
                self._store = self._open_store()
                self._owner = os.getpid()
            return self._store

    def close(self) -> None:
        """Close this process's store (one inherited by a fork is left alone)."""
        with self._lock:
            if self._store is not None and self._owner == os.getpid():
                self._store.close()
            self._store = None
            self._owner = None

    def check_messages(self, messages: list[Any]) -> None:
        limits = self.settings
        if len(messages) > limits.max_documents:
            raise ApiError(
                400,
                f"{len(messages)} messages in one request; the limit is {limits.max_documents}. "
                "Send them in several requests, in order.",
            )
        for position, message in enumerate(messages):
            text = message if isinstance(message, str) else message["text"]
            if len(text) > limits.max_document_chars:
                raise ApiError(
                    400,
                    f"messages[{position}] has {len(text)} characters; the limit is "
                    f"{limits.max_document_chars}. Split it into several messages.",
                )

    def check_query(self, query: str) -> None:
        if not query.strip():
            raise ApiError(400, "query is empty; send the question to find the context for.")
        if len(query) > self.settings.max_query_chars:
            raise ApiError(
                400,
                f"query has {len(query)} characters; the limit is {self.settings.max_query_chars}.",
            )

    async def add(self, namespace: str, messages: list[Any]) -> list[str]:
        """Store ``messages`` after the namespace's; their ids. Not cut short by the request
        timeout: an add that returns late is still stored (a retry with the same ids is
        refused, not doubled)."""
        self.check_messages(messages)
        return await self._call("add", namespace, messages)

    async def context(self, namespace: str, query: str, **options: Any) -> Any:
        """The namespace's context for ``query`` (``max_tokens``, ``now``, ``intent``,
        ``shape``)."""
        self.check_query(query)
        call = self._call("retrieve", namespace, query, **options)
        try:
            return await asyncio.wait_for(call, self.settings.request_timeout)
        except asyncio.TimeoutError as error:  # TimeoutError itself from Python 3.11
            raise ApiError(
                504,
                f"The context took longer than {self.settings.request_timeout} s; ask with a "
                "smaller max_tokens, or retry.",
            ) from error

    async def messages(self, namespace: str, last: int | None) -> list[Any]:
        """The namespace's messages (the ``last`` ones when given), in order."""
        return await self._call("messages", namespace, last=last)

    async def message(self, namespace: str, message_id: str) -> Any:
        """The namespace's message ``message_id`` (a 404 when it holds none of that id)."""
        found = await self._call("message", namespace, message_id)
        if found is None:
            raise ApiError(404, _no_message(namespace, message_id))
        return found

    async def delete_message(self, namespace: str, message_id: str) -> None:
        """Delete one message (a 404 when the namespace holds none of that id)."""
        if not await self._call("delete_message", namespace, message_id):
            raise ApiError(404, _no_message(namespace, message_id))

    async def _call(self, method: str, *args: Any, **options: Any) -> Any:
        """The store's ``method`` in a worker thread (the store opened there if need be)."""
        from rerank_plus.memory.store import (
            DuplicateMessageIdError,
            StoreError,
            UnknownNamespaceError,
        )

        def call() -> Any:
            return getattr(self.store(), method)(*args, **options)

        try:
            return await asyncio.to_thread(call)
        except DuplicateMessageIdError as error:
            raise ApiError(409, str(error)) from error
        except UnknownNamespaceError as error:
            raise ApiError(404, str(error)) from error
        except StoreError as error:
            raise ApiError(503, f"The memory store could not answer: {error}") from error
        except (ValueError, TypeError) as error:  # a bad message or time: the request's
            raise ApiError(422, str(error)) from error


def _no_message(namespace: str, message_id: str) -> str:
    return (
        f"the namespace {namespace!r} holds no message {message_id!r}; "
        f"GET /v1/memory/{namespace}/messages lists its messages and their ids."
    )
