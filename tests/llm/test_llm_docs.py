"""docs/llm.md: its examples run as written (the frameworks' fakes stand in for real models),
and the prompts it shows are the prompts sent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rerank_plus.scoring.llm import prompts

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "llm.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("number", range(len(blocks("python"))))
def test_examples_run(number: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(blocks("python")[number], "llm.md", "exec"), {"__name__": "__docs__"})


def test_the_langchain_cascade_prints_the_llm_order(capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(blocks("python")[0], "llm.md", "exec"), {"__name__": "__docs__"})
    printed = capsys.readouterr().out.splitlines()
    # all 4 survive BM25 (keep 30); the listwise relevance is (n - rank + 1) / n
    assert [line.split()[0] for line in printed] == ["1.0", "0.75", "0.5", "0.25"]


@pytest.mark.parametrize(
    "name",
    [
        "LISTWISE_SYSTEM",
        "LISTWISE_USER",
        "GRADE_SYSTEM",
        "GRADE_USER",
        "YES_NO_SYSTEM",
        "YES_NO_USER",
    ],
)
def test_the_documented_prompts_are_the_prompts_sent(name: str) -> None:
    assert getattr(prompts, name) + "\n" in blocks("text")
