"""The Ray engine on a local Ray (2 CPUs): the local engine's results, a killed actor, eval.

Ray starts once for all of them (see ``local_ray``); each test runs one or a few small jobs.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from rerank_plus import BM25Reranker
from rerank_plus.batch import run_batch
from rerank_plus.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

pytestmark = pytest.mark.slow


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def keyed(rows: list[dict]) -> dict[str, dict]:
    """Rows by query id; a query id that comes twice fails the test."""
    out = {row["query_id"]: row for row in rows}
    assert len(out) == len(rows), "a query id came back twice"
    return out


def inputs(kind: str, rows: list[dict], folder: Path, run: Path, tmp_path: Path) -> dict:
    if kind == "parquet":
        pq.write_table(pa.Table.from_pylist(rows), tmp_path / "rows.parquet")
        return {"input": tmp_path / "rows.parquet"}
    if kind == "run":
        return {"input": run, "corpus": folder, "queries": folder / "queries.jsonl"}
    lines = [json.dumps(row) for row in rows]
    lines[3:3] = ['{"query_id": "cut", "query": "', json.dumps({"query_id": "none", "query": 1})]
    (tmp_path / "rows.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"input": tmp_path / "rows.jsonl"}


@pytest.mark.parametrize("kind", ["jsonl", "parquet", "run"])
def test_ray_gives_the_local_engines_results(
    local_ray, eval_root, xquad_rows, xquad_run, tmp_path, kind
) -> None:
    given = inputs(kind, xquad_rows, eval_root / "xquad-en", xquad_run, tmp_path)
    summaries = {}
    for engine in ("local", "ray"):
        summaries[engine] = (
            run_batch(
                output=tmp_path / f"{engine}.jsonl",
                engine=engine,
                workers=2,
                batch_size=4,
                top_n=10,
                **given,
            )
            if engine == "ray"
            else run_batch(output=tmp_path / f"{engine}.jsonl", batch_size=4, top_n=10, **given)
        )
    local, ray = (keyed(read_jsonl(tmp_path / f"{e}.jsonl")) for e in ("local", "ray"))
    assert ray == local and len(ray) == len(xquad_rows)
    assert summaries["ray"].rows == summaries["local"].rows
    if kind == "jsonl":  # bad rows: the same errors, whatever the engine
        assert summaries["ray"].errors == summaries["local"].errors == 2
        errors = {e: read_jsonl(tmp_path / f"{e}.jsonl.errors.jsonl") for e in ("local", "ray")}
        assert sorted(errors["ray"], key=str) == sorted(errors["local"], key=str)
    if kind == "parquet":  # Parquet out: the actors' Arrow blocks are written as they come
        run_batch(output=tmp_path / "ray.parquet", engine="ray", workers=2, top_n=10, **given)
        assert keyed(pq.read_table(tmp_path / "ray.parquet").to_pylist()) == local
    reranker = BM25Reranker()
    for row in xquad_rows[:3]:  # and what rank() gives
        texts = [c["text"] for c in row["candidates"]]
        scores = [c["score"] for c in row["candidates"]]
        expected = reranker.rank(row["query"], texts, top_n=10, first_stage_scores=scores)
        assert [r["index"] for r in ray[row["query_id"]]["results"]] == [r.index for r in expected]


class PidRecordingBM25(BM25Reranker):
    """BM25 that notes its process id at each batch, slowly enough to be killed mid-job."""

    def __init__(self, pid_file: str) -> None:
        super().__init__()
        self.pid_file = pid_file

    def score_many(self, queries, documents, contexts):
        with open(self.pid_file, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")
        time.sleep(0.5)
        return super().score_many(queries, documents, contexts)


def kill_an_actor_mid_job(pid_file: Path, killed: list[int]) -> None:
    """Once the actors have done a few batches, SIGKILL the one that started the last."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        pids = pid_file.read_text().split() if pid_file.exists() else []
        if len(pids) >= 3:
            killed.append(int(pids[-1]))
            os.kill(killed[0], signal.SIGKILL)
            return
        time.sleep(0.05)


def test_a_killed_actor_loses_and_duplicates_no_query(local_ray, xquad_rows, tmp_path) -> None:
    from ray import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps(r) + "\n" for r in xquad_rows), encoding="utf-8")
    pid_file, killed = tmp_path / "pids.txt", []
    killer = threading.Thread(target=kill_an_actor_mid_job, args=(pid_file, killed))
    killer.start()
    factory = functools.partial(PidRecordingBM25, str(pid_file))
    summary = run_batch(
        rows, tmp_path / "out.jsonl", reranker=factory, engine="ray", workers=2, batch_size=2
    )
    killer.join()
    assert killed, "no actor was killed: the job ended before three batches"
    batches = pid_file.read_text().split()
    assert str(killed[0]) in batches
    out = keyed(read_jsonl(tmp_path / "out.jsonl"))
    assert sorted(out) == sorted(row["query_id"] for row in xquad_rows)
    assert (summary.rows, summary.written, summary.errors) == (24, 24, 0)
    local = tmp_path / "local.jsonl"
    run_batch(rows, local)
    assert out == keyed(read_jsonl(local))


def test_eval_with_the_ray_engine_equals_eval(local_ray, eval_root, tmp_path, capsys) -> None:
    reports = {}
    for engine in ("local", "ray"):
        out = tmp_path / f"{engine}.json"
        argv = ["eval", str(eval_root / "xquad-en"), "--rerankers", "bm25,bm25-fit"]
        argv += ["--max-queries", "16", "--k", "30", "--json", str(out), "--engine", engine]
        assert main([*argv, "--workers", "2"] if engine == "ray" else argv) == 0
        reports[engine] = json.loads(out.read_text(encoding="utf-8"))
    capsys.readouterr()
    local, ray = ({r["name"]: r for r in reports[e]["rerankers"]} for e in ("local", "ray"))
    assert list(local) == list(ray) == ["shared", "bm25", "bm25-fit"]
    for name in local:
        assert ray[name]["metrics"] == local[name]["metrics"]
        assert ray[name]["curves"] == local[name]["curves"]
    assert local["bm25-fit"]["metrics"] != local["bm25"]["metrics"]  # corpus statistics used
