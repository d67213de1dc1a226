"""The remote ``provider`` names a configuration may use, with each one's defaults.

``{"rerank": {"provider": "cohere", "modelName": "rerank-v3.5"}}`` becomes
``RemoteReranker("https://api.cohere.com/v2/rerank", "cohere", "rerank-v3.5", "CO_API_KEY")``;
``url``, ``api_key_env``, ``timeout`` and ``max_documents`` may be given to override.
Self-hosted servers (tei, infinity, vllm, rerank-plus) default to their usual local port.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rerank_plus.reranker import Reranker


@dataclass(frozen=True, slots=True)
class Provider:
    """Where a provider listens by default, which protocol it speaks, which key it needs."""

    url: str
    protocol: str
    api_key_env: str | None
    needs_model: bool


PROVIDERS: dict[str, Provider] = {
    "cohere": Provider("https://api.cohere.com/v2/rerank", "cohere", "CO_API_KEY", True),
    "jina": Provider("https://api.jina.ai/v1/rerank", "jina", "JINA_API_KEY", True),
    "voyage": Provider("https://api.voyageai.com/v1/rerank", "voyage", "VOYAGE_API_KEY", True),
    "tei": Provider("http://127.0.0.1:8080/rerank", "tei", None, False),
    "infinity": Provider("http://127.0.0.1:7997/rerank", "cohere", None, True),
    "vllm": Provider("http://127.0.0.1:8000/v2/rerank", "cohere", None, True),
    "rerank-plus": Provider("http://127.0.0.1:8080/v2/rerank", "cohere", None, False),
}

_OPTIONS = ("api_key_env", "max_documents", "model", "timeout", "url")


def remote(name: str) -> Callable[[Mapping[str, Any]], Reranker]:
    """The builder the reranker registry calls for provider ``name``."""

    def build(options: Mapping[str, Any]) -> Reranker:
        from rerank_plus.scoring.remote.client import RemoteReranker

        provider = PROVIDERS[name]
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r}; valid: {', '.join(_OPTIONS)}")
        if provider.needs_model and not options.get("model"):
            raise TypeError(f'provider {name!r} needs "modelName" (the model to rerank with)')
        return RemoteReranker(
            options.get("url", provider.url),
            provider.protocol,
            options.get("model"),
            options.get("api_key_env", provider.api_key_env),
            timeout=options.get("timeout", 30.0),
            max_documents=options.get("max_documents"),
        )

    return build


def bedrock(options: Mapping[str, Any]) -> Reranker:
    """The ``awsbedrock`` builder: ``model`` and ``region`` (else boto3's configured region)."""
    from rerank_plus.scoring.remote.bedrock import BedrockReranker

    return BedrockReranker(**options)
