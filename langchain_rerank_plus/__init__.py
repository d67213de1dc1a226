"""LangChain document compressors backed by rerank-plus (needs ``langchain-core`` only).

>>> from langchain_classic.retrievers import ContextualCompressionRetriever
>>> from langchain_rerank_plus import BM25Rerank
>>> retriever = ContextualCompressionRetriever(
...     base_compressor=BM25Rerank(top_n=5), base_retriever=vector_store.as_retriever()
... )  # doctest: +SKIP
"""

from langchain_rerank_plus.compressor import (
    BiEncoderRerank,
    BM25Rerank,
    CrossEncoderRerank,
    RerankPlusCompressor,
)
from langchain_rerank_plus.llm import LangChainChat, LLMRerank

__all__ = [
    "BM25Rerank",
    "BiEncoderRerank",
    "CrossEncoderRerank",
    "LLMRerank",
    "LangChainChat",
    "RerankPlusCompressor",
]
