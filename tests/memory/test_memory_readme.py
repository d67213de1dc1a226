"""The README's memory example runs as written and answers from the right message."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_memory_example_runs() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Memory: long conversations and meetings", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code.group(1), str(README), "exec"), {})
    assert "Ana: the launch moves to March." in printed.getvalue()
    assert "Answer from" in printed.getvalue()
