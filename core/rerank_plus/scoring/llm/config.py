"""``from_config`` providers ``llm-listwise`` and ``llm-pointwise``: plain options in, a reranker
out. An ``llm`` object is used as given; otherwise ``model`` (with ``base_url``, ``api_key_env``,
``timeout``) names a model on an OpenAI-compatible endpoint.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rerank_plus.scoring.llm.openai_compatible import OpenAICompatibleChat
from rerank_plus.scoring.llm.reranker import LLMReranker

ENDPOINT_OPTIONS = ("base_url", "api_key_env", "timeout", "temperature", "extra_body")


def build_llm_reranker(mode: str, options: Mapping[str, Any]) -> LLMReranker:
    """``{"model": "gpt-4o-mini", "window_size": 20}`` -> an LLMReranker on that endpoint.

    >>> build_llm_reranker("listwise", {"model": "m", "base_url": "http://127.0.0.1:8000/v1"}).model
    'm'
    """
    settings = dict(options)
    llm = settings.pop("llm", None)
    endpoint = {name: settings.pop(name) for name in ENDPOINT_OPTIONS if name in settings}
    model = settings.pop("model", None)
    if llm is None:
        if model is None:
            raise ValueError(
                f'The llm-{mode} provider needs "model" (a model on an OpenAI-compatible '
                'endpoint, with "base_url" and "api_key_env") or an "llm" object.'
            )
        llm = OpenAICompatibleChat(model, **endpoint)
    elif model is not None or endpoint:
        raise ValueError('Give either an "llm" object or "model" with endpoint options, not both.')
    return LLMReranker(llm, mode, **settings)
