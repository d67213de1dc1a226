"""Held-out queries ranked by several models, scored by trec_eval, compared pairwise.

Each held-out query ranks the passages of its group (its meeting, or the corpus). A group
larger than ``EVAL_DEPTH`` passages is cut to BM25's top ``EVAL_DEPTH`` for that query first
(the usual reranking setup: positives BM25 misses are not added back), so every model ranks
the same candidates. nDCG@10, MRR@10 and R@10 come from :func:`score_run`; the p-values are the
evaluation's paired t-test over the per-query nDCG@10.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rerank_plus.training.examples import TrainingData

#: Candidates per held-out query when its group is larger.
EVAL_DEPTH = 100
#: Columns of the evaluation table.
TABLE_METRICS = ("nDCG@10", "MRR@10", "R@10")

#: Scores for many queries at once: (queries, each query's texts) -> each query's scores.
Scorer = Callable[[Sequence[str], Sequence[Sequence[str]]], list[list[float]]]


@dataclass(frozen=True)
class HeldOut:
    """What every model ranks: per query its text, its candidates and their grades."""

    queries: dict[str, str]
    candidates: dict[str, list[str]]
    qrels: dict[str, dict[str, int]]
    texts: dict[str, str]


@dataclass(frozen=True, slots=True)
class EvaluationRow:
    """A model's mean metrics, its p-values, and its nDCG@10 per held-out query id (to pool
    several evaluations, e.g. cross-validation folds, into one paired test)."""

    name: str
    metrics: dict[str, float]
    p_vs_base: float | None
    p_vs_bm25: float | None
    ndcg_per_query: dict[str, float] = field(default_factory=dict)


def held_out(data: TrainingData) -> HeldOut:
    """The held-out queries of ``data`` with their candidates (see the module docstring)."""
    from rerank_plus.scoring import BM25Reranker

    texts = {pid: passage.text for pid, passage in data.passages.items()}
    groups = data.groups()
    bm25: Any = None
    queries, candidates, qrels = {}, {}, {}
    for example in data.examples:
        pool = groups.get(example.group, [])
        if len(pool) > EVAL_DEPTH:
            if bm25 is None:
                bm25 = BM25Reranker().fit(list(texts.values()))
            ranked = bm25.rank(example.query, [texts[p] for p in pool], top_n=EVAL_DEPTH)
            pool = [pool[r.index] for r in ranked]
        queries[example.query_id] = example.query
        candidates[example.query_id] = pool
        qrels[example.query_id] = {p: 1 for p in example.positives}
    return HeldOut(queries, candidates, qrels, texts)


def per_query(held: HeldOut, scorer: Scorer) -> dict[str, dict[str, float]]:
    """``{query id: {metric: value}}`` of ``scorer``'s ranking of each query's candidates."""
    from rerank_plus.evaluation.metrics import score_run

    ids = list(held.queries)
    documents = [[held.texts[p] for p in held.candidates[q]] for q in ids]
    scores = scorer([held.queries[q] for q in ids], documents)
    ranked = {}
    for query_id, values in zip(ids, scores, strict=True):
        order = np.argsort(-np.asarray(values, dtype=np.float64), kind="stable")
        ranked[query_id] = [held.candidates[query_id][i] for i in order]
    return score_run(held.qrels, ranked)


def mean_ndcg(held: HeldOut, scorer: Scorer) -> float:
    values = [m["nDCG@10"] for m in per_query(held, scorer).values()]
    return float(np.mean(values)) if values else 0.0


def reranker_scorer(reranker: Any) -> Scorer:
    """A project reranker (``score_many``) as a :data:`Scorer` of raw scores."""
    from rerank_plus.reranker import Context

    def score(queries: Sequence[str], documents: Sequence[Sequence[str]]) -> list[list[float]]:
        results = reranker.score_many(queries, documents, [Context() for _ in queries])
        return [[float(v) for v in result.raw] for result in results]

    return score


def fusion_scorer(bm25: Any, dense: Scorer) -> Scorer:
    """BM25 fused with ``dense``'s scores by the library's default fusion (FusionReranker)."""
    from rerank_plus.compose.fusion import FusionReranker
    from rerank_plus.reranker import Context

    fusion = FusionReranker(bm25)

    def score(queries: Sequence[str], documents: Sequence[Sequence[str]]) -> list[list[float]]:
        firsts = dense(queries, documents)
        contexts = [Context(first_stage_scores=first) for first in firsts]
        return [[float(v) for v in r.raw] for r in fusion.score_many(queries, documents, contexts)]

    return score


def compare(
    held: HeldOut, scorers: dict[str, Scorer], base: str = "base", bm25: str = "bm25"
) -> list[EvaluationRow]:
    """One row per scorer: mean metrics, and the paired t-test p-values of its per-query
    nDCG@10 against the ``base`` and ``bm25`` rows (None for those rows themselves)."""
    from rerank_plus.evaluation.metrics import paired_p_value

    runs = {name: per_query(held, scorer) for name, scorer in scorers.items()}
    ids = list(held.queries)

    def ndcg(name: str) -> list[float]:
        return [runs[name][q]["nDCG@10"] for q in ids]

    rows = []
    for name, run in runs.items():
        means = {m: float(np.mean([run[q][m] for q in ids])) for m in TABLE_METRICS}
        p_base = paired_p_value(ndcg(name), ndcg(base)) if base in runs and name != base else None
        p_bm25 = paired_p_value(ndcg(name), ndcg(bm25)) if bm25 in runs and name != bm25 else None
        per_id = {q: run[q]["nDCG@10"] for q in ids}
        rows.append(EvaluationRow(name, means, p_base, p_bm25, per_id))
    return rows


def to_table(rows: Sequence[EvaluationRow], queries: int) -> str:
    """A Markdown table of ``rows``."""
    head = ["model", *TABLE_METRICS, "p vs base", "p vs BM25"]
    lines = [
        f"{queries} held-out queries",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for row in rows:
        cells = [row.name, *(f"{row.metrics[m]:.3f}" for m in TABLE_METRICS)]
        cells += ["" if p is None else f"{p:.3g}" for p in (row.p_vs_base, row.p_vs_bm25)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
