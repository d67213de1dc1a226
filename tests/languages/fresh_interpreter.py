"""Run a script in a new Python process, to see what importing the core loads by itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

CORE = Path(__file__).resolve().parents[2] / "core"


def run_fresh(script: str) -> Any:
    """The JSON the script prints, run with only the core on the path (no site tweaks, no cache)."""
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(CORE), "PATH": ""},
    ).stdout
    return json.loads(out)
