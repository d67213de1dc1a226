"""Rerankers that call a rerank API: hosted (Cohere, Jina, Voyage, Bedrock) or self-hosted
(TEI, Infinity, vLLM, another rerank-plus server). Needs the ``remote`` extra (httpx), or
``bedrock`` (boto3) for Bedrock."""

from rerank_plus.scoring.remote.bedrock import BedrockReranker
from rerank_plus.scoring.remote.client import RemoteReranker, RemoteRerankError
from rerank_plus.scoring.remote.protocols import PROTOCOLS, WireProtocol
from rerank_plus.scoring.remote.providers import PROVIDERS
from rerank_plus.scoring.remote.retry import RetryPolicy

__all__ = [
    "PROTOCOLS",
    "PROVIDERS",
    "BedrockReranker",
    "RemoteRerankError",
    "RemoteReranker",
    "RetryPolicy",
    "WireProtocol",
]
