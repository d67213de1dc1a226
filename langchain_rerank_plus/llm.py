"""A LangChain chat model as the LLM of :class:`rerank_plus.LLMReranker`, and a ready
compressor that reranks with it.

``LLMReranker(chat_model)`` wraps any ``BaseChatModel`` with :class:`LangChainChat` by itself;
use the class directly to name the model in the cache key. Token counts come from the message's
``usage_metadata``; logprobs from ``response_metadata["logprobs"]``, which chat models return
when configured to (``ChatOpenAI(logprobs=True, top_logprobs=5)``). ``max_tokens`` is not set
per call: configure it, and timeouts, on the chat model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompts import BasePromptTemplate
from rerank_plus.adapters_support import llm_ready_class
from rerank_plus.scoring.llm import Completion, Prompt, PromptTemplate
from rerank_plus.scoring.llm.framework_prompts import (
    markers,
    template_from_messages,
    template_from_text,
)
from rerank_plus.scoring.llm.parsing import first_token_logprobs

from langchain_rerank_plus.compressor import RerankPlusCompressor
from langchain_rerank_plus.run_config import model_call_config


class LangChainChat:
    """A LangChain ``BaseChatModel`` behind the reranker's ``ChatModel`` protocol."""

    def __init__(self, chat_model: BaseChatModel, model_name: str | None = None) -> None:
        if not isinstance(chat_model, BaseChatModel):
            raise TypeError(
                f"LangChainChat needs a LangChain chat model, got {type(chat_model).__name__}."
            )
        self.chat_model = chat_model
        self._name = model_name

    @property
    def model_name(self) -> str:
        model = self.chat_model
        found = self._name or getattr(model, "model_name", None) or getattr(model, "model", None)
        return str(found or model._llm_type)

    @staticmethod
    def _messages(prompt: Prompt) -> list[BaseMessage]:
        return [SystemMessage(prompt.system), HumanMessage(prompt.user)]

    def complete(self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False) -> Completion:
        return _completion(self.chat_model.invoke(self._messages(prompt), model_call_config()))

    async def acomplete(
        self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False
    ) -> Completion:
        messages = self._messages(prompt)
        return _completion(await self.chat_model.ainvoke(messages, model_call_config()))


def _text(content: Any) -> str:
    """A message's text: the string, or the text blocks of a content list joined."""
    if isinstance(content, str):
        return content
    parts = []
    for block in content or []:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, Mapping) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def _completion(message: BaseMessage) -> Completion:
    usage = getattr(message, "usage_metadata", None) or {}
    return Completion(
        text=_text(message.content),
        input_tokens=usage.get("input_tokens"),
        output_tokens=usage.get("output_tokens"),
        top_logprobs=first_token_logprobs(message.response_metadata.get("logprobs")),
    )


_ROLES = {"system": "system", "human": "user"}


def prompt_template(prompt: BasePromptTemplate | str, task: str) -> PromptTemplate:
    """A LangChain prompt (a ``ChatPromptTemplate`` of a system and a human message, or a
    ``PromptTemplate``, the human message) or a ``str.format`` string (the human message) as the
    core's template; without a system message the task's default system message is kept."""
    if isinstance(prompt, str):
        return template_from_text(prompt, task)
    formatted = prompt.format_prompt(**markers(prompt.input_variables)).to_messages()
    return template_from_messages(
        [(_ROLES.get(message.type, message.type), _text(message.content)) for message in formatted],
        task,
    )


LLMRerank = llm_ready_class(
    RerankPlusCompressor,
    __name__,
    BaseChatModel,
    LangChainChat,
    """Reranks with a LangChain chat model, listwise (RankGPT) or pointwise.

    ``prompt`` replaces the default prompt: a ``ChatPromptTemplate`` (system and human
    messages) or a ``PromptTemplate``/string (the human message), with ``{query}`` and
    ``{passages}`` (listwise, optionally ``{count}``) or ``{query}`` and ``{passage}``
    (pointwise); a prompt lacking one is refused when the compressor is made.

    >>> compressor = LLMRerank(llm=ChatOpenAI(model="gpt-4o-mini"), top_n=5)  # doctest: +SKIP
    """,
    prompt_type=BasePromptTemplate | str,
    to_template=prompt_template,
)
