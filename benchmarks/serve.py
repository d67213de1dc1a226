"""HTTP serving cost: ``rerank-plus serve`` under 32 concurrent clients against in-process
``rank()`` in the same run.

Workload: BM25 (``{"reranker": {"provider": "bm25"}}``) on 100 candidates of 200 words per
request, the candidate sets and queries of ``bm25_latency.py`` (xquad-en and cranfield from
``../shared/eval``). The server runs in its own process on 127.0.0.1; the clients are
``httpx.AsyncClient`` tasks in this process, each sending its next request when the last one
is answered, for a bounded time, sending bodies encoded once. The baseline is the same
pipeline's ``rank()`` called in a loop in this process for the same time, in slices that
alternate with the HTTP ones so both see the same load. Both see warm analysis caches (the sets
repeat). The server's CPU time per request (from ``/proc``) is shown beside ``rank()``'s; on a
crowded machine both move with cache and core sharing, so the throughput ratio is the result.

Run: ``python benchmarks/serve.py [--duration 60] [--clients 32] [--write]`` (``--write``
puts the table in the "serve" section of docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from _report import write_section  # benchmarks/ is on sys.path when a script here runs
from bm25_latency import EVAL, candidate_sets
from rerank_plus import from_config

ROOT = Path(__file__).resolve().parent.parent
CONFIG = {"reranker": {"provider": "bm25"}}
JSON = {"Content-Type": "application/json"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(config: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "core"), str(ROOT)])}
    env.pop("RERANK_PLUS_API_KEYS", None)
    command = [sys.executable, "-m", "rerank_plus.cli", "serve", "--port", str(port),
               "--config", f"bm25={config}", "--log-level", "warning"]  # fmt: skip
    process = subprocess.Popen(command, env=env)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.5)
    process.kill()
    raise SystemExit("the server did not start within 180 s")


def percentiles(latencies: list[float]) -> tuple[float, float, float]:
    cuts = statistics.quantiles(latencies, n=100)
    return cuts[49], cuts[94], cuts[98]


async def http_load(
    url: str, bodies: list[bytes], clients: int, duration: float
) -> tuple[list[float], int, float]:
    latencies: list[float] = []
    errors = 0
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        end = time.perf_counter() + duration

        async def worker(start: int) -> None:
            nonlocal errors
            i = start
            while time.perf_counter() < end:
                sent = time.perf_counter()
                try:
                    answer = await client.post(url, content=bodies[i % len(bodies)], headers=JSON)
                    ok = answer.status_code == 200 and len(answer.json()["results"]) == 10
                except httpx.HTTPError:
                    ok = False
                latencies.append(time.perf_counter() - sent)
                errors += not ok
                i += clients

        started = time.perf_counter()
        await asyncio.gather(*(worker(k) for k in range(clients)))
        return latencies, errors, time.perf_counter() - started


def in_process(queries: list[str], sets: list[list[str]], duration: float) -> tuple[int, float]:
    pipeline = from_config(CONFIG)
    done = 0
    started = time.perf_counter()
    while time.perf_counter() - started < duration:
        pipeline.rank(queries[done % len(queries)], sets[done % len(sets)], top_n=10)
        done += 1
    return done, time.perf_counter() - started


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux ``/proc``), None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per measurement")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument(
        "--slice", type=float, default=10.0, help="seconds per alternating HTTP/in-process slice"
    )
    parser.add_argument("--write", action="store_true", help="write docs/benchmarks.md")
    args = parser.parse_args()
    if not EVAL.is_dir():
        sys.exit(f"benchmark needs the shared evaluation collections at {EVAL}")
    queries, sets = candidate_sets()
    # Encoded once: the clients' own JSON encoding is not a cost of serving.
    bodies = [
        json.dumps({"model": "bm25", "query": q, "documents": d, "top_n": 10}).encode()
        for q, d in zip(queries, sets, strict=True)
    ]
    latencies: list[float] = []
    errors = 0
    elapsed = base_elapsed = server_cpu = base_cpu = 0.0
    done = 0
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "bm25.json"
        config.write_text(json.dumps(CONFIG), encoding="utf-8")
        port = free_port()
        server = start_server(config, port)
        try:
            url = f"http://127.0.0.1:{port}/v2/rerank"
            warm = min(5.0, args.duration)
            asyncio.run(http_load(url, bodies, args.clients, warm))
            in_process(queries, sets, warm)
            load_before = os.getloadavg()[0]
            # Alternating slices: both sides see the same load from the rest of the machine.
            remaining = args.duration
            while remaining > 0:
                piece = min(args.slice, remaining)
                cpu_before = process_cpu_seconds(server.pid) or 0.0
                slice_latencies, slice_errors, slice_elapsed = asyncio.run(
                    http_load(url, bodies, args.clients, piece)
                )
                server_cpu += (process_cpu_seconds(server.pid) or 0.0) - cpu_before
                latencies += slice_latencies
                errors += slice_errors
                elapsed += slice_elapsed
                cpu_before = time.process_time()
                slice_done, slice_base = in_process(queries, sets, piece)
                base_cpu += time.process_time() - cpu_before
                done += slice_done
                base_elapsed += slice_base
                remaining -= piece
            load_after = os.getloadavg()[0]
        finally:
            server.terminate()
            server.wait(timeout=60)

    http_rps = len(latencies) / elapsed
    base_rps = done / base_elapsed
    p50, p95, p99 = (1000 * v for v in percentiles(latencies))
    server_ms = 1000 * server_cpu / len(latencies)
    base_ms = 1000 * base_cpu / done
    table = (
        f"BM25 on 100 candidates of 200 words, top_n 10; {args.clients} concurrent HTTP clients "
        f"against in-process `rank()`, {args.duration:.0f} s each in alternating "
        f"{args.slice:.0f} s slices; 1-minute load average {load_before:.1f} before, "
        f"{load_after:.1f} after, on {os.cpu_count()} CPUs (server, clients and baseline share "
        "them).\n\n"
        "| | requests/s | CPU ms per request | p50 ms | p95 ms | p99 ms | errors |\n"
        "|---|---:|---:|---:|---:|---:|---:|\n"
        f"| `rerank-plus serve` POST /v2/rerank | {http_rps:.1f} | {server_ms:.2f} (server) | "
        f"{p50:.1f} | {p95:.1f} | {p99:.1f} | {errors} of {len(latencies)} |\n"
        f"| in-process `rank()` (baseline) | {base_rps:.1f} | {base_ms:.2f} | | | | |\n\n"
        f"Ratio HTTP / in-process throughput: **{http_rps / base_rps:.2f}** "
        f"(HTTP cost {100 * (1 - http_rps / base_rps):.0f}%). CPU per request, in-process / "
        f"server: {base_ms / server_ms:.2f}.\n"
    )
    print(table)
    if args.write:
        write_section("serve", table)


if __name__ == "__main__":
    main()
