"""Rerank each query's candidates with each reranker, and measure quality, cost and context."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rerank_plus.evaluation.beir import Collection
from rerank_plus.evaluation.metrics import paired_p_value, score_run
from rerank_plus.reranker import Reranker

_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Words and punctuation marks: a tokenizer-free stand-in for an LLM's token count."""
    return len(_TOKEN.findall(text))


@dataclass(frozen=True)
class RerankerReport:
    name: str
    metrics: dict[str, float]
    per_query: dict[str, dict[str, float]] = field(repr=False)
    p_value: float | None  # paired t-test of nDCG@10 against the first stage
    latency_p50_ms: float
    latency_p95_ms: float
    documents_to_llm: float
    tokens_to_llm: float


@dataclass(frozen=True)
class Evaluation:
    collection: str
    first_stage: str
    k: int
    top_n: int
    query_ids: list[str]
    reports: list[RerankerReport]


def select_queries(
    collection: Collection, run: Mapping[str, Sequence[Any]], limit: int | None
) -> list[str]:
    """Judged queries that have candidates, sorted by id; ``limit`` keeps the first ones."""
    ids = sorted(q for q in collection.qrels if q in run and q in collection.queries)
    return ids[:limit] if limit else ids


def _report(name, collection, ranked, top_n, latencies, baseline) -> RerankerReport:
    per_query = score_run(collection.qrels, ranked)
    queries = sorted(per_query)
    metrics = {m: statistics.fmean(per_query[q][m] for q in queries) for m in per_query[queries[0]]}
    p_value = None
    if baseline is not None:
        p_value = paired_p_value(
            [per_query[q]["nDCG@10"] for q in queries],
            [baseline.per_query[q]["nDCG@10"] for q in queries],
        )
    kept = [docs[:top_n] for docs in ranked.values()]
    latencies = sorted(latencies) or [0.0]
    return RerankerReport(
        name=name,
        metrics=metrics,
        per_query=per_query,
        p_value=p_value,
        latency_p50_ms=statistics.median(latencies),
        latency_p95_ms=latencies[int(0.95 * (len(latencies) - 1))],
        documents_to_llm=statistics.fmean(len(docs) for docs in kept),
        tokens_to_llm=statistics.fmean(
            sum(count_tokens(collection.documents[d]) for d in docs) for docs in kept
        ),
    )


def evaluate_rerankers(
    collection: Collection,
    run: Mapping[str, Sequence[tuple[str, float]]],
    rerankers: Mapping[str, Reranker],
    *,
    first_stage_name: str = "first stage",
    k: int = 100,
    top_n: int = 10,
    max_queries: int | None = None,
    progress: bool = False,
) -> Evaluation:
    """Score the first stage and each reranker on the same candidates (the top ``k``).

    ``run`` gives each query's ranked (doc id, first-stage score) pairs; the scores are passed
    to the rerankers (fusion rerankers use them).
    """
    query_ids = select_queries(collection, run, max_queries)
    if not query_ids:
        raise ValueError(f"No judged query of {collection.name} has candidates in the run.")
    candidates = {q: [doc for doc, _ in run[q][:k]] for q in query_ids}
    first_scores = {q: [score for _, score in run[q][:k]] for q in query_ids}
    baseline = _report(first_stage_name, collection, candidates, top_n, [], None)
    reports = [baseline]
    for name, reranker in rerankers.items():
        ranked: dict[str, list[str]] = {}
        latencies: list[float] = []
        iterator = query_ids
        if progress:
            from tqdm import tqdm

            iterator = tqdm(query_ids, desc=name, unit="query", leave=False)
        for q in iterator:
            docs = candidates[q]
            start = time.perf_counter()
            results = reranker.rank(
                collection.queries[q],
                [collection.documents[d] for d in docs],
                first_stage_scores=first_scores[q],
            )
            latencies.append((time.perf_counter() - start) * 1000)
            ranked[q] = [docs[r.index] for r in results]
        reports.append(_report(name, collection, ranked, top_n, latencies, baseline))
    return Evaluation(collection.name, first_stage_name, k, top_n, query_ids, reports)
