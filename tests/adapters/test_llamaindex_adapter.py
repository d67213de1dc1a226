"""The LlamaIndex postprocessors in LlamaIndex's own retrievers and query engines, real objects."""

from __future__ import annotations

import asyncio

import pytest
from llama_index.core.callbacks import CallbackManager, CBEventType
from llama_index.core.callbacks.base_handler import BaseCallbackHandler
from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events.rerank import ReRankEndEvent, ReRankStartEvent
from llama_index.core.schema import MetadataMode, NodeWithScore, TextNode
from rerank_plus import BM25Reranker, CrossEncoderReranker, FusionReranker, Pipeline
from rerank_plus.combine.boosts import PriorBoost

from llamaindex_rerank_plus import (
    BiEncoderRerank,
    BM25Rerank,
    CrossEncoderRerank,
    RerankPlusPostprocessor,
)
from tests.adapters.conftest import TOP_K


def nodes_of(texts: list[str], scores: list[float | None] | None = None) -> list[NodeWithScore]:
    scores = scores or [1.0 - i / 100 for i in range(len(texts))]
    return [
        NodeWithScore(node=TextNode(text=t, metadata={"n": i}, id_=f"node-{i}"), score=s)
        for i, (t, s) in enumerate(zip(texts, scores, strict=True))
    ]


def ids(nodes: list[NodeWithScore]) -> list[str]:
    return [n.node.node_id for n in nodes]


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
    print(f"llamaindex top-1 hits over {len(xquad_en.queries)} queries:", dense_hits, rerank_hits)
    assert rerank_hits > dense_hits, (rerank_hits, dense_hits)


@pytest.mark.slow
def test_same_order_and_scores_as_the_core_sync_and_async(xquad_en, llamaindex_index):
    retriever = llamaindex_index.as_retriever(similarity_top_k=TOP_K)
    postprocessor = BM25Rerank(top_n=None)
    core = BM25Reranker()
    for query in list(xquad_en.queries.values())[:10]:
        nodes = retriever.retrieve(query)
        expected = core.rank(query, [n.node.get_content() for n in nodes])
        for got in (
            postprocessor.postprocess_nodes(nodes, query_str=query),
            asyncio.run(postprocessor.apostprocess_nodes(nodes, query_str=query)),
        ):
            assert ids(got) == [nodes[r.index].node.node_id for r in expected]
            assert [n.score for n in got] == [r.relevance_score for r in expected]


@pytest.mark.slow
def test_query_engine_sync_and_async(xquad_en, llamaindex_index):
    from llama_index.core.llms import MockLLM

    engine = llamaindex_index.as_query_engine(
        similarity_top_k=TOP_K, node_postprocessors=[BM25Rerank(top_n=3)], llm=MockLLM()
    )
    query = next(iter(xquad_en.queries.values()))
    responses = [engine.query(query), asyncio.run(engine.aquery(query))]
    expected = ids(responses[0].source_nodes)
    assert len(expected) == 3
    for response in responses:
        assert ids(response.source_nodes) == expected
        scores = [n.score for n in response.source_nodes]
        assert scores == sorted(scores, reverse=True)


@pytest.mark.slow
def test_bi_encoder_rerank_agrees_with_the_vector_retriever(
    xquad_en, llamaindex_index, minilm_path
):
    retriever = llamaindex_index.as_retriever(similarity_top_k=8)
    reranker = BiEncoderRerank(model=minilm_path, device="cpu", top_n=None)
    for query in list(xquad_en.queries.values())[:2]:
        nodes = retriever.retrieve(query)
        cosines = {n.node.node_id: n.score for n in nodes}
        reranked = reranker.postprocess_nodes(nodes, query_str=query)
        assert ids(reranked)[0] == ids(nodes)[0]
        for node in reranked:  # same model, same cosine (to float noise): same order
            assert node.score == pytest.approx((1 + cosines[node.node.node_id]) / 2, abs=1e-5)


def test_async_runs_the_reranker_off_the_event_loop(thread_recording_bm25):
    nodes = nodes_of(["cats sleep", "marathon training plan", "river bank"])
    postprocessor = RerankPlusPostprocessor(reranker=thread_recording_bm25, top_n=2)
    sync = postprocessor.postprocess_nodes(nodes, query_str="marathon training")
    asynchronous = asyncio.run(
        postprocessor.apostprocess_nodes(nodes, query_str="marathon training")
    )
    assert ids(asynchronous) == ids(sync) == ["node-1", "node-0"]
    assert thread_recording_bm25.ran_sync_then_in_a_worker()


def test_nodes_are_copied_not_mutated_and_metadata_is_kept():
    nodes = nodes_of(["cats sleep", "marathon training plan"], [0.9, 0.4])
    before = [n.model_dump() for n in nodes]
    out = BM25Rerank(top_n=1, keep_retrieval_score=True).postprocess_nodes(
        nodes, query_str="marathon"
    )
    assert out[0].node.metadata == {
        "n": 1,
        "retrieval_score": 0.4,
        "rerank_raw_score": pytest.approx(0.66, abs=0.01),  # BM25's own sum
    }
    assert out[0].node.node_id == "node-1"
    assert out[0].node is not nodes[1].node
    assert [n.model_dump() for n in nodes] == before


def test_missing_query_is_a_clear_error():
    with pytest.raises(ValueError, match=r"call postprocess_nodes\(nodes, query_str=\.\.\.\)"):
        BM25Rerank().postprocess_nodes(nodes_of(["a"]))
    blank = BM25Rerank(top_n=None).postprocess_nodes(nodes_of(["a", "b"]), query_str="  ")
    assert ids(blank) == ["node-0", "node-1"]  # the core's rule: nothing to match, input order


def test_no_nodes_gives_no_nodes():
    assert BM25Rerank().postprocess_nodes([], query_str="q") == []
    assert asyncio.run(BM25Rerank().apostprocess_nodes([], query_str="q")) == []


def test_empty_texts_missing_scores_and_ties_keep_input_order():
    nodes = nodes_of(["", "marathon", "🙂", "marathon"], [None, None, None, None])
    out = BM25Rerank(top_n=None).postprocess_nodes(nodes, query_str="marathon")
    assert ids(out) == ["node-1", "node-3", "node-0", "node-2"]
    assert out[0].score == out[1].score


def test_top_n_threshold_and_explanation_in_metadata():
    nodes = nodes_of(["cats sleep", "marathon training plan", "marathon"])
    assert len(BM25Rerank(top_n=1).postprocess_nodes(nodes, query_str="marathon")) == 1
    out = BM25Rerank(top_n=None, threshold=0.01, explain=True).postprocess_nodes(
        nodes, query_str="marathon"
    )
    assert ids(out) == ["node-2", "node-1"]
    assert out[0].node.metadata["rerank_explanation"]["matched_terms"].keys() == {"marathon"}


def test_metadata_mode_scores_the_metadata_too():
    nodes = [
        NodeWithScore(node=TextNode(text="a report", metadata={"city": "Lyon"}), score=0.5),
        NodeWithScore(node=TextNode(text="a report on rain", metadata={"city": "Oslo"}), score=0.4),
    ]
    plain = BM25Rerank(top_n=None, metadata_mode=MetadataMode.NONE).postprocess_nodes(
        nodes, query_str="Lyon"
    )
    with_metadata = BM25Rerank(top_n=None, metadata_mode=MetadataMode.ALL).postprocess_nodes(
        nodes, query_str="Lyon"
    )
    assert plain[0].score == plain[1].score == 0.0
    assert with_metadata[0].node.metadata["city"] == "Lyon"
    assert with_metadata[0].score > with_metadata[1].score


def test_first_stage_scores_reach_a_fusion_reranker():
    nodes = nodes_of(["marathon", "cats", "river"], [0.1, 0.9, 0.5])
    vector_only = FusionReranker(BM25Reranker(), method="weighted", alpha=0.0)
    out = RerankPlusPostprocessor(reranker=vector_only, top_n=None).postprocess_nodes(
        nodes, query_str="marathon"
    )
    assert ids(out) == ["node-1", "node-2", "node-0"]
    nodes[1].score = None  # one node without a score: fusion is skipped, BM25 decides
    out = RerankPlusPostprocessor(reranker=vector_only, top_n=1).postprocess_nodes(
        nodes, query_str="marathon"
    )
    assert ids(out) == ["node-0"]


def test_node_metadata_reaches_a_pipeline_boost():
    nodes = nodes_of(["marathon plan", "marathon plan"])
    nodes[1].node.metadata["level"] = "L3"
    pipeline = Pipeline(BM25Reranker(), boosts=[PriorBoost("level", {"L3": 2.0})])
    out = RerankPlusPostprocessor(reranker=pipeline, top_n=None).postprocess_nodes(
        nodes, query_str="marathon"
    )
    assert ids(out) == ["node-1", "node-0"]


def test_ready_classes_round_trip_through_to_dict():
    bm25 = BM25Rerank(top_n=4, k1=1.2, b=0.5, threshold=0.1, language="en", explain=True)
    data = bm25.to_dict()
    assert data["class_name"] == "RerankPlusBM25Rerank"
    rebuilt = BM25Rerank.from_dict(data)
    assert rebuilt.to_dict() == data
    assert (rebuilt.reranker.k1, rebuilt.reranker.b) == (1.2, 0.5)

    cross = CrossEncoderRerank(model="some/cross-encoder", top_n=2, max_length=256, language="de")
    rebuilt_cross = CrossEncoderRerank.from_json(cross.to_json())
    assert rebuilt_cross.to_dict() == cross.to_dict()
    assert isinstance(rebuilt_cross.reranker, CrossEncoderReranker)  # built lazily, not loaded
    assert (rebuilt_cross.reranker.model, rebuilt_cross.reranker.max_length) == (
        "some/cross-encoder",
        256,
    )
    assert BiEncoderRerank.from_dict(BiEncoderRerank(model="m").to_dict()).reranker.model == "m"


def test_a_wrapped_object_is_not_rebuilt_from_a_dict_and_says_so():
    data = RerankPlusPostprocessor(reranker=BM25Reranker(), top_n=2).to_dict()
    assert data["class_name"] == "RerankPlusPostprocessor"
    rebuilt = RerankPlusPostprocessor.from_dict(data)
    assert rebuilt.top_n == 2
    with pytest.raises(ValueError, match=r"pass one, RerankPlusPostprocessor\(reranker="):
        rebuilt.postprocess_nodes(nodes_of(["a"]), query_str="a")


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
            self.events.append(("start", event_type, payload))
            return event_id

        def on_event_end(self, event_type, payload=None, event_id="", **kw) -> None:
            self.events.append(("end", event_type, payload))

        def start_trace(self, trace_id=None) -> None:
            pass

        def end_trace(self, trace_id=None, trace_map=None) -> None:
            pass

    dispatcher = get_dispatcher()
    handler = Events()
    dispatcher.add_event_handler(handler)
    try:
        callbacks = Callbacks()
        postprocessor = BM25Rerank(top_n=1, callback_manager=CallbackManager([callbacks]))
        out = postprocessor.postprocess_nodes(nodes_of(["a marathon", "b"]), query_str="marathon")
    finally:
        dispatcher.event_handlers.remove(handler)
    assert ReRankStartEvent in seen and ReRankEndEvent in seen
    assert [(step, kind) for step, kind, _ in callbacks.events] == [
        ("start", CBEventType.RERANKING),
        ("end", CBEventType.RERANKING),
    ]
    assert callbacks.events[0][2]["query_str"] == "marathon"
    assert callbacks.events[1][2]["nodes"] == out
