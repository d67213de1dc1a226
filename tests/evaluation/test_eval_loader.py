"""The BEIR loader: clear errors naming file and line; judgments that match nothing reported."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from rerank_plus.evaluation import load_collection, read_run
from rerank_plus.evaluation.evaluate import select_queries


def write_set(folder: Path, qrels: str, corpus_extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    corpus = [{"_id": "d1", "title": "T", "text": "one"}, {"_id": "d2", "text": "two"}]
    (folder / "corpus.jsonl").write_text(
        "\n".join(json.dumps(d) for d in corpus) + "\n" + corpus_extra, encoding="utf-8"
    )
    with gzip.open(folder / "queries.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write(json.dumps({"_id": "q1", "text": "one?"}) + "\n")
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\n" + qrels, encoding="utf-8")
    return folder


def test_loads_plain_and_gzipped_files(tmp_path: Path) -> None:
    collection = load_collection(write_set(tmp_path / "set", "q1\td1\t1\n"))
    assert collection.documents == {"d1": "T\none", "d2": "two"}
    assert collection.queries == {"q1": "one?"}
    assert collection.qrels == {"q1": {"d1": 1}}
    assert collection.problems == []


def test_unknown_ids_in_qrels_are_reported(tmp_path: Path) -> None:
    collection = load_collection(write_set(tmp_path / "set", "q1\td1\t1\nq1\td404\t1\nq9\td1\t1\n"))
    assert collection.problems == [
        "qrels.tsv line 3: document 'd404' is not in corpus.jsonl",
        "qrels.tsv line 4: query 'q9' is not in queries.jsonl",
    ]


def test_malformed_json_names_file_and_line(tmp_path: Path) -> None:
    folder = write_set(tmp_path / "set", "q1\td1\t1\n", corpus_extra='{"_id": "d3", "text": \n')
    with pytest.raises(ValueError, match=r"corpus.jsonl line 3: not valid JSON"):
        load_collection(folder)


def test_malformed_qrels_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"qrels.tsv line 2: expected query-id<TAB>corpus-id"):
        load_collection(write_set(tmp_path / "set", "q1 d1 1\n"))


def test_missing_file_says_which(tmp_path: Path) -> None:
    folder = write_set(tmp_path / "set", "q1\td1\t1\n")
    (folder / "qrels.tsv").unlink()
    with pytest.raises(FileNotFoundError, match=r"qrels.tsv \(or qrels.tsv.gz\) is missing"):
        load_collection(folder)


def test_run_files_and_deterministic_query_subsets(tmp_path: Path) -> None:
    path = tmp_path / "run.tsv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("query-id\tdoc-id\trank\tscore\nq1\td2\t2\t0.1\nq1\td1\t1\t0.9\n")
    run = read_run(path)
    assert run == {"q1": ["d1", "d2"]}
    collection = load_collection(write_set(tmp_path / "set", "q1\td1\t1\n"))
    assert select_queries(collection, run, 1) == select_queries(collection, run, 1) == ["q1"]
