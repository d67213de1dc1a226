"""A memory store as a LlamaIndex ``Memory`` block: translation only.

``Memory`` keeps the recent chat itself and hands the messages it flushes (the oldest, once the
chat history passes its share of ``token_limit``) to its blocks. ``HierarchicalMemoryBlock``
adds them to a :class:`~rerank_plus.memory.MemoryStore` namespace, and on each turn puts the
context the store composes for the user's last message (overview summaries, extracts, verbatim
quotes, each under its header) into the prompt, within its own ``max_tokens``. Give it one
namespace per user and every session of that user reads what the earlier ones said.

Example::

    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.memory import Memory
    from rerank_plus.memory import open_store

    store = open_store("sqlite:///memory.db")
    block = HierarchicalMemoryBlock(store, namespace="ana", max_tokens=800)
    memory = Memory.from_defaults(session_id="ana-2024-05-06", memory_blocks=[block])
    answer = await FunctionAgent(llm=llm, tools=[]).run("Where do I work now?", memory=memory)
    await aflush_session(memory)  # the session's last turns, which the Memory still held

``Memory`` flushes to its blocks only what overflows its chat history: what the last turns of
a session said stays in its own chat store (in RAM by default) until :func:`aflush_session`
hands it to the blocks.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field, PrivateAttr, field_validator
from llama_index.core.memory.memory import BaseMemoryBlock, Memory
from llama_index.core.storage.chat_store.sql import MessageStatus
from rerank_plus.memory.adapters_support import NamespaceRetriever, speaker_of
from rerank_plus.memory.context.pieces import ContextPiece, context_pieces, join_pieces, shed
from rerank_plus.selection.budget import approximate_tokens

#: Composed contexts kept for ``atruncate``, which gets only the text back: ``Memory`` calls it
#: right after the ``aget`` of the same turn, so a few suffice.
_KEPT_CONTEXTS = 32


class HierarchicalMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory for a LlamaIndex ``Memory``, kept in a rerank-plus memory store.

    ``store`` is a :class:`~rerank_plus.memory.MemoryStore` (``open_store(url)``);
    ``namespace`` the store namespace the block reads and writes, None for the ``Memory``'s
    ``session_id`` (then each session only recalls itself). Messages of the ``roles`` listed
    are stored with their role (or ``additional_kwargs["name"]``) as speaker, the
    ``additional_kwargs["time"]`` given or the time they reach the block, and the session id
    as source; others (system prompts, tool results) are not. ``priority`` 1 lets ``Memory``
    shorten the block when the chat history needs the room: :meth:`atruncate` drops quotes,
    then extracts, then overview summaries (0 never shortens it).
    """

    name: str = Field(default="HierarchicalMemory", description="The block's name in the prompt.")
    store: Any = Field(exclude=True, description="The rerank_plus MemoryStore.")
    namespace: str | None = Field(
        default=None, description="Store namespace; None is the Memory's session_id."
    )
    max_tokens: int = Field(default=1000, gt=0, description="Token budget of the context.")
    priority: int = Field(default=1, description="0 never truncates; 1 and up may.")
    intent: str | None = Field(
        default=None, description="synthesis, detail, recent or entity; None reads the question."
    )
    profile: Any = Field(default=None, description="A memory profile for every retrieval.")
    now: datetime | None = Field(
        default=None, description="The time 'since yesterday' counts from; None is the clock."
    )
    roles: tuple[str, ...] = Field(
        default=("user", "assistant"), description="Roles of the messages stored."
    )
    _contexts: OrderedDict[str, list[ContextPiece]] = PrivateAttr(default_factory=OrderedDict)

    def __init__(self, store: Any, **data: Any) -> None:
        super().__init__(store=store, **data)  # type: ignore[call-arg]  # a field of ours

    @field_validator("store")
    @classmethod
    def _a_store(cls, store: Any) -> Any:
        if not callable(getattr(store, "add", None)):
            raise ValueError(
                f"store must be a rerank_plus MemoryStore, got {type(store).__name__}; open one "
                'with rerank_plus.memory.open_store("sqlite:///memory.db").'
            )
        return store

    def _namespace(self, session_id: str | None) -> str:
        namespace = self.namespace or session_id
        if not namespace:
            raise ValueError(
                "HierarchicalMemoryBlock has no namespace and the Memory gave no session_id: "
                "pass namespace=... (e.g. the user's id)."
            )
        return namespace

    async def _aget(
        self,
        messages: list[ChatMessage] | None = None,
        session_id: str | None = None,
        **block_kwargs: Any,
    ) -> str:
        """The context for the last user message; "" when there is none or nothing to say."""
        question = next(
            (m.content for m in reversed(messages or []) if m.role == MessageRole.USER), None
        )
        if not question or not question.strip():
            return ""
        retriever = NamespaceRetriever(self.store, self._namespace(session_id), self.profile)
        context = await retriever.aretrieve(
            question, max_tokens=self.max_tokens, intent=self.intent, now=self.now
        )
        if context.text:
            self._contexts[context.text] = context_pieces(context)
            while len(self._contexts) > _KEPT_CONTEXTS:
                self._contexts.popitem(last=False)
        return str(context.text)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Add the flushed messages to the store: durable when this returns."""
        by_namespace: dict[str, list[dict[str, Any]]] = {}
        for message in messages:
            text = message.content
            if message.role.value not in self.roles or not text or not text.strip():
                continue
            given = message.additional_kwargs
            session = given.get("session_id") if isinstance(given.get("session_id"), str) else None
            name = given.get("name") if isinstance(given.get("name"), str) else None
            stored = {
                "text": text,
                "speaker": speaker_of(message.role.value, name),
                "time": given.get("time") or datetime.now(UTC),
                "source": session,
            }
            by_namespace.setdefault(self._namespace(session), []).append(stored)
        for namespace, batch in by_namespace.items():
            await asyncio.to_thread(self.store.add, namespace, batch)

    async def atruncate(self, content: str, tokens_to_truncate: int) -> str | None:
        """``content`` less its weakest pieces until ``tokens_to_truncate`` are freed: quotes,
        then extracts, then overview summaries; None when nothing is left (or ``content`` is
        not a context this block composed)."""
        pieces = self._contexts.get(content)
        if not pieces:
            return None
        kept = shed(pieces, tokens_to_truncate, approximate_tokens)
        return join_pieces(kept) if kept else None


async def aflush_session(memory: Memory) -> int:
    """Hand every message of ``memory``'s chat history to its blocks, as ``Memory`` does with
    the oldest when the history overflows, and archive them there (so none is handed twice):
    call it when a session ends. Returns how many messages were handed over."""
    active = await memory.sql_store.get_messages(memory.session_id, status=MessageStatus.ACTIVE)
    if not active:
        return 0
    await asyncio.gather(
        *(
            block.aput(active, from_short_term_memory=True, session_id=memory.session_id)
            for block in memory.memory_blocks
        )
    )
    await memory.sql_store.archive_oldest_messages(memory.session_id, n=len(active))
    return len(active)
