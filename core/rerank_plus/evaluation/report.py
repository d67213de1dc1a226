"""An evaluation as a table (people), JSON (machines) or Recall@k / nDCG@k curves (a plot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rerank_plus.evaluation.evaluate import Evaluation, RerankerReport

TABLE_METRICS = ("nDCG@10", "MRR@10", "R@1", "R@5", "R@10")


def _hit_at_top_n(report: RerankerReport, top_n: int) -> float:
    """Hit rate of what the LLM gets: does any relevant document reach the top-n?"""
    hits = report.curves["Hit@k"]
    return hits[min(top_n, len(hits)) - 1]


def to_table(evaluation: Evaluation) -> str:
    n = evaluation.top_n
    head = ["reranker", *TABLE_METRICS, f"Hit@{n}", "p vs first stage", "ms p50", "ms p95"]
    head += ["docs", "tokens"]
    lines = [
        f"{evaluation.collection}: {len(evaluation.query_ids)} queries, top {evaluation.k} of "
        f"{evaluation.first_stage}, top {n} to the LLM",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for r in evaluation.reports:
        p = "" if r.p_value is None else f"{r.p_value:.3g}"
        cells = [r.name, *(f"{r.metrics[m]:.3f}" for m in TABLE_METRICS)]
        cells += [f"{_hit_at_top_n(r, n):.3f}", p]
        cells += [f"{r.latency_p50_ms:.1f}", f"{r.latency_p95_ms:.1f}"]
        cells += [f"{r.documents_to_llm:.1f}", f"{r.tokens_to_llm:.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def to_json(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "collection": evaluation.collection,
        "first_stage": evaluation.first_stage,
        "k": evaluation.k,
        "top_n": evaluation.top_n,
        "queries": len(evaluation.query_ids),
        "queries_without_candidates": evaluation.queries_without_candidates,
        "rerankers": [
            {
                "name": r.name,
                "metrics": {
                    **r.metrics,
                    f"Hit@{evaluation.top_n}": _hit_at_top_n(r, evaluation.top_n),
                },
                "p_value_vs_first_stage": r.p_value,
                "latency_ms": {"p50": r.latency_p50_ms, "p95": r.latency_p95_ms},
                "documents_to_llm": r.documents_to_llm,
                "tokens_to_llm": r.tokens_to_llm,
                "curves": r.curves,  # value at k = 1..K, index k - 1
            }
            for r in evaluation.reports
        ],
    }


def write_json(evaluation: Evaluation, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_json(evaluation), indent=2), encoding="utf-8")


def plot(evaluation: Evaluation, path: str | Path) -> None:
    """Recall@k and nDCG@k for k = 1..K, first stage and each reranker, on a log k axis (the
    top ranks, where rerankers differ, get the room); a dashed line marks the top-n."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = list(range(1, evaluation.k + 1))
    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for axis, curve in zip(axes, ("Recall@k", "nDCG@k"), strict=True):
        for r in evaluation.reports:
            axis.plot(ks, r.curves[curve], label=r.name, linewidth=1.6)
        if evaluation.top_n <= evaluation.k:
            axis.axvline(
                evaluation.top_n,
                color="grey",
                linestyle="--",
                linewidth=1,
                label=f"top-n = {evaluation.top_n} (to the LLM)",
            )
        axis.set_xscale("log")
        ticks = [t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if t <= evaluation.k]
        axis.set_xticks(ticks, [str(t) for t in ticks])
        axis.set_ylim(0, 1.02)
        axis.set_xlabel("k (documents kept)")
        axis.set_title(f"{curve}, {evaluation.collection} ({len(evaluation.query_ids)} queries)")
        axis.grid(alpha=0.3)
    axes[0].legend(fontsize="small", loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
