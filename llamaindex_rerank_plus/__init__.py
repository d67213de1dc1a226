"""LlamaIndex node postprocessors backed by rerank-plus.

``RerankPlusPostprocessor`` wraps any rerank-plus reranker; the ready classes (``BM25Rerank``,
``CrossEncoderRerank``, ``BiEncoderRerank`` and one per kind registered in
``rerank_plus.compose.presets``) have the kind's options as typed fields, so they serialize.
``HierarchicalMemoryBlock`` is a memory store as a block of LlamaIndex's ``Memory``.

>>> from llamaindex_rerank_plus import BM25Rerank
>>> query_engine = index.as_query_engine(
...     similarity_top_k=20, node_postprocessors=[BM25Rerank(top_n=5)]
... )  # doctest: +SKIP
"""

from __future__ import annotations

from rerank_plus.adapters_support import ready_class, ready_class_names

from llamaindex_rerank_plus.llm import LlamaIndexChat as LlamaIndexChat
from llamaindex_rerank_plus.llm import LLMRerank as LLMRerank
from llamaindex_rerank_plus.memory import MemoryNodeRetriever as MemoryNodeRetriever
from llamaindex_rerank_plus.memory import memory_from_nodes as memory_from_nodes
from llamaindex_rerank_plus.memory_block import (
    HierarchicalMemoryBlock as HierarchicalMemoryBlock,
)
from llamaindex_rerank_plus.memory_block import aflush_session as aflush_session
from llamaindex_rerank_plus.postprocessor import RerankPlusPostprocessor

__all__ = sorted(
    [
        "HierarchicalMemoryBlock",
        "LLMRerank",
        "LlamaIndexChat",
        "MemoryNodeRetriever",
        "RerankPlusPostprocessor",
        "aflush_session",
        "memory_from_nodes",
        *ready_class_names(),
    ]
)


def __getattr__(name: str) -> type[RerankPlusPostprocessor]:
    """The ready class ``name``, made from its kind's options on first use."""
    return ready_class(RerankPlusPostprocessor, name, __name__)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
