"""The documentation's examples are run as they are written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent.parent / "docs"


def python_blocks(name: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (DOCS / name).read_text(encoding="utf-8"), re.S)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["llamaindex.md", "langchain.md"])
def test_examples_run(name: str, minilm_path: str) -> None:
    blocks = python_blocks(name)
    assert blocks, f"{name} has no python example"
    for block in blocks:
        exec(compile(block, name, "exec"), {"__name__": "__docs__"})
