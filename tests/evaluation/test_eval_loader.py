"""The BEIR loader: clear errors naming file and line; judgments that match nothing reported."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from rerank_plus.evaluation import load_collection, read_run, select_queries
from rerank_plus.evaluation.beir import read_scored_run


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
    qrels = "q1\td1\t1\nq1\td404\t1\nq9\td1\t1\nq9\td404\t1\n"
    collection = load_collection(write_set(tmp_path / "set", qrels))
    assert collection.problems == [
        "qrels.tsv line 3: document 'd404' is not in corpus.jsonl",
        "qrels.tsv line 4: query 'q9' is not in queries.jsonl",
        "qrels.tsv line 5: query 'q9' is not in queries.jsonl; "
        "document 'd404' is not in corpus.jsonl",
    ]
    assert collection.qrels == {"q1": {"d1": 1}}


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


def test_run_files_are_read_in_rank_order(tmp_path: Path) -> None:
    path = tmp_path / "run.tsv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("query-id\tdoc-id\trank\tscore\nq1\td2\t2\t0.1\nq1\td1\t1\t0.9\n")
    assert read_run(path) == {"q1": ["d1", "d2"]}
    assert read_scored_run(path) == {"q1": [("d1", 0.9), ("d2", 0.1)]}


def test_trec_format_runs_are_read(tmp_path: Path) -> None:
    path = tmp_path / "run.trec"
    path.write_text(
        "q1 Q0 d2 2 3.5 bm25\nq1 Q0 d1 1 7.25 bm25\n\nq2 Q0 d1 1 1.0 bm25\n", encoding="utf-8"
    )
    assert read_scored_run(path) == {"q1": [("d1", 7.25), ("d2", 3.5)], "q2": [("d1", 1.0)]}


def test_a_document_twice_for_one_query_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "run.tsv"
    path.write_text("q1\td1\t1\t0.9\nq2\td1\t1\t0.8\nq1\td1\t2\t0.5\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"run.tsv line 3: document 'd1' is already ranked for "
                       r"query 'q1' on line 1"):  # fmt: skip
        read_run(path)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("q1 d1", r"line 1: expected query-id<TAB>doc-id<TAB>rank<TAB>score or TREC"),
        ("q1\td1\tfirst\t0.5", r"line 1: expected"),
        ("q1\td1\t1\thigh", r"line 1: score 'high' is not a number"),
    ],
)
def test_malformed_run_lines_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "run.tsv"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_run(path)


def test_max_queries_draws_the_same_sample_every_time(tmp_path: Path) -> None:
    folder = write_set(tmp_path / "set", "q1\td1\t1\n")
    queries = [{"_id": f"q{i:03d}", "text": f"question {i}"} for i in range(60)]
    (folder / "queries.jsonl.gz").unlink()
    (folder / "queries.jsonl").write_text(
        "\n".join(json.dumps(q) for q in queries), encoding="utf-8"
    )
    qrels = "".join(f"q{i:03d}\td{1 + i % 2}\t1\n" for i in range(60))
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\n" + qrels, encoding="utf-8")
    collection = load_collection(folder)
    sample = select_queries(collection, 10)
    assert sample == select_queries(collection, 10) == sorted(sample)
    assert len(set(sample)) == 10 and set(sample) <= set(collection.qrels)
    assert sample != [f"q{i:03d}" for i in range(10)]  # a sample, not the first ids
    assert select_queries(collection, 10, seed=1) != sample
    assert select_queries(collection) == select_queries(collection, 500) == sorted(collection.qrels)
    with pytest.raises(ValueError, match="max_queries must be at least 1"):
        select_queries(collection, 0)
