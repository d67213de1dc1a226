"""The model card: what the model was trained from and on, how negatives were mined, and how
it ranks held-out queries next to the base model and BM25. Written as README.md (people)
and finetune.json (machines) beside the weights."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rerank_plus.training.evaluation import EvaluationRow, to_table
from rerank_plus.training.mining import MiningReport, MiningSettings
from rerank_plus.training.settings import TrainingSettings

LOADERS = {
    "bi-encoder": "BiEncoderReranker",
    "cross-encoder": "CrossEncoderReranker",
}


def mining_totals(reports: Sequence[MiningReport]) -> dict[str, int]:
    """Sums over the queries' mining reports."""
    return {
        "queries": len(reports),
        "negatives kept": sum(r.kept for r in reports),
        "dropped by the margin": sum(r.dropped_margin for r in reports),
        "dropped for overlapping a positive": sum(r.dropped_overlap for r in reports),
        "queries with no negative kept": sum(1 for r in reports if r.kept == 0),
    }


def _lines(mapping: Mapping[str, Any]) -> list[str]:
    return [f"- {key}: {value}" for key, value in mapping.items()]


def write_card(output: Path, run: Mapping[str, Any], rows: Sequence[EvaluationRow]) -> None:
    """README.md and finetune.json in ``output``; ``run`` holds base, settings (a
    :class:`TrainingSettings`), mining (a :class:`MiningSettings`), mining_reports, data,
    training, evaluated (a description of the held-out queries) and queries (their count)."""
    settings: TrainingSettings = run["settings"]
    mining: MiningSettings = run["mining"]
    reports: Sequence[MiningReport] = run["mining_reports"]
    training = {k: v for k, v in run["training"].items() if k != "losses"}
    losses = run["training"].get("losses") or []
    loader = LOADERS[settings.kind]
    text = [
        f"# {output.name}: a fine-tuned {settings.kind}",
        "",
        f"Fine-tuned with `rerank-plus finetune` from `{run['base']}`. Load it with",
        f"`rerank_plus.{loader}({str(output.name)!r})` (the folder's path).",
        "",
        "## Data",
        *_lines(run["data"]),
        "",
        "## Mining",
        *_lines({**asdict(mining), **mining_totals(reports)}),
        "",
        "## Training",
        *_lines({**asdict(settings), "loss": settings.chosen_loss, **training}),
        f"- loss: first {losses[0]:.4f}, last {losses[-1]:.4f}" if losses else "- loss: not logged",
        "",
        f"## Evaluation ({run['evaluated']})",
        "",
        to_table(rows, run["queries"]),
        "",
        "p: two-sided paired t-test over the per-query nDCG@10.",
        "",
    ]
    (output / "README.md").write_text("\n".join(text), encoding="utf-8")
    machine = {
        "base": run["base"],
        "kind": settings.kind,
        "settings": asdict(settings),
        "mining": asdict(mining),
        "mining_per_query": [asdict(r) for r in reports],
        "data": run["data"],
        "training": run["training"],
        "evaluated": run["evaluated"],
        "evaluation": [asdict(r) for r in rows],
    }
    (output / "finetune.json").write_text(json.dumps(machine, indent=2) + "\n", encoding="utf-8")
