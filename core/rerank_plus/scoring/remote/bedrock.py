"""Amazon Bedrock's rerank models (``amazon.rerank-v1:0``, ``cohere.rerank-v3-5:0``) through
boto3's ``bedrock-agent-runtime`` ``Rerank`` operation.

Credentials come from boto3's own provider chain (environment, shared files, instance role);
this module never reads or logs them. The request shape follows the operation's service model
in botocore (``bedrock-agent-runtime/.../service-2.json``): at most 1,000 sources per request,
so longer lists are split and merged.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from rerank_plus.errors import MissingExtraError
from rerank_plus.reranker import Reranker, Scores

#: The most sources one ``Rerank`` request may carry (``RerankSourcesList`` max in botocore).
MAX_SOURCES = 1000


def model_arn(model: str, region: str) -> str:
    """The foundation-model ARN Bedrock wants; a model id without version gets ``:0``.

    >>> model_arn("amazon.rerank-v1", "us-west-2")
    'arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0'
    """
    if model.startswith("arn:"):
        return model
    model_id = model if ":" in model else f"{model}:0"
    return f"arn:aws:bedrock:{region}::foundation-model/{model_id}"


def rerank_request(query: str, documents: Sequence[str], arn: str) -> dict[str, Any]:
    """The keyword arguments of one ``client.rerank(...)`` call asking for every document."""
    return {
        "queries": [{"type": "TEXT", "textQuery": {"text": query}}],
        "sources": [
            {
                "type": "INLINE",
                "inlineDocumentSource": {"type": "TEXT", "textDocument": {"text": d}},
            }
            for d in documents
        ],
        "rerankingConfiguration": {
            "type": "BEDROCK_RERANKING_MODEL",
            "bedrockRerankingConfiguration": {
                "modelConfiguration": {"modelArn": arn},
                "numberOfResults": len(documents),
            },
        },
    }


class BedrockReranker(Reranker):
    """Rerank with a Bedrock rerank model; ``client`` defaults to
    ``boto3.client("bedrock-agent-runtime", region_name=region)``.

    ``relevance_score`` and ``score`` are both Bedrock's ``relevanceScore``.
    """

    def __init__(
        self, model: str | None = None, region: str | None = None, client: Any = None
    ) -> None:
        model = model or "amazon.rerank-v1:0"
        if client is None:
            try:
                import boto3
            except ImportError as error:
                raise MissingExtraError("boto3", "bedrock", "The awsbedrock provider") from error
            from botocore.exceptions import NoRegionError

            try:
                client = boto3.client(
                    "bedrock-agent-runtime", region_name=region or os.environ.get("AWS_REGION")
                )
            except NoRegionError as error:
                raise ValueError(
                    'Bedrock needs a region: add "region" to the options or set AWS_REGION; '
                    "credentials come from boto3's usual chain (AWS_ACCESS_KEY_ID and "
                    "AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or an instance role)."
                ) from error
        self.client = client
        self.region = region or client.meta.region_name
        self.model = model
        self.arn = model_arn(model, self.region)

    def __repr__(self) -> str:
        return f"BedrockReranker(model={self.model!r}, region={self.region!r})"

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        scores = [0.0] * len(documents)
        for start in range(0, len(documents), MAX_SOURCES):
            chunk = documents[start : start + MAX_SOURCES]
            answer = self.client.rerank(**rerank_request(query, chunk, self.arn))
            for result in answer["results"]:
                scores[start + int(result["index"])] = float(result["relevanceScore"])
        relevance = [min(1.0, max(0.0, value)) for value in scores]
        explanations = (
            [{"provider": "awsbedrock", "model": self.model, "score": v} for v in scores]
            if explain
            else None
        )
        return Scores(scores, relevance, explanations)
