"""``rerank-plus serve --workers 2 --memory postgresql://...``: two worker processes, each with
its own connection, on one real PostgreSQL store (started by the store tests' fixture)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from live_server import (
    API_KEY,
    ROOT,
    LiveServer,
    check_one_store_across_workers,
    free_port,
    serve_environment,
    skip_without_the_server_extra,
    wait_until_up,
)

from tests.memory.store.conftest import postgres_url, schema_url  # noqa: F401 (a fixture)

WORKERS = 2


def without_password(url: str) -> tuple[str, str]:
    """The URL without its password, and the password: a password stays off the command line
    (libpq reads PGPASSWORD), as docs/memory-service.md advises."""
    parts = urlsplit(url)
    netloc = f"{parts.username}@{parts.hostname}:{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc)), parts.password or ""


@pytest.fixture(scope="module")
def postgres_server(postgres_url: str) -> Iterator[LiveServer]:  # noqa: F811
    skip_without_the_server_extra()
    url, password = without_password(schema_url(postgres_url))
    port = free_port()
    command = [
        sys.executable, "-m", "rerank_plus.cli", "serve", "--port", str(port),
        "--config", "detail", "--log-level", "warning", "--workers", str(WORKERS),
        "--memory", url,
    ]  # fmt: skip
    environment = serve_environment(RERANK_PLUS_API_KEYS=API_KEY, PGPASSWORD=password)
    process = subprocess.Popen(command, env=environment, cwd=ROOT)
    server = LiveServer(f"http://127.0.0.1:{port}", API_KEY, "uvicorn", WORKERS)
    try:
        wait_until_up(server.url, process)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def test_workers_share_one_postgresql_store_and_lose_no_message(
    postgres_server: LiveServer,
) -> None:
    check_one_store_across_workers(postgres_server, "live/postgresql")
