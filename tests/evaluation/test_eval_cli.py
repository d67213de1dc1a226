"""``rerank-plus eval`` on a real public collection, as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rerank_plus.cli import main


@pytest.mark.slow
def test_eval_on_xquad_de_with_json_and_plot(eval_root, tmp_path, capsys) -> None:
    json_path, plot_path = tmp_path / "out.json", tmp_path / "curves.png"
    argv = ["eval", str(eval_root / "xquad-de"), "--rerankers", "bm25-naive,bm25"]
    argv += ["--max-queries", "60", "--json", str(json_path), "--plot", str(plot_path)]
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "| bm25 |" in table and "| Hit@10 |" in table
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert report["queries"] == 60 and report["k"] == 100
    by_name = {r["name"]: r for r in report["rerankers"]}
    assert by_name["bm25"]["metrics"]["nDCG@10"] > by_name["shared"]["metrics"]["nDCG@10"]
    for reranker in report["rerankers"]:
        curves, metrics = reranker["curves"], reranker["metrics"]
        assert [len(curves[c]) for c in ("Recall@k", "nDCG@k", "Hit@k")] == [100, 100, 100]
        assert curves["nDCG@k"][9] == pytest.approx(metrics["nDCG@10"])
        assert curves["Recall@k"][4] == pytest.approx(metrics["R@5"])
        assert curves["Recall@k"] == sorted(curves["Recall@k"])  # recall never falls with k
    # every reranker reorders the same 100 candidates: recall at k = 100 is the first stage's
    assert len({round(r["curves"]["Recall@k"][-1], 9) for r in report["rerankers"]}) == 1
    from matplotlib.image import imread

    assert imread(plot_path).shape[:2] == (504, 1320)  # two panels, 11 x 4.2 inches at 120 dpi


def write_tiny_set(folder: Path) -> Path:
    folder.mkdir()
    corpus = {
        "d1": "Marathon runners train for months before the race.",
        "d2": "The bakery sells bread and croissants every morning.",
        "d3": "Running shoes wear out after about 800 kilometres.",
    }
    queries = {"q1": "how long do marathon runners train", "q2": "when does the bakery open"}
    (folder / "corpus.jsonl").write_text(
        "\n".join(json.dumps({"_id": i, "text": t}) for i, t in corpus.items()), encoding="utf-8"
    )
    (folder / "queries.jsonl").write_text(
        "\n".join(json.dumps({"_id": i, "text": t}) for i, t in queries.items()), encoding="utf-8"
    )
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n")
    return folder


def test_bm25_first_stage_over_the_corpus(tmp_path, capsys) -> None:
    folder, out = write_tiny_set(tmp_path / "tiny"), tmp_path / "out.json"
    argv = ["eval", str(folder), "--first-stage", "bm25", "--k", "3", "--rerankers", "bm25"]
    assert main([*argv, "--max-queries", "1", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["queries"] == 1 and report["queries_without_candidates"] == []
    assert all(r["metrics"]["MRR@10"] == 1.0 for r in report["rerankers"])


def test_a_judged_query_missing_from_the_run_counts_as_zero(tmp_path, capsys) -> None:
    folder, out = write_tiny_set(tmp_path / "tiny"), tmp_path / "out.json"
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 d3 1 0.9 dense\nq1 Q0 d1 2 0.8 dense\n", encoding="utf-8")
    argv = ["eval", str(folder), "--run", str(run), "--k", "2", "--top-n", "1"]
    assert main([*argv, "--rerankers", "bm25", "--json", str(out)]) == 0
    assert "1 judged queries have no candidates" in capsys.readouterr().err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["queries"] == 2 and report["queries_without_candidates"] == ["q2"]
    first_stage, bm25 = report["rerankers"]
    assert first_stage["metrics"]["MRR@10"] == pytest.approx(0.25)  # q1 at rank 2, q2 nothing
    assert bm25["metrics"]["MRR@10"] == pytest.approx(0.5)  # q1 moved to rank 1
    assert bm25["metrics"]["Hit@1"] == pytest.approx(0.5)
    assert bm25["documents_to_llm"] == pytest.approx(0.5)


def test_unknown_reranker_lists_the_valid_ones(eval_root, capsys) -> None:
    assert main(["eval", str(eval_root / "xquad-en"), "--rerankers", "magic"]) == 2
    assert "choose from bm25, bm25-fit, bm25-naive" in capsys.readouterr().err


def test_unknown_set(capsys) -> None:
    assert main(["eval", "no-such-set"]) == 2
    assert "neither a folder nor a set" in capsys.readouterr().err
