"""Intent on real meeting questions: QMSum's general queries are synthesis, its specific ones
are not (the issue's target: >= 95% of each kind, on each split).

The rules were written from the languages' usage; only the train split's failures were read to
improve them, never the test split's.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import analyze_query

NOW = datetime(2024, 5, 8, 9, 30, tzinfo=timezone.utc)
TARGET = 0.95


def queries(folder: Path, kind: str) -> list[str]:
    return [
        entry["query"]
        for path in sorted(folder.glob("*.json"))
        for entry in json.loads(path.read_text(encoding="utf-8"))[kind]
    ]


@pytest.mark.eval
@pytest.mark.parametrize("split", ["train", "test"])
def test_general_queries_are_synthesis_and_specific_ones_are_not(
    split: str, eval_root: Path
) -> None:
    folder = eval_root / "qmsum" / split
    if not folder.is_dir():
        pytest.skip(f"QMSum's {split} split is not in the shared evaluation data ({folder})")
    analyzer = Analyzer()
    general = queries(folder, "general_query_list")
    specific = queries(folder, "specific_query_list")
    assert general and specific
    synthesis = sum(analyze_query(q, NOW, analyzer=analyzer).intent == "synthesis" for q in general)
    not_synthesis = sum(
        analyze_query(q, NOW, analyzer=analyzer).intent != "synthesis" for q in specific
    )
    figures = (
        f"{split}: general -> synthesis {synthesis}/{len(general)}, "
        f"specific -> not synthesis {not_synthesis}/{len(specific)}"
    )
    assert synthesis >= TARGET * len(general), figures
    assert not_synthesis >= TARGET * len(specific), figures
