"""LangChain document compressors backed by rerank-plus (needs ``langchain-core`` only).

``RerankPlusCompressor`` wraps any rerank-plus reranker; the ready classes (``BM25Rerank``,
``CrossEncoderRerank``, ``BiEncoderRerank`` and one per kind registered in
``rerank_plus.compose.presets``) have the kind's options as typed fields, so they serialize.
A memory store serves LangChain as ``MemoryChatMessageHistory`` and
``MemoryDocumentRetriever.from_store``, and LangGraph as ``HierarchicalMemoryStore`` (needs
``langgraph``: ``pip install "rerank-plus[langgraph]"``).

>>> from langchain_classic.retrievers import ContextualCompressionRetriever
>>> from langchain_rerank_plus import BM25Rerank
>>> retriever = ContextualCompressionRetriever(
...     base_compressor=BM25Rerank(top_n=5), base_retriever=vector_store.as_retriever()
... )  # doctest: +SKIP
"""

from __future__ import annotations

from rerank_plus.adapters_support import ready_class, ready_class_names

from langchain_rerank_plus.chat_history import (
    MemoryChatMessageHistory as MemoryChatMessageHistory,
)
from langchain_rerank_plus.compressor import RerankPlusCompressor
from langchain_rerank_plus.llm import LangChainChat as LangChainChat
from langchain_rerank_plus.llm import LLMRerank as LLMRerank
from langchain_rerank_plus.memory import MemoryDocumentRetriever as MemoryDocumentRetriever
from langchain_rerank_plus.memory import (
    memory_from_parent_document_retriever as memory_from_parent_document_retriever,
)
from langchain_rerank_plus.memory import (
    memory_from_parent_documents as memory_from_parent_documents,
)

__all__ = sorted(
    [
        "HierarchicalMemoryStore",
        "LLMRerank",
        "LangChainChat",
        "MemoryChatMessageHistory",
        "MemoryDocumentRetriever",
        "RerankPlusCompressor",
        "memory_from_parent_document_retriever",
        "memory_from_parent_documents",
        *ready_class_names(),
    ]
)


def __getattr__(name: str) -> type:
    """The LangGraph store, imported on first use (LangChain alone does not bring LangGraph),
    or the ready class ``name``, made from its kind's options on first use."""
    if name == "HierarchicalMemoryStore":
        try:
            from langchain_rerank_plus.langgraph_store import HierarchicalMemoryStore
        except ModuleNotFoundError as missing:
            if missing.name is None or not missing.name.startswith("langgraph"):
                raise
            raise ModuleNotFoundError(
                'HierarchicalMemoryStore needs LangGraph: pip install "rerank-plus[langgraph]".',
                name=missing.name,
            ) from missing
        return HierarchicalMemoryStore
    return ready_class(RerankPlusCompressor, name, __name__)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
