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
from llama_index.core.prompts import BasePromptTemplate, ChatPromptTemplate
from llama_index.core.prompts.mixin import PromptDictType, PromptMixin
from llama_index.core.settings import Settings
from rerank_plus.adapters_support import llm_ready_class
from rerank_plus.scoring.llm import Completion, Prompt, PromptTemplate
from rerank_plus.scoring.llm.framework_prompts import (
    markers,
    template_from_messages,
    template_from_text,
)
from rerank_plus.scoring.llm.prompts import DEFAULT_TEMPLATES, task_of

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


_ROLES = {MessageRole.SYSTEM: "system", MessageRole.USER: "user"}


def prompt_template(prompt: BasePromptTemplate | str, task: str) -> PromptTemplate:
    """A LlamaIndex prompt (a ``ChatPromptTemplate`` of a system and a user message, or a
    ``PromptTemplate``, the user message) or a ``str.format`` string (the user message) as the
    core's template; without a system message the task's default system message is kept."""
    if isinstance(prompt, str):
        return template_from_text(prompt, task)
    formatted = prompt.format_messages(llm=None, **markers(prompt.template_vars))
    return template_from_messages(
        [(_ROLES.get(m.role, str(m.role.value)), m.content or "") for m in formatted], task
    )


_LLMRerankFields = llm_ready_class(
    RerankPlusPostprocessor,
    __name__,
    BaseLLM,
    LlamaIndexChat,
    "The fields of LLMRerank.",
    prompt_type=BasePromptTemplate | str,
    to_template=prompt_template,
)


class LLMRerank(_LLMRerankFields, PromptMixin):  # type: ignore[misc,valid-type]
    """Reranks nodes with a LlamaIndex LLM, listwise (RankGPT) or pointwise.

    ``llm`` defaults to ``Settings.llm``, as LlamaIndex's own ``LLMRerank``. The prompt is
    ``get_prompts()["rerank_prompt"]`` and ``update_prompts({"rerank_prompt": ...})`` replaces
    it (or ``prompt=`` here): a ``ChatPromptTemplate`` (system and user messages) or a
    ``PromptTemplate`` (the user message) with ``{query}`` and ``{passages}`` (listwise,
    optionally ``{count}``) or ``{query}`` and ``{passage}`` (pointwise); a prompt lacking one
    is refused when set.

    >>> postprocessor = LLMRerank(llm=OpenAI(model="gpt-4o-mini"), top_n=5)  # doctest: +SKIP
    """

    def __init__(self, llm: BaseLLM | None = None, **data: Any) -> None:
        super().__init__(llm=Settings.llm if llm is None else llm, **data)

    @classmethod
    def class_name(cls) -> str:
        return "RerankPlusLLMRerank"

    def _get_prompts(self) -> PromptDictType:
        if self.prompt is not None:
            return {"rerank_prompt": self.prompt}
        default = DEFAULT_TEMPLATES[task_of(self.mode, self.judgment)]
        return {
            "rerank_prompt": ChatPromptTemplate(
                message_templates=[
                    ChatMessage(role=MessageRole.SYSTEM, content=default.system),
                    ChatMessage(role=MessageRole.USER, content=default.user),
                ]
            )
        }

    def _update_prompts(self, prompts: PromptDictType) -> None:
        if "rerank_prompt" in prompts:
            self.prompt = prompts["rerank_prompt"]  # checked on assignment
            self._reranker = None  # rebuilt with the new prompt
