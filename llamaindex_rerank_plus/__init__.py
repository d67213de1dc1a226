"""LlamaIndex node postprocessors backed by rerank-plus.

>>> from llamaindex_rerank_plus import BM25Rerank
>>> query_engine = index.as_query_engine(
...     similarity_top_k=20, node_postprocessors=[BM25Rerank(top_n=5)]
... )  # doctest: +SKIP
"""

from llamaindex_rerank_plus.llm import LlamaIndexChat, LLMRerank
from llamaindex_rerank_plus.postprocessor import RerankPlusPostprocessor
from llamaindex_rerank_plus.rerankers import BiEncoderRerank, BM25Rerank, CrossEncoderRerank

__all__ = [
    "BM25Rerank",
    "BiEncoderRerank",
    "CrossEncoderRerank",
    "LLMRerank",
    "LlamaIndexChat",
    "RerankPlusPostprocessor",
]
