"""The hosted-provider options against a scripted server: a key given directly (sent, never
shown), injected httpx clients, the retry count, truncation per protocol, and the same options
as fields of the LlamaIndex and LangChain ready classes (the key a ``SecretStr``, never
serialized)."""

from __future__ import annotations

import httpx
import pytest
from pydantic import SecretStr
from rerank_plus import from_config
from rerank_plus.compose.presets import KINDS, build_reranker
from rerank_plus.scoring.remote import RemoteReranker, RemoteRerankError, RetryPolicy
from scripted_server import cohere_answer, pointwise_score

KEY = "sk-test-0123456789"
DOCS = ["alpha", "a much longer document", "x"]
NO_WAIT = RetryPolicy(attempts=4, base_delay=0.0, jitter=False)


def answer_for(protocol: str):
    """A scripted server's answer in ``protocol``'s shape, scoring as cohere_answer does."""

    def script(n, body):
        if protocol == "cohere":
            return cohere_answer(body)
        texts = body["texts"] if protocol == "tei" else body["documents"]
        scores = [pointwise_score(t) for t in texts]
        if protocol == "tei":
            return 200, {}, [{"index": i, "score": s} for i, s in enumerate(scores)]
        items = [{"index": i, "relevance_score": s} for i, s in enumerate(scores)]
        return 200, {}, {"data" if protocol == "voyage" else "results": items}

    return script


def test_a_given_key_is_sent_but_never_shown(scripted_server) -> None:
    server = scripted_server(answer_for("cohere"))
    reranker = RemoteReranker(server.url, "cohere", api_key=KEY)
    reranker.rank("q", DOCS)
    assert server.headers[0]["Authorization"] == f"Bearer {KEY}"
    assert KEY not in repr(reranker)


def test_a_given_key_wins_over_the_environment_variable(scripted_server, monkeypatch) -> None:
    monkeypatch.setenv("CO_API_KEY", "from-the-environment")
    server = scripted_server(answer_for("cohere"))
    build_reranker("cohere", model="m", url=server.url, api_key=KEY).rank("q", DOCS)
    assert server.headers[0]["Authorization"] == f"Bearer {KEY}"


def test_the_key_stays_out_of_refusals_and_give_ups(scripted_server) -> None:
    refusing = scripted_server(lambda n, body: (401, {}, {"message": "invalid api token"}))
    with pytest.raises(RemoteRerankError, match="HTTP 401") as refused:
        RemoteReranker(refusing.url, "cohere", api_key=KEY).rank("q", DOCS)
    failing = scripted_server(lambda n, body: (503, {}, {"message": "busy"}))
    with pytest.raises(RemoteRerankError, match="failed 1 times") as gave_up:
        RemoteReranker(failing.url, "cohere", api_key=KEY, max_retries=0).rank("q", DOCS)
    assert KEY not in str(refused.value) + str(gave_up.value)


@pytest.mark.parametrize("bad", ["", "   ", 42])
def test_an_empty_or_non_string_key_is_refused(bad) -> None:
    with pytest.raises(ValueError, match="api_key must be a non-empty string"):
        RemoteReranker("http://127.0.0.1:9/rerank", api_key=bad)


def test_the_injected_client_sends_and_stays_open(scripted_server) -> None:
    server = scripted_server(answer_for("cohere"))
    sent: list[str] = []
    with httpx.Client(
        headers={"X-Trace": "mine"}, event_hooks={"request": [lambda r: sent.append(str(r.url))]}
    ) as client:
        reranker = RemoteReranker(server.url, "cohere", client=client)
        results = reranker.rank("q", DOCS)
        reranker.close()
        assert not client.is_closed  # the owner closes it
    assert sent == [server.url]
    assert server.headers[0]["X-Trace"] == "mine"
    assert [r.index for r in results] == [0, 1, 2]


async def test_the_injected_async_client_sends_arank(scripted_server) -> None:
    server = scripted_server(answer_for("cohere"))
    sent: list[str] = []

    async def record(request: httpx.Request) -> None:
        sent.append(str(request.url))

    async with httpx.AsyncClient(event_hooks={"request": [record]}) as client:
        reranker = RemoteReranker(server.url, "cohere", async_client=client, max_documents=2)
        results = await reranker.arank("q", DOCS)
        assert not client.is_closed
    assert sent == [server.url, server.url]  # two chunks, both through the given client
    assert [r.index for r in results] == [0, 1, 2]


def test_a_client_of_the_wrong_kind_is_named() -> None:
    with pytest.raises(TypeError, match=r"^client must be an httpx\.Client, got AsyncClient"):
        RemoteReranker("http://127.0.0.1:9/rerank", client=httpx.AsyncClient())
    with pytest.raises(TypeError, match=r"async_client must be an httpx\.AsyncClient, got str"):
        RemoteReranker("http://127.0.0.1:9/rerank", async_client="http://proxy")


@pytest.mark.parametrize("retries", [0, 1, 3])
def test_max_retries_counts_the_tries_after_the_first(scripted_server, retries: int) -> None:
    server = scripted_server(lambda n, body: (503, {}, {"message": "busy"}))
    with pytest.raises(RemoteRerankError, match=f"failed {retries + 1} times"):
        RemoteReranker(server.url, "cohere", retry=NO_WAIT, max_retries=retries).rank("q", DOCS)
    assert len(server.bodies) == retries + 1


def test_max_retries_through_the_kind(scripted_server) -> None:
    server = scripted_server(lambda n, body: (502, {}, {}) if n < 3 else cohere_answer(body))
    reranker = build_reranker("cohere", model="m", url=server.url, api_key=KEY, max_retries=2)
    assert [r.index for r in reranker.rank("q", DOCS)] == [0, 1, 2]
    assert len(server.bodies) == 3


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_a_bad_retry_count_is_refused(bad) -> None:
    with pytest.raises(ValueError, match="max_retries must be an int of at least 0"):
        RemoteReranker("http://127.0.0.1:9/rerank", max_retries=bad)


@pytest.mark.parametrize(
    ("provider", "options", "field"),
    [
        ("cohere", {"max_tokens_per_doc": 512}, {"max_tokens_per_doc": 512}),
        ("tei", {"truncate": True}, {"truncate": True}),
        ("voyage", {"truncate": False}, {"truncation": False}),
    ],
)
def test_truncation_goes_in_each_protocols_own_field(
    scripted_server, provider: str, options: dict, field: dict
) -> None:
    server = scripted_server(answer_for(provider))
    build_reranker(provider, model="m", url=server.url, api_key=KEY, **options).rank("q", DOCS)
    (body,) = server.bodies
    assert {key: body[key] for key in field} == field


def test_without_truncation_options_the_body_has_no_truncation_field(scripted_server) -> None:
    server = scripted_server(answer_for("tei"))
    build_reranker("tei", url=server.url).rank("q", DOCS)
    assert not {"truncate", "truncation", "max_tokens_per_doc"} & set(server.bodies[0])


@pytest.mark.parametrize(
    ("protocol", "options", "message"),
    [
        ("cohere", {"truncate": True}, "cohere protocol has no truncation switch; leave truncate "
         "None, or set max_tokens_per_doc"),
        ("jina", {"truncate": True}, "jina protocol has no truncation switch; leave truncate None"),
        ("tei", {"max_tokens_per_doc": 64}, "tei protocol has no token limit per document; leave "
         "max_tokens_per_doc None, or set truncate"),
        ("tei", {"truncate": "yes"}, "truncate must be True, False or None, got 'yes'"),
        ("cohere", {"max_tokens_per_doc": 0}, "max_tokens_per_doc must be an int of at least 1"),
    ],
)  # fmt: skip
def test_truncation_a_protocol_lacks_is_refused(protocol: str, options: dict, message: str):
    with pytest.raises(ValueError, match=message):
        RemoteReranker("http://127.0.0.1:9/rerank", protocol, **options)


def test_a_configuration_may_give_the_key_and_the_new_options(scripted_server) -> None:
    server = scripted_server(answer_for("voyage"))
    pipeline = from_config(
        {"reranker": {"provider": "voyage", "model": "rerank-2.5", "url": server.url,
                      "api_key": KEY, "max_retries": 0, "truncate": True}}
    )  # fmt: skip
    pipeline.reranker.rank("q", DOCS)
    assert server.headers[0]["Authorization"] == f"Bearer {KEY}"
    assert server.bodies[0]["truncation"] is True


def test_an_in_code_option_is_refused_on_the_command_line() -> None:
    with pytest.raises(ValueError, match="option client takes an object given in code"):
        KINDS["cohere"].option("client").parse("http://proxy")


# -- the ready classes ----------------------------------------------------------------------


@pytest.mark.parametrize("key", [KEY, SecretStr(KEY)])
def test_the_llamaindex_ready_class_takes_a_secret_key(scripted_server, monkeypatch, key):
    from llama_index.core.schema import NodeWithScore, TextNode

    from llamaindex_rerank_plus import CohereAPIRerank

    server = scripted_server(answer_for("cohere"))
    with httpx.Client() as client:
        rerank = CohereAPIRerank(
            model="rerank-v3.5", url=server.url, api_key=key, client=client, max_retries=1,
            max_tokens_per_doc=256, top_n=2,
        )  # fmt: skip
        assert isinstance(rerank.api_key, SecretStr)
        nodes = [NodeWithScore(node=TextNode(text=t), score=1.0) for t in DOCS]
        kept = rerank.postprocess_nodes(nodes, query_str="q")
        assert [n.node.get_content() for n in kept] == DOCS[:2]
        assert rerank.reranker._client is client
    assert server.headers[0]["Authorization"] == f"Bearer {KEY}"
    assert server.bodies[0]["max_tokens_per_doc"] == 256
    saved = rerank.to_json()
    assert KEY not in saved + repr(rerank) + str(rerank.to_dict())
    assert "api_key" not in rerank.to_dict() and "client" not in rerank.to_dict()
    monkeypatch.setenv("CO_API_KEY", "from-the-environment")
    rebuilt = CohereAPIRerank.from_json(saved)
    assert (rebuilt.max_retries, rebuilt.max_tokens_per_doc, rebuilt.api_key) == (1, 256, None)
    rebuilt.postprocess_nodes(nodes, query_str="q")
    assert server.headers[1]["Authorization"] == "Bearer from-the-environment"


@pytest.mark.parametrize("key", [KEY, SecretStr(KEY)])
def test_the_langchain_ready_class_takes_a_secret_key(scripted_server, monkeypatch, key):
    from langchain_core.documents import Document

    from langchain_rerank_plus import TEIRerank

    server = scripted_server(answer_for("tei"))
    rerank = TEIRerank(url=server.url, api_key=key, truncate=True, max_retries=0)
    assert isinstance(rerank.api_key, SecretStr)
    kept = rerank.compress_documents([Document(page_content=t) for t in DOCS], "q")
    assert [d.page_content for d in kept] == DOCS
    assert server.headers[0]["Authorization"] == f"Bearer {KEY}"
    assert server.bodies[0]["truncate"] is True
    dumped = rerank.model_dump()
    assert KEY not in rerank.model_dump_json() + repr(rerank) + str(dumped)
    assert "api_key" not in dumped
    monkeypatch.setenv("TEI_KEY", "from-the-environment")
    rebuilt = TEIRerank.model_validate_json(rerank.model_copy(update={"api_key_env": "TEI_KEY"})
                                            .model_dump_json())  # fmt: skip
    assert (rebuilt.truncate, rebuilt.max_retries, rebuilt.api_key) == (True, 0, None)
    rebuilt.compress_documents([Document(page_content=t) for t in DOCS], "q")
    assert server.headers[1]["Authorization"] == "Bearer from-the-environment"
