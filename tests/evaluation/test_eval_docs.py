"""docs/evaluation.md's Python example runs as written, from the repo root as the docs assume."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
DOC = REPO / "docs" / "evaluation.md"


def test_evaluation_doc_example_runs(eval_root, monkeypatch, capsys) -> None:
    monkeypatch.chdir(REPO)
    (block,) = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    exec(compile(block, "evaluation.md", "exec"), {"__name__": "__docs__"})
    nDCG, recall = capsys.readouterr().out.splitlines()
    before, after = (float(v) for v in re.findall(r"\d\.\d{3}", nDCG))
    assert after > before
    assert recall.startswith("Recall@k for k = 1..5: [")
