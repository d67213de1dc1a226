"""The awsbedrock provider. No Bedrock endpoint is reachable from the tests, so the request it
builds is checked with botocore's Stubber: the parameters are validated against the
bedrock-agent-runtime service model, and the stubbed answer is ranked as Bedrock's would be."""

from __future__ import annotations

import pytest
from rerank_plus.scoring.remote.bedrock import BedrockReranker, rerank_request

boto3 = pytest.importorskip("boto3", reason="the awsbedrock provider needs the 'bedrock' extra")
from botocore.stub import Stubber  # noqa: E402

ARN = "arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0"


@pytest.fixture
def client():
    return boto3.client(
        "bedrock-agent-runtime",
        region_name="us-west-2",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )


def answer(scores: dict[int, float]) -> dict:
    ordered = sorted(scores.items(), key=lambda item: -item[1])
    return {"results": [{"index": i, "relevanceScore": s} for i, s in ordered]}


def test_rerank_request_and_ranking(client) -> None:
    docs = ["Paris is in France.", "Berlin is in Germany.", "Le Louvre 🖼️"]
    with Stubber(client) as stub:
        stub.add_response(
            "rerank", answer({0: 0.91, 1: 0.05, 2: 0.4}), rerank_request("France?", docs, ARN)
        )
        reranker = BedrockReranker("amazon.rerank-v1", client=client)
        results = reranker.rank("France?", docs, top_n=2)
        stub.assert_no_pending_responses()
    assert reranker.arn == ARN
    assert [(r.index, r.relevance_score) for r in results] == [(0, 0.91), (2, 0.4)]


def test_more_than_a_thousand_sources_are_split(client) -> None:
    docs = [f"doc {i}" for i in range(1001)]
    with Stubber(client) as stub:
        stub.add_response(
            "rerank",
            answer({i: i / 2000 for i in range(1000)}),
            rerank_request("q", docs[:1000], ARN),
        )
        stub.add_response("rerank", answer({0: 0.99}), rerank_request("q", docs[1000:], ARN))
        results = BedrockReranker("amazon.rerank-v1:0", client=client).rank("q", docs, top_n=2)
        stub.assert_no_pending_responses()
    assert [r.index for r in results] == [1000, 999]


def test_a_region_is_required_and_the_message_says_how(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_CONFIG_FILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    with pytest.raises(ValueError, match='add "region" to the options or set AWS_REGION'):
        BedrockReranker()
