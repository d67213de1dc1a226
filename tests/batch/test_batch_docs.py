"""docs/batch.md's Python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "batch.md"


def test_batch_doc_example_runs(tmp_path, monkeypatch, capsys) -> None:
    pytest.importorskip("pyarrow")
    monkeypatch.chdir(tmp_path)
    (block,) = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    exec(compile(block, "batch.md", "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out.splitlines() == ["1 1 0", "b"]
    assert (tmp_path / "reranked.parquet").is_file()
