"""One real ``rerank-plus serve`` process per test session, on a free loopback port."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server needs the 'server' extra")
pytest.importorskip("uvicorn", reason="the server needs the 'server' extra")
httpx = pytest.importorskip("httpx", reason="the client needs the 'remote' extra")

ROOT = Path(__file__).resolve().parents[2]
API_KEY = "test-key-for-the-local-server"
MAX_BODY_BYTES = 2_000_000


@dataclass(frozen=True)
class LiveServer:
    url: str
    key: str

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


def wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.25)
    raise RuntimeError(f"the server did not answer /health within {seconds} s")


@pytest.fixture(scope="session")
def models_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("serve") / "lexical.json"
    path.write_text(json.dumps({"reranker": {"provider": "bm25"}}), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def live_server(models_config: Path) -> Iterator[LiveServer]:
    port = free_port()
    command = [
        sys.executable, "-m", "rerank_plus.cli", "serve", "--port", str(port),
        "--config", f"bm25={models_config}", "--config", "detail",
        "--max-body-bytes", str(MAX_BODY_BYTES), "--log-level", "warning",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, env=serve_environment(RERANK_PLUS_API_KEYS=API_KEY), cwd=ROOT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process)
        yield LiveServer(url, API_KEY)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
