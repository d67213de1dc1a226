"""The rerank API on Ray Serve, on a local Ray instance: replicas answer as the in-process
reranker does, and refuse what ``rerank-plus serve`` refuses, the same way."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import API_KEY, free_port, serve_environment, skip_without_the_server_extra

pytestmark = pytest.mark.slow
serve = pytest.importorskip("ray.serve", reason="Ray Serve needs the 'ray' extra")

from rerank_plus import BM25Reranker  # noqa: E402

HEADERS = {"Authorization": f"Bearer {API_KEY}"}
QUERIES = ["capital of France", "marathon training", "🏃 park"]
DOCS = [
    "Berlin is the capital of Germany.",
    "Paris is the capital and largest city of France.",
    "Die Marathonläufer trainieren im Stadtpark von Berlin.",
    "Marathon runners train on long roads for months.",
    "🏃‍♀️🏃🏃‍♂️",
    "",
]


@pytest.fixture(scope="module")
def ray_url(models_config: Path) -> Iterator[str]:
    skip_without_the_server_extra()
    import ray
    from rerank_plus.serve.ray_serve import rerank_application
    from rerank_plus.serve.settings import ServeSettings
    from rerank_plus.serve.worker import ServeOptions

    # The replicas import rerank_plus from this tree, as the test process does.
    env = {"PYTHONPATH": serve_environment()["PYTHONPATH"], "RAY_USAGE_STATS_ENABLED": "0"}
    if ray.is_initialized():  # another test module's Ray (the batch tests'): this one needs its env
        ray.shutdown()
    ray.init(
        num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": env}
    )
    port = free_port()
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        options = ServeOptions(
            configs=(f"bm25={models_config}",), settings=ServeSettings(api_keys=(API_KEY,))
        )
        serve.run(
            rerank_application(options, max_replicas=2, target_ongoing_requests=2),
            name="rerank-plus",
            route_prefix="/",
        )
        yield f"http://127.0.0.1:{port}"
    finally:
        serve.shutdown()
        ray.shutdown()


def test_ray_serve_answers_as_the_in_process_reranker(ray_url: str) -> None:
    reranker = BM25Reranker()
    with httpx.Client(headers=HEADERS, timeout=60) as client:
        for query in QUERIES:
            expected = [(r.index, r.relevance_score) for r in reranker.rank(query, DOCS)]
            cohere = client.post(
                f"{ray_url}/v2/rerank", json={"model": "bm25", "query": query, "documents": DOCS}
            )
            assert cohere.status_code == 200, cohere.text
            got = [(r["index"], r["relevance_score"]) for r in cohere.json()["results"]]
            assert got == expected
            tei = client.post(f"{ray_url}/rerank", json={"query": query, "texts": DOCS})
            assert [(r["index"], r["score"]) for r in tei.json()] == expected


def test_ray_serve_refuses_as_the_server_does(ray_url: str) -> None:
    with httpx.Client(timeout=60) as client:
        unauthorized = client.post(f"{ray_url}/v2/rerank", json={"query": "q", "documents": []})
        assert unauthorized.status_code == 401
        assert unauthorized.json()["message"].startswith("Missing or wrong API key")
        client.headers.update(HEADERS)
        empty = client.post(f"{ray_url}/v2/rerank", json={"query": " ", "documents": ["d"]})
        assert empty.status_code == 400
        assert empty.json()["message"].startswith("query is empty")
        wrong = client.post(f"{ray_url}/v2/rerank", json={"query": "q", "documents": "d"})
        assert wrong.status_code == 422
        assert "does not match the API" in wrong.json()["message"]
        unknown = client.post(
            f"{ray_url}/v2/rerank", json={"model": "gpt", "query": "q", "documents": ["d"]}
        )
        assert unknown.status_code == 404
        assert unknown.json()["message"] == "Unknown model 'gpt'; this server offers: bm25."
        health = client.get(f"{ray_url}/health").json()
        assert health["status"] == "ok" and health["models"] == ["bm25"]


def test_the_command_line_serves_on_ray_until_sigterm(models_config: Path) -> None:
    import signal
    import subprocess
    import sys

    from live_server import ROOT, wait_until_up

    port = free_port()
    command = [
        sys.executable, "-m", "rerank_plus.cli", "serve", "--ray", "--port", str(port),
        "--config", f"bm25={models_config}", "--workers", "1",
    ]  # fmt: skip
    env = serve_environment(RERANK_PLUS_API_KEYS=API_KEY, RAY_USAGE_STATS_ENABLED="0")
    process = subprocess.Popen(command, env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process, seconds=300)
        answer = httpx.post(
            f"{url}/v2/rerank",
            json={"query": QUERIES[0], "documents": DOCS},
            headers=HEADERS,
            timeout=60,
        )
        expected = [r.index for r in BM25Reranker().rank(QUERIES[0], DOCS)]
        assert [r["index"] for r in answer.json()["results"]] == expected
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=120) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
