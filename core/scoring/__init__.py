"""Scorers: each turns (query, candidates) into one score per candidate."""

from rerank_plus.scoring.bm25 import BM25Reranker, CorpusStatistics

__all__ = ["BM25Reranker", "CorpusStatistics"]
