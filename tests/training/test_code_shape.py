"""The training package stays small and framework-free: modules under 400 lines, functions
with at most 6 positional parameters, no framework import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "core" / "rerank_plus"
FILES = [*sorted((ROOT / "training").glob("*.py")), ROOT / "cli" / "finetune.py"]
FRAMEWORKS = ("llama_index", "langchain", "semantic_kernel")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_module_shape(path: Path) -> None:
    source = path.read_text("utf-8")
    assert len(source.splitlines()) <= 400
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            positional = [*node.args.posonlyargs, *node.args.args]
            names = [a.arg for a in positional if a.arg not in ("self", "cls")]
            assert len(names) <= 6, f"{path.name}:{node.lineno} {node.name}"
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        else:
            continue
        assert not any(m.startswith(FRAMEWORKS) for m in modules), f"{path.name}: {modules}"
