"""docs/memory-service.md runs as written: its command-line session in an empty folder, and its
Python example against the real app."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "memory-service.md"


def block(language: str, after: str) -> str:
    section = DOC.read_text(encoding="utf-8").split(after, 1)[1]
    found = re.search(rf"```{language}\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def test_the_command_line_session_runs_offline(tmp_path: Path) -> None:
    command = Path(sys.executable).parent / "rerank-plus"
    if not command.exists() or shutil.which("bash") is None:
        pytest.skip("needs the installed rerank-plus command and bash")
    environment = {
        **os.environ,
        "PATH": f"{command.parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": f"{ROOT / 'core'}{os.pathsep}{ROOT}",
        "HF_HUB_OFFLINE": "1",
    }
    session = block("bash", "## From the command line")
    completed = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", session],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    out = completed.stdout
    assert out.startswith("added 3 messages from chat.jsonl to 'ana/2024-05'\n")
    assert "Ben: My sister works as a nurse in Lyon." in out
    assert "- store: namespace=ana/2024-05, messages=3" in out
    assert out.splitlines()[-1] == "ana/2024-05"  # memory namespaces --prefix ana/
    assert (tmp_path / "memory.db").is_file()


def test_the_python_example_runs() -> None:
    pytest.importorskip("fastapi", reason="the server needs the 'server' extra")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block("python", "## Over HTTP"), str(DOC), "exec"), {})
    lines = printed.getvalue()
    assert "{'namespace': 'ana/2024-05', 'ids': ['m0', 'm1']}" in lines
    assert "Ana: the launch moves to March." in lines
