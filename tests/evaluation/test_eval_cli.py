"""``rerank-plus eval`` on a real public collection, as a user runs it."""

from __future__ import annotations

import json

import pytest
from rerank_plus.cli import main


@pytest.mark.slow
def test_eval_on_xquad_de_with_json_and_plot(eval_root, tmp_path, capsys) -> None:
    json_path, plot_path = tmp_path / "out.json", tmp_path / "curves.png"
    argv = ["eval", str(eval_root / "xquad-de"), "--rerankers", "bm25-naive,bm25"]
    argv += ["--max-queries", "60", "--json", str(json_path), "--plot", str(plot_path)]
    assert main(argv) == 0
    assert "| bm25 |" in capsys.readouterr().out
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert report["queries"] == 60
    by_name = {r["name"]: r["metrics"]["nDCG@10"] for r in report["rerankers"]}
    assert by_name["bm25"] > by_name["shared"]
    assert plot_path.stat().st_size > 10_000


def test_unknown_reranker_lists_the_valid_ones(eval_root, capsys) -> None:
    assert main(["eval", str(eval_root / "xquad-en"), "--rerankers", "magic"]) == 2
    assert "choose from bm25, bm25-fit, bm25-naive" in capsys.readouterr().err


def test_unknown_set(capsys) -> None:
    assert main(["eval", "no-such-set"]) == 2
    assert "neither a folder nor a set" in capsys.readouterr().err
