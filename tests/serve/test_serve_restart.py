"""A real server process killed and restarted, and one shut down gracefully.

- SIGKILL mid-load, restart on the same port: clients with retries lose no request, and every
  answer, before and after the restart, is the in-process ranking.
- SIGTERM: the request in flight finishes with its answer, new requests get 503 while the
  server drains, and the process exits 0.
"""

from __future__ import annotations

import asyncio
import random
import signal
import string
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from live_server import (
    API_KEY,
    ROOT,
    free_port,
    serve_environment,
    skip_without_the_server_extra,
    wait_until_up,
)
from rerank_plus import BM25Reranker
from rerank_plus.scoring.remote import RemoteReranker, RetryPolicy

pytestmark = pytest.mark.slow

KEY_ENV = "RERANK_PLUS_TEST_CLIENT_KEY"
QUERIES = ["marathon training", "capital of France", "Berlin park", "river bridge music"]
DOCS = [
    "Marathon runners train on long roads for months.",
    "Paris is the capital and largest city of France.",
    "Die Marathonläufer trainieren im Stadtpark von Berlin.",
    "The old stone bridge crosses the river near the music school.",
    "🏃‍♀️🏃🏃‍♂️",
    "",
]


def start(
    port: int, models_config: Path, *options: str, sigint_ignored: bool = False
) -> subprocess.Popen[bytes]:
    """The server in a subprocess; ``sigint_ignored`` starts it as a script's background job
    is started (SIGINT ignored, inherited through exec)."""
    skip_without_the_server_extra()
    command = [
        sys.executable, "-m", "rerank_plus.cli", "serve", "--port", str(port),
        "--config", f"bm25={models_config}", "--log-level", "warning", *options,
    ]  # fmt: skip
    sigint = signal.SIG_IGN if sigint_ignored else signal.SIG_DFL
    process = subprocess.Popen(
        command,
        env=serve_environment(RERANK_PLUS_API_KEYS=API_KEY),
        cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, sigint),
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process)
    except RuntimeError:
        process.kill()
        raise
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(timeout=30)


SERVERS = ["granian", "uvicorn"]


@pytest.mark.parametrize("server", SERVERS)
async def test_sigkill_mid_load_then_restart_loses_no_request(
    models_config: Path, monkeypatch: pytest.MonkeyPatch, server: str
) -> None:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    expected = {
        q: [(r.index, r.relevance_score) for r in BM25Reranker().rank(q, DOCS)] for q in QUERIES
    }
    port = free_port()
    processes = [start(port, models_config, "--server", server)]
    # Patient enough to outlast a restart on a busy machine (about two minutes in all).
    retry = RetryPolicy(attempts=120, base_delay=0.2, max_delay=1.0)
    remote = RemoteReranker(
        f"http://127.0.0.1:{port}/v2/rerank", "cohere", "bm25", KEY_ENV, retry=retry
    )
    answered: list[tuple[float, str, list[tuple[int, float]]]] = []
    restarted_at: list[float] = []

    async def client(worker: int, requests: int) -> None:
        for i in range(requests):
            query = QUERIES[(worker + i) % len(QUERIES)]
            results = await remote.arank(query, DOCS)
            pairs = [(r.index, r.relevance_score) for r in results]
            answered.append((time.monotonic(), query, pairs))

    async def kill_and_restart() -> None:
        deadline = time.monotonic() + 120
        while len(answered) < 10 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        processes[0].send_signal(signal.SIGKILL)
        await asyncio.to_thread(processes[0].wait, 30)
        processes.append(await asyncio.to_thread(start, port, models_config, "--server", server))
        restarted_at.append(time.monotonic())

    workers, requests = 4, 12
    try:
        await asyncio.gather(kill_and_restart(), *(client(k, requests) for k in range(workers)))
    finally:
        remote.close()
        for process in processes:
            stop(process)
    assert processes[0].returncode == -signal.SIGKILL
    assert len(answered) == workers * requests  # no request lost
    assert all(pairs == expected[query] for _, query, pairs in answered)
    after = [t for t, _, _ in answered if t > restarted_at[0]]
    assert 0 < len(after) < len(answered)  # killed mid-load; the new process answered the rest


def slow_documents(count: int = 1000, words: int = 20) -> list[str]:
    """Words the server has never seen: nothing is cached, so ranking takes seconds."""
    rng = random.Random(7)

    def word() -> str:
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(5, 9)))

    return [" ".join(word() for _ in range(words)) for _ in range(count)]


def in_flight(url: str) -> float:
    text = httpx.get(f"{url}/metrics", timeout=10).text
    line = next(
        (
            line
            for line in text.splitlines()
            if line.startswith('rerank_plus_requests_in_flight{path="/v2/rerank"}')
        ),
        None,
    )
    return float(line.rsplit(" ", 1)[1]) if line else 0.0


@pytest.mark.parametrize(
    ("server", "workers"), [("granian", 1), ("uvicorn", 1), ("granian", 2), ("uvicorn", 2)]
)
def test_sigterm_finishes_in_flight_requests_and_refuses_new_ones(
    tmp_path: Path, server: str, workers: int
) -> None:
    # English analysis: unknown words in unknown languages would load language after language.
    config = tmp_path / "english.json"
    config.write_text('{"reranker": {"provider": "bm25", "language": "en"}}', encoding="utf-8")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = start(
        port, config, "--drain-seconds", "2", "--server", server, "--workers", str(workers)
    )
    headers = {"Authorization": f"Bearer {API_KEY}"}
    slow: dict[str, object] = {}

    def send_slow() -> None:
        body = {"model": "bm25", "query": "marathon", "documents": slow_documents()}
        answer = httpx.post(f"{url}/v2/rerank", json=body, headers=headers, timeout=120)
        slow.update(status=answer.status_code, results=len(answer.json()["results"]),
                    at=time.monotonic())  # fmt: skip

    try:
        sender = threading.Thread(target=send_slow)
        sender.start()
        deadline = time.monotonic() + 60
        while in_flight(url) < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert in_flight(url) >= 1, "the slow request never reached the server"
        process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        time.sleep(0.3)
        refused = httpx.post(
            f"{url}/v2/rerank",
            json={"query": "marathon", "documents": ["a"]},
            headers=headers,
            timeout=30,
        )
        sender.join(timeout=120)
        assert process.wait(timeout=60) == -signal.SIGTERM  # re-raised once drained
    finally:
        stop(process)
    assert refused.status_code == 503
    assert "shutting down" in refused.json()["message"]
    assert slow["status"] == 200 and slow["results"] == 1000
    assert slow["at"] > signalled  # it was in flight when the signal came, and still answered


@pytest.mark.parametrize("server", SERVERS)
@pytest.mark.parametrize("sigint_ignored", [False, True], ids=["sigint-default", "sigint-ignored"])
def test_a_second_signal_stops_at_once(
    models_config: Path, sigint_ignored: bool, server: str
) -> None:
    port = free_port()
    process = start(
        port,
        models_config,
        "--drain-seconds",
        "60",
        "--server",
        server,
        sigint_ignored=sigint_ignored,
    )
    try:
        process.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        assert process.poll() is None  # draining
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 130  # stopped without waiting out the drain
    finally:
        stop(process)
