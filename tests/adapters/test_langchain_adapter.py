"""The LangChain compressors in LangChain's own retrievers and pipelines, with real objects."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.documents import Document
from rerank_plus import BM25Reranker, CrossEncoderReranker, FusionReranker, Pipeline
from rerank_plus.combine.boosts import PriorBoost

from langchain_rerank_plus import (
    BiEncoderRerank,
    BM25Rerank,
    CrossEncoderRerank,
    RerankPlusCompressor,
)
from tests.adapters.conftest import TOP_K


def documents_of(texts: list[str]) -> list[Document]:
    return [Document(page_content=t, metadata={"n": i}, id=f"doc-{i}") for i, t in enumerate(texts)]


def ids(documents) -> list[str | None]:
    return [d.id for d in documents]


@pytest.mark.slow
def test_compression_retriever_puts_more_answers_first(xquad_en, langchain_store):
    from langchain_classic.retrievers import ContextualCompressionRetriever

    base = langchain_store.as_retriever(search_kwargs={"k": TOP_K})
    retriever = ContextualCompressionRetriever(
        base_compressor=BM25Rerank(top_n=5), base_retriever=base
    )
    dense_hits = rerank_hits = 0
    for query_id, query in xquad_en.queries.items():
        answer = xquad_en.relevant[query_id]
        dense_hits += base.invoke(query)[0].id == answer
        rerank_hits += retriever.invoke(query)[0].id == answer
    print(f"langchain top-1 hits over {len(xquad_en.queries)} queries:", dense_hits, rerank_hits)
    assert rerank_hits > dense_hits, (rerank_hits, dense_hits)


@pytest.mark.slow
def test_invoke_and_ainvoke_give_the_core_order(xquad_en, langchain_store):
    from langchain_classic.retrievers import ContextualCompressionRetriever
    from llama_index.core.schema import NodeWithScore, TextNode

    from llamaindex_rerank_plus import BM25Rerank as LlamaIndexBM25Rerank

    base = langchain_store.as_retriever(search_kwargs={"k": TOP_K})
    retriever = ContextualCompressionRetriever(
        base_compressor=BM25Rerank(top_n=None), base_retriever=base
    )
    core = BM25Reranker()
    for query in list(xquad_en.queries.values())[:10]:
        candidates = base.invoke(query)
        expected = core.rank(query, [d.page_content for d in candidates])
        expected_ids = [candidates[r.index].id for r in expected]
        for got in (retriever.invoke(query), asyncio.run(retriever.ainvoke(query))):
            assert ids(got) == expected_ids
            assert [d.metadata["relevance_score"] for d in got] == [
                r.relevance_score for r in expected
            ]
        # The same candidates as LlamaIndex nodes: the LlamaIndex adapter agrees.
        nodes = [
            NodeWithScore(node=TextNode(id_=d.id, text=d.page_content), score=None)
            for d in candidates
        ]
        reranked = LlamaIndexBM25Rerank(top_n=None).postprocess_nodes(nodes, query_str=query)
        assert [n.node.node_id for n in reranked] == expected_ids


@pytest.mark.slow
def test_bi_encoder_rerank_agrees_with_the_vector_store(xquad_en, langchain_store, minilm_path):
    compressor = BiEncoderRerank(model=minilm_path, device="cpu", top_n=None)
    for query in list(xquad_en.queries.values())[:2]:
        pairs = langchain_store.similarity_search_with_score(query, k=8)
        candidates = [d for d, _ in pairs]
        cosines = {d.id: cosine for d, cosine in pairs}
        reranked = compressor.compress_documents(candidates, query)
        assert ids(reranked)[0] == ids(candidates)[0]
        for document in reranked:  # same model, same cosine (to float noise): same order
            relevance = (1 + cosines[document.id]) / 2
            assert document.metadata["relevance_score"] == pytest.approx(relevance, abs=1e-5)


def test_inside_a_document_compressor_pipeline_after_a_splitter():
    from langchain_classic.retrievers.document_compressors import DocumentCompressorPipeline
    from langchain_text_splitters import CharacterTextSplitter

    splitter = CharacterTextSplitter(separator="\n", chunk_size=30, chunk_overlap=0)
    pipeline = DocumentCompressorPipeline(transformers=[splitter, BM25Rerank(top_n=2)])
    documents = [
        Document(page_content="cats sleep all day\nthe marathon starts at nine", metadata={"n": 0}),
        Document(page_content="rivers flow\nmarathon runners train", metadata={"n": 1}),
    ]
    for out in (
        pipeline.compress_documents(documents, "marathon runners"),
        asyncio.run(pipeline.acompress_documents(documents, "marathon runners")),
    ):
        assert [d.page_content for d in out] == [
            "marathon runners train",
            "the marathon starts at nine",
        ]
        assert [d.metadata["n"] for d in out] == [1, 0]


def test_copies_keep_id_and_metadata_and_add_relevance_score():
    documents = documents_of(["cats sleep", "marathon training plan"])
    before = [d.model_dump() for d in documents]
    out = BM25Rerank(top_n=1).compress_documents(documents, "marathon")
    assert out[0].id == "doc-1"
    assert out[0].metadata["n"] == 1
    assert 0 < out[0].metadata["relevance_score"] <= 1
    assert out[0] is not documents[1]
    assert [d.model_dump() for d in documents] == before


def test_async_runs_the_reranker_off_the_event_loop(thread_recording_bm25):
    documents = documents_of(["cats sleep", "marathon training plan", "river"])
    compressor = RerankPlusCompressor(reranker=thread_recording_bm25, top_n=2)
    sync = compressor.compress_documents(documents, "marathon training")
    asynchronous = asyncio.run(compressor.acompress_documents(documents, "marathon training"))
    assert asynchronous == sync
    assert thread_recording_bm25.ran_sync_then_in_a_worker()


def test_first_stage_scores_from_metadata_reach_a_fusion_reranker():
    documents = [
        Document(page_content=t, metadata={"score": s}, id=t)
        for t, s in [("marathon", 0.1), ("cats", 0.9), ("river", 0.5)]
    ]
    vector_only = FusionReranker(BM25Reranker(), method="weighted", alpha=0.0)
    fused = RerankPlusCompressor(reranker=vector_only, top_n=None, score_key="score")
    assert ids(fused.compress_documents(documents, "marathon")) == ["cats", "river", "marathon"]
    documents[1].metadata["score"] = "high"  # not a number: no first-stage scores, BM25 decides
    assert ids(fused.compress_documents(documents, "marathon"))[0] == "marathon"
    no_key = RerankPlusCompressor(reranker=vector_only, top_n=1)
    assert ids(no_key.compress_documents(documents, "marathon")) == ["marathon"]


def test_document_metadata_reaches_a_pipeline_boost():
    documents = documents_of(["marathon plan", "marathon plan"])
    documents[1].metadata["level"] = "L3"
    pipeline = Pipeline(BM25Reranker(), boosts=[PriorBoost("level", {"L3": 2.0})])
    compressor = RerankPlusCompressor(reranker=pipeline, top_n=None)
    assert ids(compressor.compress_documents(documents, "marathon")) == ["doc-1", "doc-0"]


def test_empty_input_empty_texts_ties_and_explanations():
    assert BM25Rerank().compress_documents([], "q") == []
    assert asyncio.run(BM25Rerank().acompress_documents([], "q")) == []
    out = BM25Rerank(top_n=None, explain=True).compress_documents(
        documents_of(["", "🙂", "marathon", "marathon"]), "marathon"
    )
    assert ids(out) == ["doc-2", "doc-3", "doc-0", "doc-1"]
    assert out[0].metadata["rerank_explanation"]["matched_terms"].keys() == {"marathon"}
    threshold = BM25Rerank(top_n=None, threshold=0.01)
    assert ids(threshold.compress_documents(documents_of(["cats", "marathon"]), "marathon")) == [
        "doc-1"
    ]


def test_bad_input_is_a_clear_error():
    with pytest.raises(TypeError, match="query must be a str"):
        BM25Rerank().compress_documents(documents_of(["a"]), None)
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        BM25Rerank(topn=3)
    with pytest.raises(ValueError, match=r"pass one, RerankPlusCompressor\(reranker="):
        RerankPlusCompressor().compress_documents(documents_of(["a"]), "a")


def test_ready_classes_round_trip_through_model_dump():
    compressor = BM25Rerank(top_n=4, k1=1.2, threshold=0.2, score_key="score")
    rebuilt = BM25Rerank(**compressor.model_dump())
    assert rebuilt.model_dump() == compressor.model_dump()
    assert rebuilt.reranker.k1 == 1.2
    cross = CrossEncoderRerank(model="some/cross-encoder", batch_size=8, top_n=2)
    rebuilt_cross = CrossEncoderRerank.model_validate_json(cross.model_dump_json())
    assert rebuilt_cross.model_dump() == cross.model_dump()
    assert isinstance(rebuilt_cross.reranker, CrossEncoderReranker)  # built lazily, not loaded
    assert (rebuilt_cross.reranker.model, rebuilt_cross.reranker.batch_size) == (
        "some/cross-encoder",
        8,
    )
    assert BiEncoderRerank(**BiEncoderRerank(model="m").model_dump()).reranker.model == "m"
