"""An evaluation as a table (people), JSON (machines) or Recall@k / nDCG@k curves (a plot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rerank_plus.evaluation.evaluate import Evaluation

TABLE_METRICS = ("nDCG@10", "MRR@10", "R@1", "R@5", "R@10")


def to_table(evaluation: Evaluation) -> str:
    head = ["reranker", *TABLE_METRICS, "p vs first stage", "ms p50", "ms p95", "docs", "tokens"]
    lines = [
        f"{evaluation.collection}: {len(evaluation.query_ids)} queries, top {evaluation.k} of "
        f"{evaluation.first_stage}, top {evaluation.top_n} to the LLM",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for r in evaluation.reports:
        p = "" if r.p_value is None else f"{r.p_value:.3g}"
        cells = [r.name, *(f"{r.metrics[m]:.3f}" for m in TABLE_METRICS), p]
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
        "rerankers": [
            {
                "name": r.name,
                "metrics": r.metrics,
                "p_value_vs_first_stage": r.p_value,
                "latency_ms": {"p50": r.latency_p50_ms, "p95": r.latency_p95_ms},
                "documents_to_llm": r.documents_to_llm,
                "tokens_to_llm": r.tokens_to_llm,
            }
            for r in evaluation.reports
        ],
    }


def write_json(evaluation: Evaluation, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_json(evaluation), indent=2), encoding="utf-8")


def plot(evaluation: Evaluation, path: str | Path) -> None:
    """Recall@k and Hit@k for k = 1, 5, 10 per reranker: what people read faster than a table."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = [1, 5, 10]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for r in evaluation.reports:
        left.plot(ks, [r.metrics[f"R@{k}"] for k in ks], marker="o", label=r.name)
        right.plot(ks, [r.metrics[f"Hit@{k}"] for k in ks], marker="o", label=r.name)
    for axis, title in ((left, "Recall@k"), (right, "Hit rate@k")):
        axis.set_title(f"{title} ({evaluation.collection})")
        axis.set_xlabel("k")
        axis.set_xticks(ks)
        axis.grid(alpha=0.3)
    left.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
