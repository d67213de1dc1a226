"""The one thing an LLM reranker needs from a model: a prompt in, text (and maybe logprobs) out.

Any object with ``model_name`` and ``complete`` is a :class:`ChatModel`; an ``acomplete``
coroutine of the same shape is used by ``arank`` when present. LangChain chat models and
LlamaIndex LLMs are wrapped for you (see ``frameworks``); an OpenAI-compatible endpoint is
:class:`~rerank_plus.scoring.llm.openai_compatible.OpenAICompatibleChat`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class Prompt:
    """A system instruction and one user message: the shape every chat API accepts."""

    system: str
    user: str


@dataclass(frozen=True, slots=True)
class Completion:
    """What the model answered.

    ``input_tokens``/``output_tokens`` are the backend's own counts when it reports them (None
    otherwise: the reranker then estimates them from the text). ``top_logprobs`` maps the
    candidate first tokens of the answer to their log-probabilities, when the backend returns
    logprobs (the yes/no judgment turns them into P(yes)).
    """

    text: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    top_logprobs: Mapping[str, float] | None = None


@runtime_checkable
class ChatModel(Protocol):
    """A model the LLM reranker can call: text in, text out, optional logprobs.

    ``max_tokens`` is a hint (backends that cannot set it per call ignore it); ``logprobs``
    asks for the first token's alternatives where the backend can give them.
    """

    @property
    def model_name(self) -> str: ...

    def complete(self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False) -> Completion:
        """Answer ``prompt``; raise :class:`RetryableLLMError` for a rate limit or timeout."""
        ...
