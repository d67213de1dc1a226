"""A Semantic Kernel plugin that recalls from a hierarchical memory: translation only.

``MemoryPlugin`` exposes ``rerank_plus.memory.MemoryRetriever`` as the kernel function
``recall``: the composed context (overview summaries, extracts, verbatim quotes, each with its
header) as one text an agent can read or put in a prompt.

Example::

    kernel.add_plugin(MemoryPlugin(load_memory("memory.json"), max_tokens=1500), "memory")
    context = await kernel.invoke(plugin_name="memory", function_name="recall", query="...")

or, to recall from one namespace of a memory store that an application keeps adding to::

    plugin = MemoryPlugin.from_store(open_store("sqlite:///memory.db"), "ana", max_tokens=1500)
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import ConfigDict, Field, PrivateAttr
from rerank_plus.memory.adapters_support import NamespaceRetriever, memory_retriever
from semantic_kernel.functions import kernel_function
from semantic_kernel.kernel_pydantic import KernelBaseModel


class MemoryPlugin(KernelBaseModel):
    """Recall from a memory as a kernel function.

    ``memory`` is a :class:`~rerank_plus.memory.Memory` (``options`` then go to
    ``MemoryRetriever``: embedder, reranker, final_reranker, profile, token_counter) or a
    ready ``MemoryRetriever``; :meth:`from_store` recalls from a namespace of a memory store
    (each call reads what was added up to then). ``max_tokens``, ``intent`` and ``now`` are
    the defaults of every call; a call may give its own ``max_tokens`` and ``intent``.
    """

    model_config = ConfigDict(extra="forbid")

    max_tokens: int = Field(default=2000, description="Token budget of the recalled context.")
    intent: str | None = Field(
        default=None, description="synthesis, detail, recent or entity; None reads the query."
    )
    now: datetime | None = Field(
        default=None, description="The time 'since yesterday' counts from; None is the clock."
    )
    _retriever: Any = PrivateAttr()

    def __init__(
        self,
        memory: Any,
        *,
        max_tokens: int = 2000,
        intent: str | None = None,
        now: datetime | None = None,
        **options: Any,
    ) -> None:
        fields: dict[str, Any] = {"max_tokens": max_tokens, "intent": intent, "now": now}
        super().__init__(**fields)
        self._retriever = memory_retriever(memory, options)

    @classmethod
    def from_store(
        cls, store: Any, namespace: str, *, profile: Any = None, **settings: Any
    ) -> MemoryPlugin:
        """Recall from ``namespace`` of a :class:`~rerank_plus.memory.MemoryStore`
        (``settings``: ``max_tokens``, ``intent``, ``now``)."""
        return cls(NamespaceRetriever(store, namespace, profile), **settings)

    @property
    def memory_retriever(self) -> Any:
        return self._retriever

    @kernel_function(
        name="recall",
        description="Recall what a conversation or meeting memory says about a question: "
        "summaries for broad questions, verbatim quotes for precise ones, each with its level, "
        "time and speaker.",
    )
    async def recall(
        self,
        query: Annotated[str, "The question to recall context for."],
        max_tokens: Annotated[int | None, "Token budget; the plugin's when left out."] = None,
        intent: Annotated[
            str | None, "synthesis, detail, recent or entity; read from the query when left out."
        ] = None,
    ) -> Annotated[str, "The composed context, with a header per item."]:
        context = await self._retriever.aretrieve(
            query,
            max_tokens=self.max_tokens if max_tokens is None else max_tokens,
            intent=self.intent if intent is None else intent,
            now=self.now,
        )
        return str(context.text)
