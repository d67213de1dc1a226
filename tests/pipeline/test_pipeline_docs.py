"""docs/pipeline.md's examples run as they are written."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "pipeline.md"


def test_pipeline_doc_examples_run(capsys) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 6
    for number, block in enumerate(blocks):
        exec(compile(block, f"pipeline.md block {number}", "exec"), {"__name__": "__docs__"})
    printed = capsys.readouterr().out
    assert "{'method': 'adaptive'}" in printed
    assert "Unknown key 'topK' in rerank" in printed
