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


def assert_one_line_error(code: int, err: str, *expected: str) -> None:
    """Exit code 2 and one line on stderr (no traceback) that contains each ``expected``."""
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for part in expected:
        assert part in lines[0], lines[0]


def exit_code(argv: list[str]) -> int:
    """``main``'s return value, or argparse's exit status for a rejected argument."""
    try:
        return main(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["rank", "-q", "x", "--top-n", "0"], "--top-n: must be a whole number >= 1, got '0'"),
        (["rank", "-q", "x", "--top-n", "two"], "--top-n: must be a whole number >= 1"),
        (["rank", "-q", "x", "--threshold", "1.5"], "--threshold: must be a number in [0, 1]"),
        (["rank", "-q", "x", "--threshold", "nan"], "--threshold: must be a number in [0, 1]"),
        (["rank", "-q", "x", "--lang", "xx"], "unknown language code 'xx'"),
        (["analyze", "hello", "--lang", "xx"], "unknown language code 'xx'"),
        (["eval", "scifact", "--k", "0"], "--k: must be a whole number >= 1, got '0'"),
        (["eval", "scifact", "--run", "no-such-run.tsv"], "--run: no such file"),
        (["eval", "scifact", "--first-stage", "sparse"], "unknown first stage 'sparse'"),
    ],
)
def test_bad_arguments_fail_in_one_line(argv, expected, capsys) -> None:
    code = exit_code(argv)
    assert_one_line_error(code, capsys.readouterr().err, f"rerank-plus {argv[0]}: error", expected)


def test_a_missing_input_file_fails_in_one_line(tmp_path, capsys) -> None:
    code = exit_code(["rank", "-q", "x", str(tmp_path / "absent.jsonl")])
    assert_one_line_error(code, capsys.readouterr().err, "No such file", "absent.jsonl")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"{", "Expecting property name"),
        (b'{"reranker": "\xff"}', "can't decode"),
        (b'{"reranker": {"provider": "no-such-reranker"}}', "no-such-reranker"),
    ],
    ids=["broken-json", "not-utf8", "unknown-reranker"],
)
def test_a_bad_config_fails_in_one_line(tmp_path, capsys, content, expected) -> None:
    config = tmp_path / "pipeline.json"
    config.write_bytes(content)
    candidates = tmp_path / "candidates.txt"
    candidates.write_text("cats\n", encoding="utf-8")
    code = exit_code(["rank", "-q", "x", "--config", str(config), str(candidates)])
    assert_one_line_error(code, capsys.readouterr().err, expected)


def test_an_unreadable_config_fails_in_one_line(tmp_path, capsys) -> None:
    candidates = tmp_path / "candidates.txt"
    candidates.write_text("cats\n", encoding="utf-8")
    code = exit_code(["rank", "-q", "x", "--config", str(tmp_path), str(candidates)])
    assert_one_line_error(code, capsys.readouterr().err, "neither a ready profile")


def test_yaml_without_its_extra_fails_in_one_line(tmp_path, capsys, monkeypatch) -> None:
    config = tmp_path / "pipeline.yaml"
    config.write_text("reranker:\n  provider: bm25\n", encoding="utf-8")
    candidates = tmp_path / "candidates.txt"
    candidates.write_text("cats\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "yaml", None)  # what an install without PyYAML sees
    code = exit_code(["rank", "-q", "cats", "--config", str(config), str(candidates)])
    assert_one_line_error(code, capsys.readouterr().err, "pip install rerank-plus[yaml]")


def tiny_collection(folder) -> None:
    folder.mkdir()
    corpus = [{"_id": "d1", "text": "cats sleep"}, {"_id": "d2", "text": "marathon training"}]
    (folder / "corpus.jsonl").write_text("\n".join(map(json.dumps, corpus)), encoding="utf-8")
    queries = json.dumps({"_id": "q1", "text": "marathon"})
    (folder / "queries.jsonl").write_text(queries, encoding="utf-8")
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td2\t1\n", encoding="utf-8")
    (folder / "run.tsv").write_text("q1\td1\t1\t0.9\nq1\td2\t2\t0.1\n", encoding="utf-8")


def test_eval_without_its_extra_fails_in_one_line(tmp_path, capsys, monkeypatch) -> None:
    folder = tmp_path / "tiny"
    tiny_collection(folder)
    monkeypatch.setitem(sys.modules, "pytrec_eval", None)
    code = exit_code(["eval", str(folder), "--run", str(folder / "run.tsv"), "--rerankers", "bm25"])
    assert_one_line_error(code, capsys.readouterr().err, "pip install rerank-plus[eval]")


def test_eval_runs_on_a_tiny_collection(tmp_path, capsys) -> None:
    folder = tmp_path / "tiny"
    tiny_collection(folder)
    argv = [
        "eval",
        str(folder),
        "--run",
        str(folder / "run.tsv"),
        "--rerankers",
        "bm25",
        "--k",
        "2",
    ]
    assert exit_code(argv) == 0
    assert "bm25" in capsys.readouterr().out
