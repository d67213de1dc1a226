"""The LlamaIndex postprocessors in LlamaIndex's own pipelines, with real objects."""

from __future__ import annotations

import asyncio

import pytest
from llama_index.core.callbacks import CallbackManager, CBEventType
from llama_index.core.callbacks.base_handler import BaseCallbackHandler
from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events.rerank import ReRankEndEvent, ReRankStartEvent
from llama_index.core.schema import NodeWithScore, TextNode
from rerank_plus import BM25Reranker

from llamaindex_rerank_plus import BM25Rerank, RerankPlusRerank
from tests.adapters.conftest import TOP_K


def nodes_of(texts: list[str], scores: list[float | None] | None = None) -> list[NodeWithScore]:
    scores = scores or [1.0 - i / 100 for i in range(len(texts))]
    return [
        NodeWithScore(node=TextNode(text=t, metadata={"n": i}), score=s)
        for i, (t, s) in enumerate(zip(texts, scores, strict=True))
    ]


@pytest.mark.slow
def test_reranking_the_vector_top_20_puts_more_answers_first(xquad_en, llamaindex_index):
    retriever = llamaindex_index.as_retriever(similarity_top_k=TOP_K)
    reranker = BM25Rerank(top_n=5)
    dense_hits = rerank_hits = 0
    for query_id, query in xquad_en.queries.items():
        nodes = retriever.retrieve(query)
        answer = xquad_en.relevant[query_id]
        dense_hits += nodes[0].node.node_id == answer
        rerank_hits += reranker.postprocess_nodes(nodes, query_str=query)[0].node.node_id == answer
    assert rerank_hits > dense_hits, (rerank_hits, dense_hits)


@pytest.mark.slow
def test_same_order_as_the_core(xquad_en, llamaindex_index):
    retriever = llamaindex_index.as_retriever(similarity_top_k=TOP_K)
    core = BM25Reranker()
    for query in list(xquad_en.queries.values())[:10]:
        nodes = retriever.retrieve(query)
        expected = [r.index for r in core.rank(query, [n.node.get_content() for n in nodes])]
        got = BM25Rerank(top_n=None).postprocess_nodes(nodes, query_str=query)
        ids = [n.node.node_id for n in nodes]
        assert [ids.index(n.node.node_id) for n in got] == expected


@pytest.mark.slow
def test_query_engine_with_node_postprocessors(xquad_en, llamaindex_index):
    from llama_index.core.llms import MockLLM

    engine = llamaindex_index.as_query_engine(
        similarity_top_k=TOP_K, node_postprocessors=[BM25Rerank(top_n=3)], llm=MockLLM()
    )
    query = next(iter(xquad_en.queries.values()))
    response = engine.query(query)
    assert len(response.source_nodes) == 3
    scores = [n.score for n in response.source_nodes]
    assert scores == sorted(scores, reverse=True)


def test_async_matches_sync():
    nodes = nodes_of(["cats sleep", "marathon training plan", "river bank"])
    reranker = BM25Rerank(top_n=2)
    sync = reranker.postprocess_nodes(nodes, query_str="marathon training")
    asynchronous = asyncio.run(reranker.apostprocess_nodes(nodes, query_str="marathon training"))
    assert [n.node.text for n in asynchronous] == [n.node.text for n in sync]
    assert [n.score for n in asynchronous] == [n.score for n in sync]


def test_nodes_are_copied_not_mutated_and_metadata_is_kept():
    nodes = nodes_of(["cats sleep", "marathon training plan"], [0.9, 0.4])
    out = BM25Rerank(top_n=1, keep_retrieval_score=True).postprocess_nodes(
        nodes, query_str="marathon"
    )
    assert out[0].node.metadata == {"n": 1, "retrieval_score": 0.4}
    assert nodes[1].node.metadata == {"n": 1}
    assert nodes[1].score == 0.4
    assert out[0].node.node_id == nodes[1].node.node_id
    assert out[0].node is not nodes[1].node


def test_missing_query_is_a_clear_error():
    with pytest.raises(ValueError, match=r"call postprocess_nodes\(nodes, query_str=\.\.\.\)"):
        BM25Rerank().postprocess_nodes(nodes_of(["a"]))


def test_no_nodes_gives_no_nodes():
    assert BM25Rerank().postprocess_nodes([], query_str="q") == []


def test_empty_texts_and_missing_scores_are_kept():
    nodes = nodes_of(["", "marathon", "🙂"], [None, None, None])
    out = BM25Rerank(top_n=None).postprocess_nodes(nodes, query_str="marathon")
    assert [n.node.metadata["n"] for n in out] == [1, 0, 2]


def test_threshold_and_explanation_in_metadata():
    nodes = nodes_of(["cats sleep", "marathon training plan"])
    out = BM25Rerank(top_n=None, threshold=0.01, explain=True).postprocess_nodes(
        nodes, query_str="marathon"
    )
    assert len(out) == 1
    assert out[0].node.metadata["rerank_explanation"]["matched_terms"].keys() == {"marathon"}


def test_serialization_round_trip():
    reranker = BM25Rerank(top_n=4, k1=1.2, b=0.5, threshold=0.1, language="en")
    data = reranker.to_dict()
    assert data["class_name"] == "RerankPlusBM25Rerank"
    rebuilt = BM25Rerank.from_dict(data)
    assert rebuilt.to_dict() == data
    assert rebuilt.reranker.k1 == 1.2


def test_wrapping_any_core_reranker():
    reranker = RerankPlusRerank(reranker=BM25Reranker(language="fr"), top_n=1)
    out = reranker.postprocess_nodes(nodes_of(["Il courait vite", "Il mange"]), query_str="courir")
    assert out[0].node.text == "Il courait vite"


def test_rerank_events_and_callbacks_are_emitted():
    seen: list[type] = []

    class Events(BaseEventHandler):
        @classmethod
        def class_name(cls) -> str:
            return "Events"

        def handle(self, event, **kwargs) -> None:
            seen.append(type(event))

    class Callbacks(BaseCallbackHandler):
        def __init__(self) -> None:
            super().__init__([], [])
            self.events: list = []

        def on_event_start(self, event_type, payload=None, event_id="", parent_id="", **kw):
            self.events.append(event_type)
            return event_id

        def on_event_end(self, event_type, payload=None, event_id="", **kw) -> None:
            pass

        def start_trace(self, trace_id=None) -> None:
            pass

        def end_trace(self, trace_id=None, trace_map=None) -> None:
            pass

    handler = Events()
    get_dispatcher().add_event_handler(handler)
    callbacks = Callbacks()
    reranker = BM25Rerank(top_n=1, callback_manager=CallbackManager([callbacks]))
    reranker.postprocess_nodes(nodes_of(["a marathon", "b"]), query_str="marathon")
    assert ReRankStartEvent in seen and ReRankEndEvent in seen
    assert callbacks.events == [CBEventType.RERANKING]
