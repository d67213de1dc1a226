"""Rerank each query's candidates with each reranker, and measure quality, cost and context."""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rerank_plus.evaluation.beir import Collection
from rerank_plus.evaluation.metrics import paired_p_value, score_curves, score_run
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
    curves: dict[str, list[float]] = field(repr=False)  # {"nDCG@k": [k = 1..K], ...}


@dataclass(frozen=True)
class Evaluation:
    collection: str
    first_stage: str
    k: int
    top_n: int
    query_ids: list[str]
    reports: list[RerankerReport]
    #: Judged queries the first stage gave no candidate: they count as 0 in every metric.
    queries_without_candidates: list[str] = field(default_factory=list)


def select_queries(collection: Collection, limit: int | None = None, *, seed: int = 0) -> list[str]:
    """The judged queries, sorted by id; ``limit`` draws a seeded random sample of that size.

    A sample rather than the first ids, because ids often follow the source's order (one
    article's questions together); the seed makes every run evaluate the same subset.
    """
    ids = sorted(q for q in collection.qrels if q in collection.queries)
    if limit is None or limit >= len(ids):
        return ids
    if limit < 1:
        raise ValueError(f"max_queries must be at least 1, got {limit}.")
    return sorted(random.Random(seed).sample(ids, limit))


def _report(
    name: str,
    collection: Collection,
    ranked: Mapping[str, Sequence[str]],
    *,
    k: int,
    top_n: int,
    latencies: list[float],
    baseline: RerankerReport | None,
) -> RerankerReport:
    """Quality (trec_eval), cost and context of one ranking of every selected query."""
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
        curves=score_curves(collection.qrels, ranked, k),
    )


def evaluate_rerankers(
    collection: Collection,
    run: Mapping[str, Sequence[tuple[str, float]]],
    rerankers: Mapping[str, Reranker],
    *,
    query_ids: Sequence[str] | None = None,
    first_stage_name: str = "first stage",
    k: int = 100,
    top_n: int = 10,
    progress: bool = False,
    ranked_by: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
) -> Evaluation:
    """Score the first stage and each reranker on the same candidates (the top ``k``).

    ``run`` gives each query's ranked (doc id, first-stage score) pairs; the scores are passed
    to the rerankers (fusion rerankers use them). ``query_ids`` defaults to every judged query
    (see :func:`select_queries`); one without candidates in ``run`` counts as 0, not skipped,
    so a first stage that misses queries is not flattered. ``ranked_by`` holds rankings made
    elsewhere (``rerank-plus batch`` on Ray), ranked doc ids per query per reranker name: they
    are scored after ``rerankers``, without latencies.
    """
    query_ids = list(select_queries(collection) if query_ids is None else query_ids)
    if not query_ids:
        raise ValueError(f"{collection.name} has no judged query to evaluate.")
    if k < 1 or top_n < 1:
        raise ValueError(f"k and top_n must be at least 1, got k={k}, top_n={top_n}.")
    candidates = {q: [doc for doc, _ in run.get(q, [])[:k]] for q in query_ids}
    first_scores = {q: [score for _, score in run.get(q, [])[:k]] for q in query_ids}
    baseline = _report(
        first_stage_name, collection, candidates, k=k, top_n=top_n, latencies=[], baseline=None
    )
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
            if not docs:
                ranked[q] = []
                continue
            start = time.perf_counter()
            results = reranker.rank(
                collection.queries[q],
                [collection.documents[d] for d in docs],
                first_stage_scores=first_scores[q],
            )
            latencies.append((time.perf_counter() - start) * 1000)
            ranked[q] = [docs[r.index] for r in results]
        reports.append(
            _report(
                name, collection, ranked, k=k, top_n=top_n, latencies=latencies, baseline=baseline
            )
        )
    for name, made in (ranked_by or {}).items():
        ranked = {q: list(made.get(q, [])) for q in query_ids}
        reports.append(
            _report(name, collection, ranked, k=k, top_n=top_n, latencies=[], baseline=baseline)
        )
    missing = [q for q in query_ids if not candidates[q]]
    return Evaluation(collection.name, first_stage_name, k, top_n, query_ids, reports, missing)
