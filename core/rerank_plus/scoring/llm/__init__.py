"""LLM rerankers: listwise (RankGPT) and pointwise, on the LLM the user already has."""

from rerank_plus.scoring.llm.errors import LLMCallError, RetryableLLMError
from rerank_plus.scoring.llm.openai_compatible import OpenAICompatibleChat
from rerank_plus.scoring.llm.prompts import PromptTemplate
from rerank_plus.scoring.llm.protocol import ChatModel, Completion, Prompt
from rerank_plus.scoring.llm.reranker import LLMReranker
from rerank_plus.scoring.llm.usage import CallUsage, Usage

__all__ = [
    "CallUsage",
    "ChatModel",
    "Completion",
    "LLMCallError",
    "LLMReranker",
    "OpenAICompatibleChat",
    "Prompt",
    "PromptTemplate",
    "RetryableLLMError",
    "Usage",
]
