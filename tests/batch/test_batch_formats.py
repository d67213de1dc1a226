"""The three input formats, the three output formats, the errors file and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rerank_plus import BM25Reranker
from rerank_plus.batch import BatchRowError, LostRowsError, Sink, run_batch
from rerank_plus.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def write_jsonl(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_jsonl_parquet_and_a_run_give_the_same_results(eval_root, xquad_rows, xquad_run, tmp_path):
    folder = eval_root / "xquad-en"
    jsonl = write_jsonl(tmp_path / "rows.jsonl", xquad_rows)
    parquet = tmp_path / "rows.parquet"
    pq.write_table(pa.Table.from_pylist(xquad_rows), parquet, row_group_size=5)
    outputs = {}
    for name, options in {
        "jsonl": {"input": jsonl},
        "parquet": {"input": parquet},
        "run": {"input": xquad_run, "corpus": folder, "queries": folder / "queries.jsonl"},
    }.items():
        out = tmp_path / f"{name}.jsonl"
        summary = run_batch(output=out, top_n=10, batch_size=5, **options)
        assert (summary.rows, summary.written, summary.errors) == (24, 24, 0)
        assert (
            summary.errors_path is None and not out.with_name(out.name + ".errors.jsonl").exists()
        )
        outputs[name] = read_jsonl(out)
    assert outputs["jsonl"] == outputs["parquet"] == outputs["run"]
    assert [r["query_id"] for r in outputs["jsonl"]] == [r["query_id"] for r in xquad_rows]
    assert all(len(r["results"]) == 10 for r in outputs["jsonl"])


def test_parquet_jsonl_and_trec_outputs_hold_the_same_ranking(xquad_rows, tmp_path) -> None:
    from rerank_plus.evaluation.beir import read_scored_run

    jsonl = write_jsonl(tmp_path / "rows.jsonl", xquad_rows)
    for suffix in ("jsonl", "parquet", "trec"):
        run_batch(jsonl, tmp_path / f"out.{suffix}", top_n=5)
    expected = read_jsonl(tmp_path / "out.jsonl")
    assert pq.read_table(tmp_path / "out.parquet").to_pylist() == expected
    trec = read_scored_run(tmp_path / "out.trec")
    assert trec == {
        row["query_id"]: [(r["doc_id"], r["score"]) for r in row["results"]] for row in expected
    }


def test_parquet_rows_with_null_scores_and_metadata(tmp_path) -> None:
    rows = [
        {
            "query_id": 1,
            "query": "marathon",
            "candidates": [
                {"doc_id": 10, "text": "cats", "score": None, "metadata": None},
                {"doc_id": 11, "text": "marathon runners", "score": None, "metadata": {"a": 1}},
            ],
        }
    ]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "in.parquet")
    run_batch(tmp_path / "in.parquet", tmp_path / "out.jsonl")
    (out,) = read_jsonl(tmp_path / "out.jsonl")
    assert out["query_id"] == "1" and [r["doc_id"] for r in out["results"]] == ["11", "10"]


def bad_rows_file(tmp_path: Path, xquad_rows) -> Path:
    lines = [json.dumps(r) for r in xquad_rows[:3]]
    lines.insert(1, '{"query_id": "broken", "query": ')  # not JSON
    lines.insert(2, json.dumps({"query_id": "empty", "query": "x", "candidates": []}))
    lines.append(json.dumps(xquad_rows[0]))  # the same query id again
    lines.append("   ")  # blank: skipped
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_bad_rows_go_to_the_errors_file_and_the_job_goes_on(xquad_rows, tmp_path) -> None:
    out = tmp_path / "out.parquet"
    summary = run_batch(bad_rows_file(tmp_path, xquad_rows), out)
    assert (summary.rows, summary.written, summary.errors, summary.repeated) == (6, 3, 3, 1)
    assert summary.errors_path == tmp_path / "out.parquet.errors.jsonl"
    errors = read_jsonl(summary.errors_path)
    assert [e["query_id"] for e in errors] == [None, "empty", xquad_rows[0]["query_id"]]
    assert "not valid JSON" in errors[0]["error"] and "is empty" in errors[1]["error"]
    assert "came back again" in errors[2]["error"]
    written = pq.read_table(out).column("query_id").to_pylist()
    assert written == [r["query_id"] for r in xquad_rows[:3]]


def test_strict_stops_at_the_first_bad_row(xquad_rows, tmp_path) -> None:
    with pytest.raises(
        BatchRowError, match=r"a row without a query id: line is not valid JSON .* --strict"
    ):
        run_batch(bad_rows_file(tmp_path, xquad_rows), tmp_path / "out.jsonl", strict=True)


def test_a_lost_row_fails_the_job(tmp_path) -> None:
    sink = Sink(tmp_path / "out.jsonl", None, strict=False)
    sink.accept([{"query_id": "a", "results": []}])
    with pytest.raises(LostRowsError, match="1 of 2 rows did not come back"):
        sink.finish(2)


@pytest.mark.parametrize("output", ["out.parquet", "out.jsonl"])
def test_arrow_blocks_are_written_like_rows(xquad_rows, tmp_path, output) -> None:
    """A worker's Arrow block (Ray's path) gives the file that its rows give: written as it is
    when all its rows are new results, row by row when one is an error or comes back again."""
    pa = pytest.importorskip("pyarrow")
    from rerank_plus.batch.engines.ray_data import output_schema
    from rerank_plus.batch.rows import rerank_rows

    ranked = rerank_rows(BM25Reranker(), xquad_rows[:6], top_n=3)
    blocks = [ranked[:3], ranked[3:], [{"query_id": "bad", "error": "no text"}], ranked[:1]]
    by_rows = Sink(tmp_path / "rows" / output, None, strict=False)
    by_blocks = Sink(tmp_path / "blocks" / output, None, strict=False)
    for block in blocks:
        by_rows.accept(block)
        columns = {name: [row.get(name) for row in block] for name in output_schema().names}
        by_blocks.accept_table(pa.Table.from_pydict(columns, schema=output_schema()))
    summaries = [sink.finish(8) for sink in (by_rows, by_blocks)]
    assert [(s.written, s.errors, s.repeated) for s in summaries] == [(6, 2, 1)] * 2
    for name in (output, output + ".errors.jsonl"):
        assert (tmp_path / "blocks" / name).read_bytes() == (tmp_path / "rows" / name).read_bytes()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"input": "rows.csv"}, "unknown input format"),
        ({"output": "out.xlsx"}, "unknown output format; end the name with one of .parquet"),
        ({"corpus": "corpus.jsonl"}, "give both --corpus"),
        ({"engine": "spark"}, "Unknown engine 'spark'; choose one of local, ray"),
        ({"batch_size": 0}, "batch_size must be at least 1"),
    ],
)
def test_bad_arguments_say_how_to_fix(tmp_path, arguments, message) -> None:
    for name in ("rows.jsonl", "rows.csv"):
        (tmp_path / name).write_text("", encoding="utf-8")
    options = {"input": "rows.jsonl", "output": "out.jsonl", **arguments}
    options["input"] = tmp_path / options["input"]
    options["output"] = tmp_path / options["output"]
    with pytest.raises(ValueError, match=message):
        run_batch(**options)


def test_a_ready_reranker_cannot_travel_to_workers(tmp_path) -> None:
    from rerank_plus import BM25Reranker
    from rerank_plus.batch.source import recipe

    with pytest.raises(TypeError, match=r"pass a configuration .* or a function"):
        recipe(BM25Reranker())


def test_command_line(xquad_rows, tmp_path, capsys) -> None:
    rows = write_jsonl(tmp_path / "rows.jsonl", xquad_rows[:4])
    out = tmp_path / "out.trec"
    assert (
        main(["batch", str(rows), "--output", str(out), "--top-n", "3", "--config", "detail"]) == 0
    )
    assert "4 of 4 queries reranked" in capsys.readouterr().out
    assert len(out.read_text("utf-8").splitlines()) <= 12
    assert main(["batch", str(rows), "--output", str(out), "--workers", "2"]) == 2
    assert "--workers need --engine ray" in capsys.readouterr().err
    bad = bad_rows_file(tmp_path, xquad_rows)
    assert main(["batch", str(bad), "--output", str(tmp_path / "o.jsonl"), "--strict"]) == 2
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if "error:" in line]
    assert line.startswith("rerank-plus batch: error: a row without a query id: line is not")


def test_splits_cover_every_row_once(xquad_rows, tmp_path) -> None:
    """The Ray engine's units of work: byte ranges of JSONL lines, Parquet row groups, and
    inline lines for gzip; together they hold each row once, in order."""
    import gzip

    from rerank_plus.batch.readers import open_source
    from rerank_plus.batch.splits import plan_splits, read_split

    lines = [json.dumps(row, ensure_ascii=False) for row in xquad_rows]
    lines[5:5] = ["", "  ", json.dumps({"query_id": "ü🏃", "query": "é", "candidates": []})]
    text = "\n".join(lines) + "\n"
    (tmp_path / "rows.jsonl").write_text(text, encoding="utf-8")
    with gzip.open(tmp_path / "rows.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write(text)
    pq.write_table(pa.Table.from_pylist(xquad_rows), tmp_path / "rows.parquet", row_group_size=7)
    expected = {"jsonl": 25, "gz": 25, "parquet": 24}
    for kind, name in (
        ("jsonl", "rows.jsonl"),
        ("gz", "rows.jsonl.gz"),
        ("parquet", "rows.parquet"),
    ):
        source = open_source(tmp_path / name)
        splits, count = plan_splits(source, 4)
        rows = [row for split in splits for batch in read_split(split, 3) for row in batch]
        assert count == len(rows) == expected[kind]
        assert rows == list(source.rows())
        assert len(splits) == (4 if kind == "parquet" else 7)


def test_a_trec_run_refuses_ids_with_spaces(tmp_path) -> None:
    from rerank_plus.batch.writers import open_writer

    writer = open_writer(tmp_path / "out.trec")
    with pytest.raises(ValueError, match="'doc 1' is empty or holds whitespace"):
        writer.write([{"query_id": "q", "results": [{"doc_id": "doc 1", "score": 1.0}]}])
    writer.close()
