"""A chat run broken down by question category (single-hop, multi-hop, time, open-domain ...):
the means per budget, method and category, one table of gold recall per budget, and the
reference method against the best flat baseline in each category, in points.

An overall figure hides where a policy loses: on chats, ahead on questions one message answers
and behind on those whose answer is spread over sessions. The targets are set per category.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rerank_plus.evaluation.memory.judges import SPECIFIC_METRICS, mean_metrics
from rerank_plus.evaluation.memory.report import CEILINGS, TITLES
from rerank_plus.evaluation.memory.runner import Record, Run

#: Every category together, as the per-category rows name it.
OVERALL = "overall"


def by_category(run: Run) -> list[dict[str, Any]]:
    """One row per budget, method and category (and ``overall``, every category): the number
    of questions and the mean specific metrics (with ``dated``). Empty when no question has a
    category (QMSum)."""
    if not any(record.category for record in run.records):
        return []
    groups: dict[tuple[int, str, str], list[Record]] = {}
    for record in run.records:
        if record.kind != "specific":
            continue
        for category in (record.category or "uncategorized", OVERALL):
            groups.setdefault((record.budget, record.method, category), []).append(record)
    categories = [*sorted({category for _, _, category in groups} - {OVERALL}), OVERALL]
    rows = []
    for budget in run.budgets:
        for method in run.methods:
            for category in categories:
                records = groups.get((budget, method, category), [])
                if records:
                    metrics = mean_metrics([r.metrics for r in records], SPECIFIC_METRICS)
                    rows.append(
                        {
                            "budget": budget,
                            "method": method,
                            "category": category,
                            "questions": len(records),
                            "metrics": metrics,
                        }
                    )
    return rows


def _cell(row: dict[str, Any] | None, metric: str) -> str:
    if row is None or metric not in row["metrics"]:
        return "-"
    return f"{row['metrics'][metric]:.3f}"


def category_tables(rows: Sequence[dict[str, Any]], metric: str = "gold_recall") -> str:
    """Per budget, a markdown table of ``metric`` by method (rows) and category (columns, each
    with its number of questions)."""
    out: list[str] = []
    for budget in dict.fromkeys(row["budget"] for row in rows):
        at = [row for row in rows if row["budget"] == budget]
        categories = list(dict.fromkeys(row["category"] for row in at))
        counts = {row["category"]: row["questions"] for row in at}
        out.append(f"Budget {budget}: {TITLES[metric]} by question category")
        out.append("")
        out.append("| method | " + " | ".join(f"{c} ({counts[c]})" for c in categories) + " |")
        out.append("|---|" + "---:|" * len(categories))
        for method in dict.fromkeys(row["method"] for row in at):
            found = {row["category"]: row for row in at if row["method"] == method}
            cells = [_cell(found.get(category), metric) for category in categories]
            out.append(f"| {method} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def versus_best_by_category(
    rows: Sequence[dict[str, Any]], method: str = "policy", metric: str = "gold_recall"
) -> str:
    """A markdown table: per budget and category, ``method``'s ``metric`` (and ``dated``), the
    best baseline's (ceilings left out) and the difference in points."""
    head = "| budget | category | questions | " + method + " | dated | best baseline | points |"
    lines = [head, "|---:|---|---:|---:|---:|---|---:|"]
    for row in rows:
        if row["method"] != method or metric not in row["metrics"]:
            continue
        others = [
            (other["metrics"][metric], other["method"])
            for other in rows
            if other["budget"] == row["budget"]
            and other["category"] == row["category"]
            and other["method"] not in CEILINGS | {method}
            and metric in other["metrics"]
        ]
        if not others:
            continue
        best, name = max(others)
        value = row["metrics"][metric]
        cells = [
            str(row["budget"]),
            row["category"],
            str(row["questions"]),
            f"{value:.3f}",
            _cell(row, "dated"),
            f"{name} {best:.3f}",
            f"{100 * (value - best):+.1f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
