"""The serve command's safety checks and the pieces it is built from, without a server."""

from __future__ import annotations

import pytest

for _module in ("fastapi", "uvicorn", "prometheus_client"):
    pytest.importorskip(_module, reason="the server needs the 'server' extra")

from rerank_plus.cli import main  # noqa: E402
from rerank_plus.cli.serve import is_loopback  # noqa: E402
from rerank_plus.serve.auth import bearer_token, is_authorized, load_api_keys  # noqa: E402
from rerank_plus.serve.handlers import truncate_tokens  # noqa: E402
from rerank_plus.serve.models import load_models  # noqa: E402


def test_a_public_bind_without_a_key_refuses(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("RERANK_PLUS_API_KEYS", raising=False)
    assert main(["serve", "--host", "0.0.0.0", "--port", "1"]) == 2
    error = capsys.readouterr().err
    assert "binding 0.0.0.0 without an API key" in error
    assert "--no-auth" in error


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("::1", True), ("localhost", True), ("0.0.0.0", False),
     ("10.0.0.8", False), ("example.org", False)],
)  # fmt: skip
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_keys_from_env_and_file(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RERANK_PLUS_API_KEYS", " a1 , ,b2")
    path = tmp_path / "keys"
    path.write_text("# team keys\nc3\n\n", encoding="utf-8")
    keys = load_api_keys(path)
    assert keys == ("a1", "b2", "c3")
    assert is_authorized(bearer_token("Bearer c3"), keys)
    assert is_authorized(bearer_token("bearer  b2 "), keys)
    assert not is_authorized(bearer_token("Bearer c"), keys)
    assert not is_authorized(bearer_token("Basic c3"), keys)
    assert not is_authorized(None, keys)
    assert is_authorized(None, ())


def test_truncate_tokens_keeps_the_head_and_its_spacing() -> None:
    assert truncate_tokens("a  b\tc d", 3) == "a  b\tc"
    assert truncate_tokens("🦜 é", 5) == "🦜 é"
    assert truncate_tokens("", 1) == ""
    assert truncate_tokens("x y", None) == "x y"


def test_models_are_named_by_profile_stem_or_name(tmp_path) -> None:
    config = tmp_path / "team.json"
    config.write_text('{"reranker": {"provider": "bm25"}}', encoding="utf-8")
    assert list(load_models(["detail", str(config), f"other={config}"])) == [
        "detail", "team", "other"
    ]  # fmt: skip
    with pytest.raises(ValueError, match="Two models are named 'detail'"):
        load_models(["detail", "detail"])


async def test_a_draining_server_answers_503() -> None:
    import httpx
    from rerank_plus import BM25Reranker
    from rerank_plus.serve import create_app

    app = create_app({"bm25": BM25Reranker()})
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as client:
        app.state.service.draining = True
        answer = await client.post("/v2/rerank", json={"query": "q", "documents": ["d"]})
        assert answer.status_code == 503
        assert "shutting down" in answer.json()["message"]


def test_the_app_shutdown_ends_its_scoring_threads_and_a_restart_makes_new_ones() -> None:
    import threading

    from rerank_plus import BM25Reranker
    from rerank_plus.serve import create_app
    from starlette.testclient import TestClient

    app = create_app({"bm25": BM25Reranker()})
    before = set(threading.enumerate())  # other apps' threads, from earlier tests
    with TestClient(app) as client:  # runs the ASGI lifespan, as uvicorn does
        answer = client.post("/v2/rerank", json={"query": "cats", "documents": ["cats", "dogs"]})
        assert [r["index"] for r in answer.json()["results"]] == [0, 1]
        scoring = [
            thread
            for thread in set(threading.enumerate()) - before
            if thread.name.startswith("rerank-plus-scoring")
        ]
        assert scoring
    with pytest.raises(RuntimeError, match="after shutdown"):
        app.state.service.scoring.submit(print)
    for thread in scoring:
        thread.join(timeout=10)
        assert not thread.is_alive()
    with TestClient(app) as client:  # started again: a new pool
        answer = client.post("/rerank", json={"query": "cats", "texts": ["dogs", "cats"]})
        assert [r["index"] for r in answer.json()] == [1, 0]


@pytest.mark.parametrize("value", ["0", "-2", "two", "1.5", ""])
def test_a_worker_count_that_is_not_a_positive_number_is_refused(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--workers", value])
    assert stopped.value.code == 2
    assert (
        f"argument --workers: must be a whole number >= 1 or 'auto' (one per usable core), "
        f"got {value!r}"
    ) in capsys.readouterr().err


def test_auto_workers_are_the_usable_cores() -> None:
    import os

    from rerank_plus.cli.serve import worker_count
    from rerank_plus.serve.supervisor import usable_cores

    assert worker_count("auto") == "auto"
    assert worker_count("3") == 3
    assert 1 <= usable_cores() <= len(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    ("cpu_max", "limit"),
    [("max 100000", None), ("200000 100000", 2), ("150000 100000", 2), ("5000 100000", 1),
     ("", None)],
)  # fmt: skip
def test_a_containers_cpu_quota_caps_the_workers(tmp_path, cpu_max: str, limit: int | None) -> None:
    from rerank_plus.serve.supervisor import cgroup_cpu_limit

    path = tmp_path / "cpu.max"
    path.write_text(cpu_max, encoding="ascii")
    assert cgroup_cpu_limit(path) == limit
    assert cgroup_cpu_limit(tmp_path / "absent") is None


def test_the_command_line_offers_every_front() -> None:
    from rerank_plus.cli.serve import SERVERS
    from rerank_plus.serve.fronts import FRONTS

    assert tuple(FRONTS) == SERVERS


def test_ray_without_ray_installed_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    assert main(["serve", "--ray", "--config", "detail"]) == 2
    assert capsys.readouterr().err.strip() == (
        "rerank-plus serve: error: rerank-plus serve --ray needs the 'ray[serve]' package, "
        "which is not installed. Install it with `pip install rerank-plus[ray]`."
    )


def test_an_unknown_front_lists_the_valid_ones() -> None:
    from rerank_plus.serve.fronts import make_front

    with pytest.raises(
        ValueError, match=r"Unknown server 'hypercorn'; choose one of: uvicorn, granian\."
    ):
        make_front("hypercorn")
