"""Starting a real ``rerank-plus serve`` process on a free loopback port, and what every live
setup is checked for."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest


def skip_without_the_server_extra() -> None:
    for module in ("fastapi", "uvicorn", "granian", "prometheus_client"):
        pytest.importorskip(module, reason="the server needs the 'server' extra")


ROOT = Path(__file__).resolve().parents[2]
API_KEY = "test-key-for-the-local-server"
MAX_BODY_BYTES = 2_000_000


@dataclass(frozen=True)
class LiveServer:
    url: str
    key: str
    server: str = "granian"
    workers: int = 1

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_environment(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "core"), str(ROOT), *filter(None, [env.get("PYTHONPATH")])]
    )
    env.update(extra)
    return env


def health(url: str) -> dict | None:
    """The server's ``/health`` answer, or None while it does not answer."""
    try:
        answer = httpx.get(f"{url}/health", timeout=1)
    except httpx.TransportError:
        return None
    return answer.json() if answer.status_code == 200 else None


def wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 120) -> None:
    """Until ``/health`` says every worker is up."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        answer = health(url)
        if answer is not None and answer["workers"]["up"] == answer["workers"]["of"]:
            return
        time.sleep(0.25)
    raise RuntimeError(f"the server did not answer /health within {seconds} s")


def check_one_store_across_workers(server: LiveServer, namespace: str, count: int = 24) -> None:
    """Concurrent adds, each on a new connection (spread over the workers by the kernel): every
    message stored once, numbered without gaps, and found by whichever worker answers."""

    def add_one(n: int) -> list[str]:
        text = "Ana keeps a zeppelin in the garage." if n == 7 else f"Message number {n}."
        answer = httpx.post(
            f"{server.url}/v1/memory/{namespace}/messages",
            json={"messages": [text]},
            headers=server.headers(),
            timeout=60,
        )
        assert answer.status_code == 200, answer.text
        return answer.json()["ids"]

    with ThreadPoolExecutor(8) as pool:
        ids = [found for batch in pool.map(add_one, range(count)) for found in batch]
    assert sorted(ids) == sorted(f"m{n}" for n in range(count))  # numbered without a gap
    for _ in range(2 * server.workers):  # new connections: each worker answers some
        answer = httpx.post(
            f"{server.url}/v1/memory/{namespace}/context",
            json={"query": "Who keeps a zeppelin?", "intent": "detail"},
            headers=server.headers(),
            timeout=60,
        )
        body = answer.json()
        assert {s["step"]: s for s in body["trace"]["steps"]}["store"]["messages"] == count
        assert "Ana keeps a zeppelin in the garage." in body["text"]
