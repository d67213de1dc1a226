"""Take the LLM the user already has: a LangChain chat model, a LlamaIndex LLM, or any
:class:`ChatModel`.

Framework objects are recognized by their base class, looked up in ``sys.modules`` only: an
object of a framework means that framework is already imported, so the core itself never
imports one. The wrappers live in the adapter packages.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, cast

from rerank_plus.scoring.llm.protocol import ChatModel

#: (module of the framework's base class, its name, module and class of our wrapper)
_FRAMEWORKS = (
    (
        "langchain_core.language_models.chat_models",
        "BaseChatModel",
        "langchain_rerank_plus.llm",
        "LangChainChat",
    ),
    ("llama_index.core.base.llms.base", "BaseLLM", "llamaindex_rerank_plus.llm", "LlamaIndexChat"),
)


def as_chat_model(llm: Any) -> ChatModel:
    """``llm`` as a :class:`ChatModel`: wrapped when it is a framework's model, else as is."""
    for module_name, base_name, wrapper_module, wrapper_name in _FRAMEWORKS:
        module = sys.modules.get(module_name)
        base = getattr(module, base_name, None)
        if base is not None and isinstance(llm, base):
            wrapper = getattr(importlib.import_module(wrapper_module), wrapper_name)
            return cast(ChatModel, wrapper(llm))
    if isinstance(llm, ChatModel):
        return llm
    raise TypeError(
        f"llm is {type(llm).__name__}, not a model the LLM reranker can call. Pass a LangChain "
        "chat model (ChatOpenAI(...)), a LlamaIndex LLM (OpenAI(...)), "
        "OpenAICompatibleChat(model=..., base_url=...), or an object with model_name and "
        "complete(prompt, *, max_tokens, logprobs)."
    )
