"""A memory store namespace as a LangChain chat message history: translation only.

``MemoryChatMessageHistory`` keeps a conversation's messages in a
:class:`~rerank_plus.memory.MemoryStore` namespace, so ``RunnableWithMessageHistory`` (or any
code that reads and appends a ``BaseChatMessageHistory``) stores them durably, one add per
turn, while the same namespace answers questions about the whole conversation through
``MemoryDocumentRetriever.from_store`` or ``HierarchicalMemoryStore``.

Example::

    store = open_store("sqlite:///memory.db")
    chain = RunnableWithMessageHistory(
        prompt | model,
        lambda session_id: MemoryChatMessageHistory(store, f"ana/{session_id}", last=20),
        input_messages_key="question",
        history_messages_key="history",
    )
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    message_to_dict,
    messages_from_dict,
)
from rerank_plus.memory.adapters_support import plain_copy, speaker_of

#: The key of a stored message's extras that holds the LangChain message itself, so it comes
#: back whole: type, tool calls, ids, additional kwargs.
MESSAGE_KEY = "langchain_message"


def _text(message: BaseMessage) -> str:
    """The text a message says: its content, or the text parts of a list of content blocks."""
    content = message.content
    if isinstance(content, str):
        return content
    parts = [
        part if isinstance(part, str) else part.get("text", "")
        for part in content
        if isinstance(part, str) or (isinstance(part, dict) and part.get("type") == "text")
    ]
    return "\n".join(part for part in parts if part)


def stored_message(message: BaseMessage) -> dict[str, Any]:
    """``message`` as a store message: its text, its name or role as speaker, its
    ``additional_kwargs["time"]`` or now, and the whole message to read back."""
    if not isinstance(message, BaseMessage):
        raise TypeError(
            f"messages must be LangChain messages (HumanMessage, AIMessage, ...), got "
            f"{type(message).__name__}."
        )
    return {
        "text": _text(message),
        "speaker": speaker_of(message.type, message.name),
        "time": message.additional_kwargs.get("time") or datetime.now(UTC),
        MESSAGE_KEY: message_to_dict(message),
    }


def read_message(item: Any) -> BaseMessage:
    """A stored message as LangChain's: the message it was added as, or, for one added
    otherwise (a file, the CLI, another framework), a ``HumanMessage`` named after its speaker
    (an ``AIMessage`` when the speaker is "assistant")."""
    kept = item.extras.get(MESSAGE_KEY)
    if isinstance(kept, Mapping):
        return messages_from_dict([plain_copy(kept)])[0]
    if item.speaker == "assistant":
        return AIMessage(content=item.text, id=item.id)
    named = item.speaker if item.speaker not in (None, "user") else None
    return HumanMessage(content=item.text, id=item.id, name=named)


class MemoryChatMessageHistory(BaseChatMessageHistory):
    """The messages of one namespace of a rerank-plus memory store.

    ``store`` is a :class:`~rerank_plus.memory.MemoryStore`, ``namespace`` the conversation's
    (e.g. ``"ana/2024-05-06"``). ``messages`` reads them in order (the ``last`` ones only,
    when given: a long-lived namespace holds more than a prompt should); ``add_messages``
    adds a turn's messages in one store add, durable when it returns; ``clear`` deletes the
    namespace, summaries included.
    """

    def __init__(self, store: Any, namespace: str, *, last: int | None = None) -> None:
        if not callable(getattr(store, "add", None)) or not callable(
            getattr(store, "messages", None)
        ):
            raise TypeError(
                f"store must be a rerank_plus MemoryStore, got {type(store).__name__}; open one "
                'with rerank_plus.memory.open_store("sqlite:///memory.db").'
            )
        if not isinstance(namespace, str) or not namespace:
            raise ValueError(f"namespace must be a non-empty str, got {namespace!r}.")
        if last is not None and (isinstance(last, bool) or not isinstance(last, int) or last < 1):
            raise ValueError(f"last must be a positive int or None, got {last!r}.")
        self.store = store
        self.namespace = namespace
        self.last = last

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        items = self.store.messages(self.namespace, last=self.last)
        return [read_message(item) for item in items]

    async def aget_messages(self) -> list[BaseMessage]:
        return await asyncio.to_thread(lambda: self.messages)

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        stored = [stored_message(message) for message in messages]
        if stored:
            self.store.add(self.namespace, stored)

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        await asyncio.to_thread(self.add_messages, messages)

    def clear(self) -> None:
        self.store.delete(self.namespace)

    async def aclear(self) -> None:
        await asyncio.to_thread(self.clear)
