"""Lint, format and type checks run with the tests, so CI enforces them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = (
    "rerank_plus",
    "llamaindex_rerank_plus",
    "langchain_rerank_plus",
    "semantic_kernel_rerank_plus",
)
PACKAGES = tuple(argument for package in CHECKED for argument in ("-p", package))


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_lint_and_format() -> None:
    pytest.importorskip("ruff")
    lint = run(sys.executable, "-m", "ruff", "check", ".")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    form = run(sys.executable, "-m", "ruff", "format", "--check", ".")
    assert form.returncode == 0, form.stdout + form.stderr


@pytest.mark.slow
def test_type_checks() -> None:
    """mypy checks the core as the package ``rerank_plus`` from its source root ``core/``
    (``mypy_path`` in pyproject.toml), so imports between its modules and from the adapters
    resolve and are checked, not taken as Any."""
    pytest.importorskip("mypy")
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", *PACKAGES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found" in checked.stdout
