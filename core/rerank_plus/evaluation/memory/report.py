"""A run summarized: one table per budget (methods x metrics), JSON, one PNG plot per metric."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rerank_plus.evaluation.memory.judges import GENERAL_METRICS, SPECIFIC_METRICS, mean_metrics
from rerank_plus.evaluation.memory.runner import Record, Run

METRICS = SPECIFIC_METRICS + GENERAL_METRICS
#: Methods that read the judgments: shown, never counted as a baseline to beat.
CEILINGS = frozenset({"gold-turns", "oracle"})
#: Column titles of the tables.
TITLES = {
    "gold_recall": "gold recall",
    "hit": "hit",
    "mrr": "MRR",
    "mrr_words": "MRR 150w",
    "dated": "dated",
    "answer_recall": "answer R1",
    "topic_coverage": "topics",
    "intent_accuracy": "intent",
}


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(run: Run) -> list[dict[str, Any]]:
    """One row per budget and method: query counts, mean words given and used, mean metrics,
    latency (ms, median and 95th percentile), and where the method reports them, intent
    accuracy and mean tokens per block and per level."""
    groups: dict[tuple[int, str], list[Record]] = {}
    for record in run.records:
        groups.setdefault((record.budget, record.method), []).append(record)
    rows = []
    for budget in run.budgets:
        for method in run.methods:
            records = groups.get((budget, method), [])
            if not records:
                continue
            milliseconds = sorted(1000 * r.seconds for r in records)
            row: dict[str, Any] = {
                "budget": budget,
                "method": method,
                "queries": dict(Counter(r.kind for r in records)),
                "words_given": _mean([r.words_given for r in records]),
                "words": _mean([r.words for r in records]),
                "metrics": mean_metrics([r.metrics for r in records], METRICS),
                "latency_ms": {
                    "p50": statistics.median(milliseconds),
                    "p95": milliseconds[min(len(milliseconds) - 1, int(0.95 * len(milliseconds)))],
                },
            }
            judged = [r.intent_correct for r in records if r.intent_correct is not None]
            if judged:
                row["metrics"]["intent_accuracy"] = sum(judged) / len(judged)
            for key in ("tokens_by_block", "tokens_by_level"):
                spent: Counter[str] = Counter()
                for record in records:
                    spent.update(getattr(record, key))
                if spent:
                    row[key] = {name: spent[name] / len(records) for name in sorted(spent)}
            rows.append(row)
    return rows


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def markdown_tables(summary: Sequence[dict[str, Any]], reference: str | None = None) -> str:
    """One markdown table per budget: a row per method, the metrics' means as columns, then
    the words each method was given and used, and its median latency. ``reference`` (the
    policy) was given tokens, not words: its "words given" cell is left empty."""
    columns = (*SPECIFIC_METRICS, "dated", *GENERAL_METRICS, "intent_accuracy")
    names = [m for m in columns if any(m in r["metrics"] for r in summary)]
    head = ["method", *(TITLES[m] for m in names), "words given", "words", "ms p50"]
    out: list[str] = []
    for budget in dict.fromkeys(row["budget"] for row in summary):
        rows = [row for row in summary if row["budget"] == budget]
        counts: Counter[str] = Counter()  # queries per kind: the most any method judged
        for row in rows:
            for kind, count in row["queries"].items():
                counts[kind] = max(counts[kind], count)
        unit = f"max_tokens of {reference}, its words to the others" if reference else "words"
        out.append(
            f"Budget {budget} ({unit}; {counts['specific']} specific, {counts['general']} "
            "general queries)"
        )
        out.append("")
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" + "---:|" * (len(head) - 1))
        for row in rows:
            cells = [row["method"], *(_cell(row["metrics"].get(m)) for m in names)]
            given = "-" if row["method"] == reference else f"{row['words_given']:.0f}"
            cells += [given, f"{row['words']:.0f}"]
            cells.append(f"{row['latency_ms']['p50']:.1f}")
            out.append("| " + " | ".join(cells) + " |")
        spending = [row for row in rows if "tokens_by_block" in row or "tokens_by_level" in row]
        for row in spending:
            parts = [
                f"{name} {tokens:.0f}"
                for key in ("tokens_by_block", "tokens_by_level")
                for name, tokens in row.get(key, {}).items()
            ]
            out.append("")
            out.append(f"{row['method']}: mean tokens per query: " + ", ".join(parts))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def to_json(run: Run) -> dict[str, Any]:
    return {
        "budgets": list(run.budgets),
        "methods": list(run.methods),
        "reference": run.reference,
        "meetings": run.meetings,
        "summary": summarize(run),
        "prepare_seconds": run.prepare_seconds,
        "records": [asdict(record) for record in run.records],
    }


def write_json(run: Run, path: str | Path, **extra: Any) -> None:
    """The run as JSON (:func:`to_json`), with ``extra`` keys beside (a chat run's
    ``by_category``)."""
    Path(path).write_text(json.dumps({**to_json(run), **extra}, indent=1), encoding="utf-8")


def plot_metrics(
    summary: Sequence[dict[str, Any]], folder: str | Path, reference: str | None = "policy"
) -> list[Path]:
    """One PNG per metric: the metric against the budget, one line per method (``reference``,
    the method whose words the others get, drawn thicker; None: budgets are words)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    methods = list(dict.fromkeys(row["method"] for row in summary))
    for metric in (*METRICS, "dated", "intent_accuracy"):
        lines = {
            method: [
                (row["budget"], row["metrics"][metric])
                for row in summary
                if row["method"] == method and metric in row["metrics"]
            ]
            for method in methods
        }
        lines = {method: points for method, points in lines.items() if points}
        if not lines:
            continue
        figure, axis = plt.subplots(figsize=(7, 4.5))
        for method, points in lines.items():
            budgets, values = zip(*points, strict=True)
            style = "--" if method in CEILINGS else "-"
            width = 2.5 if method == reference else 1.2
            axis.plot(budgets, values, style, marker="o", linewidth=width, label=method)
        axis.set_xlabel(
            f"budget (max_tokens of {reference}; the others get its words)"
            if reference
            else "budget (words)"
        )
        axis.set_ylabel(TITLES[metric])
        axis.set_title(f"{TITLES[metric]} by budget")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8, loc="best")
        figure.tight_layout()
        path = folder / f"{metric}.png"
        figure.savefig(path, dpi=120)
        plt.close(figure)
        written.append(path)
    return written


def versus_best_baseline(summary: Sequence[dict[str, Any]], method: str = "policy") -> str:
    """A markdown table: per budget and metric, ``method``'s value, the best baseline's (every
    other method but the ceilings) and the difference in points (hundredths)."""
    head = ["budget", "metric", method, "best baseline", "points"]
    lines = ["| " + " | ".join(head) + " |", "|---:|---|---:|---|---:|"]
    for budget in dict.fromkeys(row["budget"] for row in summary):
        rows = [row for row in summary if row["budget"] == budget]
        own = next((row for row in rows if row["method"] == method), None)
        if own is None:
            continue
        for metric in METRICS:
            if metric not in own["metrics"]:
                continue
            others = [
                (row["metrics"][metric], row["method"])
                for row in rows
                if row["method"] not in CEILINGS | {method} and metric in row["metrics"]
            ]
            if not others:
                continue
            best, name = max(others)
            value = own["metrics"][metric]
            cells = [str(budget), TITLES[metric], f"{value:.3f}", f"{name} {best:.3f}"]
            cells.append(f"{100 * (value - best):+.1f}")
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
