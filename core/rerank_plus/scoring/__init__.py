"""Scorers: each turns (query, candidates) into one score per candidate."""

from rerank_plus.scoring.bi_encoder import BiEncoderReranker
from rerank_plus.scoring.bm25 import BM25Reranker, CorpusStatistics
from rerank_plus.scoring.cross_encoder import CrossEncoderReranker
from rerank_plus.scoring.models import DEFAULT_BI_ENCODER, DEFAULT_CROSS_ENCODERS

__all__ = [
    "DEFAULT_BI_ENCODER",
    "DEFAULT_CROSS_ENCODERS",
    "BM25Reranker",
    "BiEncoderReranker",
    "CorpusStatistics",
    "CrossEncoderReranker",
]
