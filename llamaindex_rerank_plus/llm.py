"""A LlamaIndex LLM as the LLM of :class:`rerank_plus.LLMReranker`, and a ready postprocessor
that reranks with it.

``LLMReranker(llm)`` wraps any LlamaIndex LLM with :class:`LlamaIndexChat` by itself. Token
counts come from the response's ``raw["usage"]`` (OpenAI-style) or ``additional_kwargs``;
logprobs from ``ChatResponse.logprobs``, filled by LLMs configured to return them
(``OpenAI(logprobs=True, top_logprobs=5)``). ``max_tokens`` and timeouts are the LLM's own
settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llama_index.core.base.llms.base import BaseLLM
from llama_index.core.base.llms.types import ChatMessage, ChatResponse, MessageRole
from llama_index.core.bridge.pydantic import Field
from rerank_plus import LLMReranker, Reranker
from rerank_plus.scoring.llm import Completion, Prompt

from llamaindex_rerank_plus.postprocessor import RerankPlusPostprocessor


class LlamaIndexChat:
    """A LlamaIndex LLM behind the reranker's ``ChatModel`` protocol."""

    def __init__(self, llm: BaseLLM, model_name: str | None = None) -> None:
        if not isinstance(llm, BaseLLM):
            raise TypeError(f"LlamaIndexChat needs a LlamaIndex LLM, got {type(llm).__name__}.")
        self.llm = llm
        self._name = model_name

    @property
    def model_name(self) -> str:
        return self._name or str(self.llm.metadata.model_name)

    @staticmethod
    def _messages(prompt: Prompt) -> list[ChatMessage]:
        return [
            ChatMessage(role=MessageRole.SYSTEM, content=prompt.system),
            ChatMessage(role=MessageRole.USER, content=prompt.user),
        ]

    def complete(self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False) -> Completion:
        return _completion(self.llm.chat(self._messages(prompt)))

    async def acomplete(
        self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False
    ) -> Completion:
        return _completion(await self.llm.achat(self._messages(prompt)))


def _usage(response: ChatResponse) -> Mapping[str, Any]:
    raw = response.raw
    usage = raw.get("usage") if isinstance(raw, Mapping) else getattr(raw, "usage", None)
    if usage is not None and not isinstance(usage, Mapping):
        usage = getattr(usage, "model_dump", dict)()
    return usage or response.additional_kwargs or {}


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _completion(response: ChatResponse) -> Completion:
    usage = _usage(response)
    first = response.logprobs[0] if response.logprobs else None
    return Completion(
        text=response.message.content or "",
        input_tokens=_count(usage.get("prompt_tokens")),
        output_tokens=_count(usage.get("completion_tokens")),
        top_logprobs={lp.token: lp.logprob for lp in first} if first else None,
    )


class LLMRerank(RerankPlusPostprocessor):
    """Reranks nodes with a LlamaIndex LLM, listwise (RankGPT) or pointwise.

    >>> postprocessor = LLMRerank(llm=OpenAI(model="gpt-4o-mini"), top_n=5)  # doctest: +SKIP
    """

    llm: BaseLLM = Field(description="The LLM that ranks.")
    mode: str = Field(default="listwise", description="listwise or pointwise.")
    judgment: str = Field(default="grade", description="Pointwise: grade or yes-no.")
    window_size: int = Field(default=20, description="Listwise passages per call.")
    step: int = Field(default=10, description="Listwise window step.")
    max_calls: int | None = Field(default=100, description="Calls per rank; None: no limit.")
    max_concurrency: int = Field(default=8, description="Pointwise calls in flight.")

    @classmethod
    def class_name(cls) -> str:
        return "RerankPlusLLMRerank"

    @property
    def reranker(self) -> Reranker:
        """The :class:`LLMReranker` these fields describe (built once)."""
        if self._reranker is None:
            self._reranker = LLMReranker(
                LlamaIndexChat(self.llm),
                self.mode,
                judgment=self.judgment,
                window_size=self.window_size,
                step=self.step,
                max_calls=self.max_calls,
                max_concurrency=self.max_concurrency,
            )
        return self._reranker
