"""The Python examples of docs/*.md run as written, offline, as the docstring examples do: a
page's blocks in order, sharing one namespace (a later block may use what an earlier one made),
in a fresh interpreter whose working folder is a temporary one (examples write files) beside a
link to ``../shared``, so that a path relative to the repo reads the evaluation data.

A block right after ``<!-- not-run: reason -->`` is skipped: for one that needs a server, an
API key or a download, and nothing else. A page whose examples another test runs (with checks
of what they print) is named in :data:`RUN_ELSEWHERE`; every other page is run here, so a page
or a block added later is run without a change here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.conftest import EVAL_ROOT

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
BLOCK = re.compile(
    r"(?:<!-- not-run:[ ]*(?P<reason>[^\n]*?)[ ]*-->\n)?^```python\n(?P<code>.*?)^```", re.S | re.M
)
#: Pages whose examples a test of their own runs, and that test.
RUN_ELSEWHERE = {
    "architecture.md": "tests/adapters/test_adapter_docs.py",
    "batch.md": "tests/batch/test_batch_docs.py",
    "evaluation.md": "tests/evaluation/test_eval_docs.py",
    "langchain.md": "tests/adapters/test_adapter_docs.py",
    "llamaindex.md": "tests/adapters/test_adapter_docs.py",
    "llm.md": "tests/llm/test_llm_docs.py",
    "memory-frameworks.md": "tests/adapters/test_adapter_docs.py",
    "memory-service.md": "tests/memory/test_memory_service_doc.py",
    "pipeline.md": "tests/pipeline/test_pipeline_docs.py",
    "semantic-kernel.md": "tests/adapters/test_semantic_kernel_adapter.py",
}
#: Runs a page's blocks (a JSON list of [code, file name, line]) in one namespace; the line
#: numbers of a traceback are the page's.
RUNNER = """
import json, sys
namespace = {"__name__": "__docs__"}
for code, name, line in json.loads(sys.stdin.read()):
    exec(compile("\\n" * (line - 1) + code, name, "exec"), namespace)
"""


class Example(NamedTuple):
    code: str
    line: int  # of the block's first line of code, in the page
    not_run: str | None  # the reason, for a block marked not-run


def examples(page: Path) -> list[Example]:
    text = page.read_text(encoding="utf-8")
    return [
        Example(found["code"], text.count("\n", 0, found.start("code")) + 1, found["reason"])
        for found in BLOCK.finditer(text)
    ]


PAGES = sorted(page.name for page in DOCS.glob("*.md") if examples(page))


@pytest.mark.slow
@pytest.mark.parametrize("name", PAGES)
def test_a_pages_examples_run_in_order(name: str, tmp_path: Path) -> None:
    if name in RUN_ELSEWHERE:
        pytest.skip(f"{RUN_ELSEWHERE[name]} runs docs/{name}'s examples")
    run = [
        (example.code, f"docs/{name}", example.line)
        for example in examples(DOCS / name)
        if example.not_run is None
    ]
    if not run:
        pytest.skip(f"every example of docs/{name} is marked not-run")
    if any("../shared" in code for code, _, _ in run) and not EVAL_ROOT.is_dir():
        pytest.skip(f"docs/{name} reads ../shared/eval, absent beside the repo ({EVAL_ROOT})")
    work = tmp_path / "repo"
    work.mkdir()
    if EVAL_ROOT.parent.is_dir():
        (tmp_path / "shared").symlink_to(EVAL_ROOT.parent, target_is_directory=True)
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO / "core"), str(REPO)]),
        # a model name that needs the hub fails at once, not after a minute of retries
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps(run),
        capture_output=True,
        text=True,
        cwd=work,
        env=environment,
        timeout=600,
    )
    assert done.returncode == 0, f"docs/{name}:\n{done.stderr[-4000:]}"


def test_a_not_run_mark_is_right_before_a_block_and_gives_its_reason() -> None:
    for name in PAGES:
        marked = [example for example in examples(DOCS / name) if example.not_run is not None]
        text = (DOCS / name).read_text(encoding="utf-8")
        assert text.count("not-run") == len(marked), f"docs/{name}: a not-run mark not read"
        for example in marked:
            assert example.not_run, f"docs/{name}:{example.line}: not-run without a reason"


@pytest.mark.parametrize("name", sorted(RUN_ELSEWHERE))
def test_a_page_run_elsewhere_is_run_by_the_test_named(name: str) -> None:
    assert name in PAGES, f"docs/{name} has no Python example left: drop it from RUN_ELSEWHERE"
    assert name in (REPO / RUN_ELSEWHERE[name]).read_text(encoding="utf-8")


def test_blocks_are_found_with_their_lines_and_marks() -> None:
    page = DOCS / "memory.md"
    found = examples(page)
    lines = page.read_text(encoding="utf-8").splitlines()
    assert found and all(lines[example.line - 2] == "```python" for example in found)
