"""The documentation's examples are run as they are written."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rerank_plus.compose.presets import KINDS, RerankerKind

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


HEADER = "| ready class | field | type | default | meaning |\n|---|---|---|---|---|\n"


def kind_rows(kind: RerankerKind) -> str:
    """A ready class's own fields as the adapter pages list them: one row per option."""
    rows = []
    for number, option in enumerate(kind.options):
        owner = f"`{kind.ready_class}` (`{kind.name}`)" if number == 0 else ""
        default = f"`{option.default!r}`"
        rows.append(
            f"| {owner} | `{option.name}` | {option.type_name} | {default} | {option.help} |"
        )
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("name", ["llamaindex.md", "langchain.md", "semantic-kernel.md"])
def test_the_ready_classes_a_page_lists_have_their_registered_fields(name: str) -> None:
    """Every kind a page shows is shown as registered; kinds added later may have their own
    page (``rerank-plus rank --help`` lists them all)."""
    text = (DOCS / name).read_text(encoding="utf-8")
    shown = [kind for kind in KINDS.values() if f"| `{kind.ready_class}` (" in text]
    assert {kind.name for kind in shown} >= {"bm25", "cross-encoder", "bi-encoder"}
    assert HEADER + "".join(kind_rows(kind) for kind in shown) in text


def test_the_architecture_page_registers_a_kind_as_it_says() -> None:
    """Run in a fresh interpreter: the example registers a kind for the whole process."""
    (block,) = python_blocks("architecture.md")[:1]
    done = subprocess.run(
        [sys.executable, "-c", block], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr


def test_the_memory_store_framework_examples_run() -> None:
    """Offline, as written: memory://, no embedding model."""
    pytest.importorskip("langmem")
    blocks = python_blocks("memory-frameworks.md")
    assert len(blocks) == 4
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for block in blocks:
            exec(compile(block, "memory-frameworks.md", "exec"), {"__name__": "__docs__"})
    out = printed.getvalue()
    assert "<HierarchicalMemory>" in out and "Acme Robotics" in out  # LlamaIndex
    assert "She is a nurse. ['What does Lea do?', 'She is a nurse.']" in out  # LangChain
    assert "('sister', \"Ben's sister Lea is a nurse.\", 0," in out  # LangGraph search
    assert "created memory" in out and "Lisbon" in out  # LangMem's tools
    assert "Ben: My sister Lea just became a nurse." in out  # Semantic Kernel
