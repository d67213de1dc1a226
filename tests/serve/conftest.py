"""Real ``rerank-plus serve`` servers on free loopback ports, one per setup and test session:
every front (``--server``), one process and two workers, so the same tests run against each;
each serves a SQLite memory store too (``--memory``), shared by its workers."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from live_server import (
    API_KEY,
    MAX_BODY_BYTES,
    ROOT,
    LiveServer,
    free_port,
    serve_environment,
    skip_without_the_server_extra,
    wait_until_up,
)


@pytest.fixture(scope="session")
def models_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("serve") / "lexical.json"
    path.write_text(json.dumps({"reranker": {"provider": "bm25"}}), encoding="utf-8")
    return path


#: (``--server``, ``--workers``) of every live-server setup the API tests run against.
SETUPS = [("granian", 1), ("uvicorn", 1), ("granian", 2), ("uvicorn", 2)]


@pytest.fixture(
    scope="session", params=SETUPS, ids=[f"{server}-{workers}w" for server, workers in SETUPS]
)
def live_server(
    models_config: Path, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    skip_without_the_server_extra()
    server, workers = request.param
    pytest.importorskip(server, reason=f"--server {server} needs the 'server' extra")
    port = free_port()
    # One SQLite store per setup, shared by its workers (each opens its own connection).
    memory = tmp_path_factory.mktemp(f"memory-{server}-{workers}") / "memory.db"
    command = [
        sys.executable, "-m", "rerank_plus.cli", "serve", "--port", str(port),
        "--config", f"bm25={models_config}", "--config", "detail",
        "--max-body-bytes", str(MAX_BODY_BYTES), "--log-level", "warning",
        "--server", server, "--workers", str(workers), "--memory", f"sqlite:///{memory}",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, env=serve_environment(RERANK_PLUS_API_KEYS=API_KEY), cwd=ROOT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process)
        yield LiveServer(url, API_KEY, server, workers)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _neural_conftest() -> ModuleType:
    """tests/neural/conftest.py, loaded by path (``import conftest`` finds this file)."""
    spec = importlib.util.spec_from_file_location(
        "neural_conftest", ROOT / "tests" / "neural" / "conftest.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The tiny cross-encoder the neural tests train locally, for the micro-batching tests.
tiny_cross_encoder_path = _neural_conftest().tiny_cross_encoder_path
