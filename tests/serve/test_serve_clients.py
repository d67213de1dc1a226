"""Real clients against the real server: the official Cohere SDK, LangChain's and LlamaIndex's
Cohere rerankers, and RemoteReranker in every protocol all get the in-process ranking."""

from __future__ import annotations

import pytest
from live_server import API_KEY, LiveServer
from rerank_plus import BM25Reranker
from rerank_plus.scoring.remote import RemoteReranker, RemoteRerankError, RetryPolicy

QUERY = "Where do marathon runners train?"
DOCS = [
    "Marathon runners train on long roads for months.",
    "Die Marathonläufer trainieren im Stadtpark von Berlin.",
    "The cat sat on the mat.",
    "Les coureurs de marathon s'entraînent sur la piste.",
    "🏃‍♀️🏃🏃‍♂️",
    "Runners train; marathon runners train harder.",
    "",
]
KEY_ENV = "RERANK_PLUS_TEST_CLIENT_KEY"


@pytest.fixture(scope="module")
def expected() -> list[tuple[int, float]]:
    return [(r.index, r.relevance_score) for r in BM25Reranker().rank(QUERY, DOCS)]


@pytest.fixture
def key_in_env(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    return KEY_ENV


@pytest.mark.parametrize(
    ("protocol", "path"), [("cohere", "/v2/rerank"), ("jina", "/v1/rerank"), ("tei", "/rerank")]
)
def test_remote_reranker_returns_what_the_in_process_one_does(
    live_server: LiveServer,
    key_in_env: str,
    expected: list[tuple[int, float]],
    protocol: str,
    path: str,
) -> None:
    # One request per list: BM25 reads its statistics from the candidates, so it is not
    # pointwise and a split list would score differently (tests/remote checks splitting).
    remote = RemoteReranker(live_server.url + path, protocol, "bm25", key_in_env)
    results = remote.rank(QUERY, DOCS)
    assert [(r.index, r.relevance_score) for r in results] == expected
    assert [r.index for r in remote.rank(QUERY, DOCS, top_n=2)] == [i for i, _ in expected[:2]]
    remote.close()


async def test_async_rank_matches(
    live_server: LiveServer, key_in_env: str, expected: list[tuple[int, float]]
) -> None:
    remote = RemoteReranker(live_server.url + "/rerank", "tei", None, key_in_env)
    results = await remote.arank(QUERY, DOCS, threshold=0.01)
    assert [(r.index, r.relevance_score) for r in results] == [
        pair for pair in expected if pair[1] >= 0.01
    ]
    assert await remote.arank(QUERY, []) == []


def test_remote_reranker_checks_input_before_any_request(key_in_env: str) -> None:
    # Port 9 (discard) on loopback: nothing may be sent, so nothing needs to listen.
    remote = RemoteReranker("http://127.0.0.1:9/v2/rerank", api_key_env=key_in_env)
    assert remote.rank(QUERY, []) == []
    with pytest.raises(TypeError, match=r"documents\[1\] is int"):
        remote.rank(QUERY, ["a", 3])  # type: ignore[list-item]


def test_a_refused_key_fails_at_once_without_leaking_it(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "not-the-key-0123")
    remote = RemoteReranker(
        live_server.url + "/v2/rerank", api_key_env=KEY_ENV, retry=RetryPolicy(attempts=3)
    )
    with pytest.raises(RemoteRerankError, match="HTTP 401") as caught:
        remote.rank(QUERY, DOCS)
    assert "not-the-key-0123" not in str(caught.value) + repr(remote)


def test_a_missing_key_variable_says_which(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    remote = RemoteReranker("http://127.0.0.1:9/v2/rerank", api_key_env=KEY_ENV)
    with pytest.raises(RemoteRerankError, match=f"environment variable {KEY_ENV} holds no"):
        remote.rank(QUERY, DOCS)


def test_the_official_cohere_sdk_gets_the_same_order(
    live_server: LiveServer, expected: list[tuple[int, float]]
) -> None:
    cohere = pytest.importorskip("cohere")
    client = cohere.ClientV2(api_key=API_KEY, base_url=live_server.url)
    answer = client.rerank(model="bm25", query=QUERY, documents=DOCS, top_n=4)
    assert [(r.index, r.relevance_score) for r in answer.results] == expected[:4]


def test_langchain_cohere_rerank_gets_the_same_order(
    live_server: LiveServer, expected: list[tuple[int, float]]
) -> None:
    langchain_cohere = pytest.importorskip("langchain_cohere")
    from langchain_core.documents import Document

    compressor = langchain_cohere.CohereRerank(
        model="bm25", cohere_api_key=API_KEY, base_url=live_server.url, top_n=3
    )
    documents = [Document(page_content=d, metadata={"n": i}) for i, d in enumerate(DOCS)]
    kept = compressor.compress_documents(documents, QUERY)
    assert [d.metadata["n"] for d in kept] == [i for i, _ in expected[:3]]
    assert [d.metadata["relevance_score"] for d in kept] == [s for _, s in expected[:3]]


def test_llamaindex_cohere_rerank_gets_the_same_order(
    live_server: LiveServer, expected: list[tuple[int, float]]
) -> None:
    module = pytest.importorskip("llama_index.postprocessor.cohere_rerank")
    from llama_index.core.schema import NodeWithScore, TextNode

    reranker = module.CohereRerank(model="bm25", api_key=API_KEY, base_url=live_server.url, top_n=3)
    nodes = [
        NodeWithScore(node=TextNode(text=d, id_=str(i)), score=0.5) for i, d in enumerate(DOCS)
    ]
    kept = reranker.postprocess_nodes(nodes, query_str=QUERY)
    assert [int(n.node.node_id) for n in kept] == [i for i, _ in expected[:3]]
    assert [n.score for n in kept] == [s for _, s in expected[:3]]
