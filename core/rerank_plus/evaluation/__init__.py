"""Evaluation on BEIR-layout collections: does the reranker put the right passage on top?"""

from rerank_plus.evaluation.beir import Collection, load_collection, read_run
from rerank_plus.evaluation.evaluate import (
    Evaluation,
    RerankerReport,
    evaluate_rerankers,
    select_queries,
)
from rerank_plus.evaluation.metrics import CURVES, METRICS, paired_p_value, score_curves, score_run

__all__ = [
    "CURVES",
    "METRICS",
    "Collection",
    "Evaluation",
    "RerankerReport",
    "evaluate_rerankers",
    "load_collection",
    "paired_p_value",
    "read_run",
    "score_curves",
    "score_run",
    "select_queries",
]
