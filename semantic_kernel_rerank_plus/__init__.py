"""Semantic Kernel plugins and searches backed by rerank-plus (needs ``semantic-kernel``).

``RerankPlugin`` makes reranking kernel functions (``rerank``, ``rerank_records``) around any
rerank-plus reranker; the ready classes (``BM25Rerank``, ``CrossEncoderRerank``,
``BiEncoderRerank`` and one per kind registered in ``rerank_plus.compose.presets``) have the
kind's options as typed fields. ``RerankedSearch`` reranks a vector store collection's or a
``TextSearch``'s results, as a second stage in a Semantic Kernel retrieval flow.

>>> from semantic_kernel import Kernel
>>> from semantic_kernel_rerank_plus import BM25Rerank
>>> plugin = Kernel().add_plugin(BM25Rerank(top_n=5), plugin_name="rerank")
"""

from __future__ import annotations

from rerank_plus.adapters_support import ready_class, ready_class_names

from semantic_kernel_rerank_plus.memory import MemoryPlugin as MemoryPlugin
from semantic_kernel_rerank_plus.plugin import RankedDocument as RankedDocument
from semantic_kernel_rerank_plus.plugin import RerankPlugin
from semantic_kernel_rerank_plus.search import RerankedSearch as RerankedSearch

__all__ = sorted(
    ["MemoryPlugin", "RankedDocument", "RerankPlugin", "RerankedSearch", *ready_class_names()]
)


def __getattr__(name: str) -> type[RerankPlugin]:
    """The ready class ``name``, made from its kind's options on first use."""
    return ready_class(RerankPlugin, name, __name__)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
