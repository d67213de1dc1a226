"""Lint, format and type checks run with the tests, so CI enforces them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_lint_and_format() -> None:
    pytest.importorskip("ruff")
    lint = run(sys.executable, "-m", "ruff", "check", ".")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    form = run(sys.executable, "-m", "ruff", "format", "--check", ".")
    assert form.returncode == 0, form.stdout + form.stderr


@pytest.mark.slow
def test_core_type_checks() -> None:
    pytest.importorskip("mypy")
    checked = run(sys.executable, "-m", "mypy", "core", "--ignore-missing-imports")
    assert checked.returncode == 0, checked.stdout + checked.stderr
