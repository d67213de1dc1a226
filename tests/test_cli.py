"""The rerank-plus command line, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from rerank_plus.cli import main
from rerank_plus.cli.rank import read_candidates


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rerank_plus.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_demo_shows_every_stage() -> None:
    completed = run_cli("demo")
    assert completed.returncode == 0, completed.stderr
    out = completed.stdout
    assert "terms  : ['run', 'fast', 'train', 'marathon']" in out
    assert "First stage (vector search" in out
    assert "After rerank-plus BM25+NLP" in out
    assert "terms  : ['haus', 'renovieren']" in out


def test_analyze_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "Die Häuser wurden renoviert", "--lang", "de"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["language"] == "de"
    assert report["terms"] == ["haus", "renovieren"]


def test_rank_reads_jsonl_and_keeps_fields(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "candidates.jsonl"
    lines = [
        {"text": "Cats sleep a lot.", "id": "a"},
        {"text": "Marathon training plans for beginners.", "id": "b", "source": "blog"},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    assert main(["rank", "--query", "marathon training", "--top-n", "1", str(path)]) == 0
    output = json.loads(capsys.readouterr().out)
    (result,) = output["results"]
    assert result["index"] == 1
    assert result["document"] == lines[1]
    assert 0 < result["relevance_score"] <= 1


def test_rank_reads_plain_lines_from_stdin() -> None:
    completed = run_cli(
        "rank", "-q", "marathon", "--explain", stdin="cats sleep\nmarathon runners\n\n"
    )
    assert completed.returncode == 0, completed.stderr
    results = json.loads(completed.stdout)["results"]
    assert [r["index"] for r in results] == [1, 0]
    assert results[0]["explanation"]["matched_terms"].keys() == {"marathon"}


def test_rank_reports_a_bad_line(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "ok"}\n{"text": broken\n', encoding="utf-8")
    assert main(["rank", "--query", "q", str(path)]) == 2
    assert "line 2 is not valid JSON" in capsys.readouterr().err


def test_read_candidates_requires_text() -> None:
    with pytest.raises(ValueError, match='line 1 has no string "text" field'):
        read_candidates(['{"body": "x"}'])
