"""``rerank-plus memory eval`` on hand-made data: arguments, tables, files written."""

from __future__ import annotations

import argparse
import json

import pytest
from rerank_plus.cli import main
from rerank_plus.cli.memory_eval import add_eval_parser, budgets

from tests.memory.eval_meetings import DESIGN_MEETING, hashed_words


def test_budgets_parse_and_bad_ones_say_how():
    assert budgets("700,2000, 4000") == (700, 2000, 4000)
    for bad in ("", "700,x", "0,10"):
        with pytest.raises(argparse.ArgumentTypeError, match="comma-separated positive ints"):
            budgets(bad)


def test_the_group_registers_eval():
    parser = argparse.ArgumentParser()
    add_eval_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["eval", "--budget", "100,200", "--limit", "2"])
    assert args.budget == (100, 200) and args.limit == 2 and args.split == "test"


def test_list_methods(capsys):
    assert main(["memory", "eval", "--list-methods"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert "hybrid-windows" in listed and "oracle" in listed
    assert any(line.startswith("policy") for line in listed)


def test_a_missing_folder_is_one_line(tmp_path, capsys):
    assert main(["memory", "eval", "--data", str(tmp_path / "nowhere"), "--methods", "lead"]) == 2
    error = capsys.readouterr().err
    assert "rerank-plus memory: error: no QMSum folder at" in error


def test_a_run_prints_tables_and_writes_results(tmp_path, capsys, monkeypatch):
    data = tmp_path / "qmsum" / "test"
    data.mkdir(parents=True)
    (data / "design.json").write_text(json.dumps(DESIGN_MEETING))
    import rerank_plus.evaluation.memory.suite as suite

    monkeypatch.setattr(suite, "default_embedder", lambda: hashed_words)
    out = tmp_path / "out"
    code = main(
        [
            "memory",
            "eval",
            "--data",
            str(tmp_path / "qmsum"),
            "--budget",
            "10,20",
            "--methods",
            "lead,hybrid-windows,gold-turns,oracle",
            "--output",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "Budget 10 (words; 1 specific, 1 general queries)" in printed
    assert "| hybrid-windows |" in printed
    results = json.loads((out / "results.json").read_text())
    assert results["budgets"] == [10, 20] and results["meetings"] == ["design"]
    assert {r["method"] for r in results["records"]} == {
        "lead",
        "hybrid-windows",
        "gold-turns",
        "oracle",
    }
    assert (out / "tables.md").read_text() in printed
    assert (out / "gold_recall.png").is_file()
    assert list((out / "embeddings").glob("model-*/shard-*.npz"))


def test_a_lexical_only_run_builds_and_asks_without_an_embedding_model(tmp_path, capsys):
    data = tmp_path / "qmsum" / "test"
    data.mkdir(parents=True)
    (data / "design.json").write_text(json.dumps(DESIGN_MEETING))
    out = tmp_path / "out"
    arguments = ["memory", "eval", "--data", str(tmp_path / "qmsum"), "--budget", "200"]
    code = main([*arguments, "--lexical-only", "--output", str(out), "--quiet"])
    assert code == 0
    results = json.loads((out / "results.json").read_text())
    ran = {r["method"] for r in results["records"]}
    assert "policy" in ran and "bm25-windows" in ran and "hybrid-windows" not in ran
    assert not (out / "embeddings").exists()  # nothing was embedded
    assert "| policy |" in capsys.readouterr().out
    code = main([*arguments, "--lexical-only", "--methods", "policy,dense-turns"])
    assert code == 2
    assert "dense-turns need(s) an embedding model" in capsys.readouterr().err


def test_a_profile_reaches_the_policy_and_a_bad_one_is_one_line(tmp_path, capsys):
    data = tmp_path / "qmsum" / "test"
    data.mkdir(parents=True)
    (data / "design.json").write_text(json.dumps(DESIGN_MEETING))
    arguments = ["memory", "eval", "--data", str(tmp_path / "qmsum"), "--budget", "200"]
    arguments += ["--lexical-only", "--methods", "policy", "--quiet"]
    spent = {}
    for name, detail in (
        ("ready-made", None),
        ("extracts first", {"quotas": {"overview": 0, "extracts": 1, "quotes": 0}}),
    ):
        out = tmp_path / name
        profile = []
        if detail is not None:
            (tmp_path / "profile.json").write_text(json.dumps({"memory": {"detail": detail}}))
            profile = ["--profile", str(tmp_path / "profile.json")]
        assert main([*arguments, *profile, "--output", str(out)]) == 0
        records = json.loads((out / "results.json").read_text())["records"]
        spent[name] = next(r for r in records if r["kind"] == "specific")["tokens_by_block"]
    assert spent["extracts first"].get("extracts", 0) > spent["ready-made"].get("extracts", 0)
    capsys.readouterr()
    (tmp_path / "bad.json").write_text(json.dumps({"memory": {"detial": {}}}))
    assert main([*arguments, "--profile", str(tmp_path / "bad.json")]) == 2
    error = capsys.readouterr().err
    assert "Unknown key 'detial' in memory" in error and len(error.splitlines()) == 1
