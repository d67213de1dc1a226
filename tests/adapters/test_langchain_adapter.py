"""The LangChain compressors in LangChain's own retrievers and pipelines, with real objects."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.documents import Document
from rerank_plus import BM25Reranker

from langchain_rerank_plus import BM25Rerank, RerankPlusCompressor
from tests.adapters.conftest import TOP_K


def documents_of(texts: list[str]) -> list[Document]:
    return [Document(page_content=t, metadata={"n": i}, id=f"doc-{i}") for i, t in enumerate(texts)]


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
    assert rerank_hits > dense_hits, (rerank_hits, dense_hits)


@pytest.mark.slow
def test_ainvoke_and_same_order_as_the_core(xquad_en, langchain_store):
    from langchain_classic.retrievers import ContextualCompressionRetriever

    base = langchain_store.as_retriever(search_kwargs={"k": TOP_K})
    retriever = ContextualCompressionRetriever(
        base_compressor=BM25Rerank(top_n=None), base_retriever=base
    )
    core = BM25Reranker()
    for query in list(xquad_en.queries.values())[:10]:
        candidates = base.invoke(query)
        expected = [
            candidates[r.index].id for r in core.rank(query, [d.page_content for d in candidates])
        ]
        assert [d.id for d in asyncio.run(retriever.ainvoke(query))] == expected


def test_inside_a_document_compressor_pipeline():
    from langchain_classic.retrievers.document_compressors import DocumentCompressorPipeline

    pipeline = DocumentCompressorPipeline(transformers=[BM25Rerank(top_n=2), BM25Rerank(top_n=1)])
    out = pipeline.compress_documents(
        documents_of(["cats", "marathon plan", "marathon"]), "marathon"
    )
    assert [d.id for d in out] == ["doc-2"]


def test_copies_keep_id_and_metadata_and_add_relevance_score():
    documents = documents_of(["cats sleep", "marathon training plan"])
    out = BM25Rerank(top_n=1).compress_documents(documents, "marathon")
    assert out[0].id == "doc-1"
    assert out[0].metadata["n"] == 1
    assert 0 < out[0].metadata["relevance_score"] <= 1
    assert documents[1].metadata == {"n": 1}


def test_async_does_not_block_and_matches_sync():
    documents = documents_of(["cats sleep", "marathon training plan", "river"])
    compressor = BM25Rerank(top_n=2)
    sync = compressor.compress_documents(documents, "marathon training")
    assert asyncio.run(compressor.acompress_documents(documents, "marathon training")) == sync


def test_first_stage_scores_from_metadata_reach_the_core():
    seen = {}

    class Recording(BM25Reranker):
        def score_candidates(self, query, documents, *, first_stage_scores=None, explain=False):
            seen["scores"] = first_stage_scores
            return super().score_candidates(query, documents, explain=explain)

    documents = [
        Document(page_content=t, metadata={"score": s}) for t, s in [("a", 0.9), ("b", 0.1)]
    ]
    RerankPlusCompressor(reranker=Recording(), score_key="score").compress_documents(documents, "a")
    assert seen["scores"] == [0.9, 0.1]


def test_empty_input_and_empty_texts():
    assert BM25Rerank().compress_documents([], "q") == []
    out = BM25Rerank(top_n=None).compress_documents(
        documents_of(["", "🙂", "marathon"]), "marathon"
    )
    assert [d.id for d in out] == ["doc-2", "doc-0", "doc-1"]


def test_extra_fields_are_rejected_and_model_dump_round_trips():
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        BM25Rerank(topn=3)
    compressor = BM25Rerank(top_n=4, k1=1.2, threshold=0.2)
    assert BM25Rerank(**compressor.model_dump()).model_dump() == compressor.model_dump()
