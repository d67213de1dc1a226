"""The remote reranker kinds a configuration may name as ``provider``, with their defaults.

``{"rerank": {"provider": "cohere", "modelName": "rerank-v3.5"}}`` becomes
``RemoteReranker("https://api.cohere.com/v2/rerank", "cohere", "rerank-v3.5", "CO_API_KEY")``;
``url``, ``api_key``/``api_key_env``, ``timeout``, ``max_documents``, ``max_retries``,
``truncate`` and ``max_tokens_per_doc`` may be given to override; code may also give ``client``
and ``async_client`` (``httpx`` clients of its own).
Self-hosted servers (tei, infinity, vllm, rerank-plus) default to their usual local port.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rerank_plus.compose.kinds import Option
from rerank_plus.reranker import Reranker


@dataclass(frozen=True, slots=True)
class Provider:
    """Where a provider listens by default, which protocol it speaks, which key it needs, and
    the name of the adapters' ready class for it."""

    url: str
    protocol: str
    api_key_env: str | None
    needs_model: bool
    ready_class: str


PROVIDERS: dict[str, Provider] = {
    "cohere": Provider(
        "https://api.cohere.com/v2/rerank", "cohere", "CO_API_KEY", True, "CohereAPIRerank"
    ),
    "jina": Provider(
        "https://api.jina.ai/v1/rerank", "jina", "JINA_API_KEY", True, "JinaAPIRerank"
    ),
    "voyage": Provider(
        "https://api.voyageai.com/v1/rerank", "voyage", "VOYAGE_API_KEY", True, "VoyageAPIRerank"
    ),
    "tei": Provider("http://127.0.0.1:8080/rerank", "tei", None, False, "TEIRerank"),
    "infinity": Provider("http://127.0.0.1:7997/rerank", "cohere", None, True, "InfinityRerank"),
    "vllm": Provider("http://127.0.0.1:8000/v2/rerank", "cohere", None, True, "VLLMRerank"),
    "rerank-plus": Provider(
        "http://127.0.0.1:8080/v2/rerank", "cohere", None, False, "RerankPlusServerRerank"
    ),
}

_REMOTE_OPTIONS = (
    Option("model", str | None, None, "The provider's model name."),
    Option("url", str | None, None, "The rerank endpoint; None: the provider's default."),
    Option("api_key", str | None, None, "The API key; None: read api_key_env.", secret=True),
    Option("api_key_env", str | None, None, "Environment variable with the API key."),
    Option("timeout", float | None, None, "Seconds per request; None: 30."),
    Option("max_documents", int | None, None, "Documents per request; None: the protocol's."),
    Option("max_retries", int | None, None, "Retries on 408/429/5xx and errors; None: 3."),
    Option("truncate", bool | None, None, "Cut too-long documents (TEI, Voyage); None: theirs."),
    Option("max_tokens_per_doc", int | None, None, "Cohere protocol's tokens per document."),
    Option("client", object | None, None, "An httpx.Client to send with.", in_code=True),
    Option("async_client", object | None, None, "An httpx.AsyncClient for arank.", in_code=True),
)

#: The options passed to :class:`RemoteReranker` as they are, when given.
_PASSED = (
    "api_key",
    "max_documents",
    "max_retries",
    "truncate",
    "max_tokens_per_doc",
    "client",
    "async_client",
)


def _remote(name: str) -> Callable[..., Reranker]:
    def build(**options: Any) -> Reranker:
        from rerank_plus.scoring.remote.client import RemoteReranker

        provider = PROVIDERS[name]
        if provider.needs_model and not options.get("model"):
            raise TypeError(f'provider {name!r} needs "modelName" (the model to rerank with)')
        return RemoteReranker(
            options.get("url", provider.url),
            provider.protocol,
            options.get("model"),
            options.get("api_key_env", provider.api_key_env),
            timeout=options.get("timeout", 30.0),
            **{name: options[name] for name in _PASSED if name in options},
        )

    build.__qualname__ = f"remote-{name}"
    return build


def remote_kind(name: str) -> dict[str, Any]:
    """The :func:`register_kind` arguments of remote provider ``name``."""
    provider = PROVIDERS[name]
    return {
        "name": name,
        "factory": _remote(name),
        "options": _REMOTE_OPTIONS,
        "ready_class": provider.ready_class,
        "summary": f"Reranking by a {name} rerank API ({provider.protocol} protocol) over HTTP; "
        "needs the 'remote' extra"
        + (f" and the key in ${provider.api_key_env}." if provider.api_key_env else "."),
    }


def bedrock_kind() -> dict[str, Any]:
    """The :func:`register_kind` arguments of ``awsbedrock`` (boto3, the 'bedrock' extra)."""
    return {
        "name": "awsbedrock",
        "factory": "rerank_plus.scoring.remote.bedrock:BedrockReranker",
        "options": (
            Option("model", str | None, None, "Bedrock model id; None: amazon.rerank-v1:0."),
            Option("region", str | None, None, "AWS region; None: AWS_REGION or boto3's."),
        ),
        "ready_class": "BedrockRerank",
        "summary": "Reranking by an Amazon Bedrock rerank model; needs the 'bedrock' extra and "
        "AWS credentials from boto3's usual chain.",
    }
