"""Batch reranking: whole runs of queries, in this process or on a Ray cluster.

Rows of one query each go in, ``{"query_id", "query", "candidates": [{"doc_id", "text",
"score"?, "metadata"?}]}``, and rows of results come out, ``{"query_id", "results":
[{"doc_id", "index", "relevance_score", "score"}]}``. :func:`run_batch` reads JSONL, Parquet or
a run with its BEIR corpus, and writes Parquet, JSONL or a TREC run; :func:`rerank_rows` is the
step every engine runs on each batch.

>>> from rerank_plus import BM25Reranker
>>> rows = [{"query_id": "q1", "query": "capital of France", "candidates": [
...     {"doc_id": "a", "text": "Berlin is in Germany."},
...     {"doc_id": "b", "text": "Paris is the capital of France."}]}]
>>> [[r["doc_id"] for r in out["results"]] for out in rerank_rows(BM25Reranker(), rows)]
[['b', 'a']]
"""

from rerank_plus.batch.engines.local import rerank_batches
from rerank_plus.batch.job import ENGINES, run_batch
from rerank_plus.batch.readers import RowSource, open_source
from rerank_plus.batch.rows import BadRowError, Malformed, parse_row, rerank_rows
from rerank_plus.batch.sink import BatchRowError, BatchSummary, LostRowsError, Sink
from rerank_plus.batch.source import DEFAULT_CONFIG, RerankerSource
from rerank_plus.batch.writers import open_writer

__all__ = [
    "DEFAULT_CONFIG",
    "ENGINES",
    "BadRowError",
    "BatchRowError",
    "BatchSummary",
    "LostRowsError",
    "Malformed",
    "RerankerSource",
    "RowSource",
    "Sink",
    "open_source",
    "open_writer",
    "parse_row",
    "rerank_batches",
    "rerank_rows",
    "run_batch",
]
