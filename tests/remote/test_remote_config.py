"""Remote providers in from_config, and the seed platform's configuration verbatim."""

from __future__ import annotations

import pytest
from rerank_plus import Pipeline, from_config
from rerank_plus.scoring.remote import PROVIDERS, RemoteReranker

SEED = {"rerank": {"provider": "awsbedrock", "modelName": "amazon.rerank-v1", "k": 3,
                   "relevanceScore": 0.3}}  # fmt: skip


@pytest.mark.parametrize("config", [{"chat": SEED}, SEED])
def test_the_seed_configuration_loads_verbatim(config, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("boto3")
    monkeypatch.setenv("AWS_REGION", "eu-central-1")
    pipeline = from_config(config)
    assert isinstance(pipeline, Pipeline)
    assert (pipeline.top_n, pipeline.threshold) == (3, 0.3)
    assert pipeline.reranker.arn == (  # type: ignore[attr-defined]
        "arn:aws:bedrock:eu-central-1::foundation-model/amazon.rerank-v1:0"
    )


@pytest.mark.parametrize("name", sorted(PROVIDERS))
def test_every_http_provider_builds_with_its_defaults(name: str) -> None:
    pipeline = from_config({"rerank": {"provider": name, "modelName": "m", "k": 2}})
    remote = pipeline.reranker
    assert isinstance(remote, RemoteReranker)
    provider = PROVIDERS[name]
    assert (remote.url, remote.wire.name, remote.api_key_env, remote.model) == (
        provider.url, provider.protocol, provider.api_key_env, "m"
    )  # fmt: skip


def test_full_shape_overrides_url_and_key_variable() -> None:
    pipeline = from_config(
        {"reranker": {"provider": "tei", "url": "http://127.0.0.1:3000/rerank",
                      "api_key_env": "TEI_KEY", "max_documents": 8}}
    )  # fmt: skip
    remote = pipeline.reranker
    assert isinstance(remote, RemoteReranker)
    assert (remote.url, remote.api_key_env, remote.max_documents) == (
        "http://127.0.0.1:3000/rerank", "TEI_KEY", 8
    )  # fmt: skip


def test_hosted_providers_need_a_model() -> None:
    with pytest.raises(ValueError, match=r"provider 'cohere' needs \"modelName\""):
        from_config({"rerank": {"provider": "cohere"}})


def test_unknown_options_and_providers_list_the_valid_ones() -> None:
    with pytest.raises(
        ValueError,
        match="Unknown option 'apikey' for reranker 'jina'; valid options: model, url, api_key, "
        "api_key_env",
    ):
        from_config({"reranker": {"provider": "jina", "model": "m", "apikey": "x"}})
    with pytest.raises(
        ValueError, match=r"Unknown rerank provider 'openai'; choose one of .*awsbedrock"
    ):
        from_config({"rerank": {"provider": "openai"}})


def test_chat_holds_only_rerank() -> None:
    with pytest.raises(ValueError, match="Unknown key 'llm' in \"chat\"; valid keys: rerank"):
        from_config({"chat": {"rerank": {"provider": "bm25"}, "llm": {}}})
    with pytest.raises(ValueError, match="Unknown key 'profile' in the configuration"):
        from_config({"chat": SEED, "profile": "detail"})
