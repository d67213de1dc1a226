"""Write one benchmark's section into docs/benchmarks.md, leaving the other sections alone."""

from __future__ import annotations

import platform
from datetime import date
from pathlib import Path

REPORT = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
HEADER = "# Benchmarks\n\nEach section is written by the script it names; rerun it to refresh.\n"


def machine() -> str:
    import os

    system = f"{platform.system()} {platform.machine()}"
    return f"{system}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def write_section(name: str, body: str) -> None:
    """Replace the section named ``name`` (between its markers) or append it."""
    begin, end = f"<!-- begin:{name} -->", f"<!-- end:{name} -->"
    stamp = f"_Measured {date.today().isoformat()} on {machine()}._\n\n"
    section = f"{begin}\n{stamp}{body.rstrip()}\n{end}"
    text = REPORT.read_text(encoding="utf-8") if REPORT.exists() else HEADER
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + section + rest.split(end, 1)[1]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(text, encoding="utf-8")
