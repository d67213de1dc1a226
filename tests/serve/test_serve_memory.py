"""The memory endpoints (``rerank-plus serve --memory URL``) on the real app over a real SQLite
store: messages in, the context out, behind the service's key, limits, metrics and errors."""

from __future__ import annotations

import multiprocessing
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer, check_one_store_across_workers

pytest.importorskip("fastapi", reason="the server needs the 'server' extra")

from rerank_plus import BM25Reranker
from rerank_plus.memory.store import open_store
from rerank_plus.serve import ServeSettings, create_app
from rerank_plus.serve.memory import MemoryService
from starlette.testclient import TestClient

KEY = "memory-test-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
CHAT = [
    {"speaker": "Ana", "text": "I start the new job at the bakery on Monday.",
     "time": "2024-05-02T09:00:00Z"},
    {"speaker": "Ben", "text": "My sister works as a nurse in Lyon.",
     "time": "2024-05-02T09:01:00Z"},
    {"speaker": "Ana", "text": "We visited Porto and Seville last spring.",
     "time": "2024-05-03T18:30:00Z"},
]  # fmt: skip
#: What another user said, which a query in the first user's namespace must never see.
OTHER = ["Carla: my bank password hint is the name of my first cat, Whiskers."]


def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'memory.db'}"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = ServeSettings(api_keys=(KEY,), max_documents=50, max_body_bytes=200_000)
    app = create_app({"bm25": BM25Reranker(language="en")}, settings, memory=url(tmp_path))
    with TestClient(app, headers=AUTH) as test_client:  # the lifespan closes the store
        yield test_client


def add(client: TestClient, namespace: str, messages: list[Any]) -> Any:
    return client.post(f"/v1/memory/{namespace}/messages", json={"messages": messages})


def context(client: TestClient, namespace: str, **body: Any) -> Any:
    return client.post(f"/v1/memory/{namespace}/context", json=body)


def test_messages_in_and_the_context_out(client: TestClient) -> None:
    added = add(client, "ana", CHAT)
    assert added.status_code == 200, added.text
    assert added.json() == {"namespace": "ana", "ids": ["m0", "m1", "m2"]}
    answer = context(client, "ana", query="What does Ben's sister do?", max_tokens=300,
                     now="2024-05-10T12:00:00Z")  # fmt: skip
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert set(body) == {"text", "intent", "tokens", "items", "guidance", "trace"}
    assert "nurse in Lyon" in body["text"] and 0 < body["tokens"] <= 300
    assert any(item["memory_id"] == "m1" and item["speaker"] == "Ben" for item in body["items"])
    for item in body["items"]:
        assert {"text", "memory_id", "level", "index", "block", "score", "elided"} <= set(item)
    assert set(body["guidance"]) == {"basis", "summaries", "quotes", "drillable", "notes"}
    steps = {step["step"]: step for step in body["trace"]["steps"]}
    assert steps["query"]["now"] == "2024-05-10T12:00:00+00:00"
    assert steps["store"]["namespace"] == "ana" and steps["store"]["messages"] == 3


@pytest.mark.parametrize(
    "forced",
    [{"query": "which places did Ana visit?"}, {"query": "Ana's new job", "shape": "list"}],
    ids=["intent", "intent and shape"],
)
def test_the_answer_is_what_the_store_gives_in_process(client, tmp_path, forced) -> None:
    add(client, "ana", CHAT)
    question = {"max_tokens": 200, "intent": "detail", "now": "2024-05-10T12:00:00Z", **forced}
    with open_store(url(tmp_path), background=False) as store:
        store.flush("ana")  # the summaries in place, as the server's background thread does
        over_http = context(client, "ana", **question).json()
        direct = store.retrieve("ana", question.pop("query"), **question)
    assert over_http["text"] == direct.text and over_http["intent"] == "detail"
    assert [item["memory_id"] for item in over_http["items"]] == [e.id for e in direct.items]
    if "shape" in forced:
        steps = {step["step"]: step for step in over_http["trace"]["steps"]}
        assert steps["shape"]["shape"] == forced["shape"]


def test_the_schema_names_every_shape_the_policy_knows() -> None:
    from typing import get_args

    from rerank_plus.memory.query import SHAPES
    from rerank_plus.serve.memory_schemas import Shape

    assert set(get_args(Shape)) == set(SHAPES)


@pytest.mark.parametrize("spelling", ["ana/2024-05", "ana%2F2024-05"])
def test_a_namespace_with_a_slash_is_one_namespace_either_way(client, spelling) -> None:
    assert add(client, spelling, CHAT[:1]).json()["namespace"] == "ana/2024-05"
    assert add(client, "ana/2024-05", CHAT[1:]).json()["ids"] == ["m1", "m2"]
    body = context(client, spelling, query="Ana's new job").json()
    assert "bakery" in body["text"]
    assert {step["step"]: step for step in body["trace"]["steps"]}["store"]["messages"] == 3


def test_a_namespace_never_sees_another(client: TestClient) -> None:
    add(client, "ana", CHAT)
    add(client, "carla", OTHER)
    for question in ("bank password hint", "first cat Whiskers", "summarize everything"):
        text = context(client, "ana", query=question, max_tokens=2000).json()["text"]
        assert "Whiskers" not in text and "password" not in text


def test_an_unknown_namespace_gives_the_empty_context_with_its_guidance(client) -> None:
    body = context(client, "nobody/yet", query="anything new?").json()
    assert body["text"] == "" and body["items"] == []
    assert "The memory is empty." in body["guidance"]["notes"]


def test_the_memory_endpoints_need_the_key(client: TestClient) -> None:
    for path in ("/v1/memory/ana/messages", "/v1/memory/ana/context"):
        answer = client.post(path, json={"messages": ["hi"]}, headers={"Authorization": ""})
        assert answer.status_code == 401
        assert answer.json() == {"message": "Missing or wrong API key; send 'Authorization: "
                                 "Bearer <key>'."}  # fmt: skip
    assert context(client, "ana", query="hi").json()["items"] == []  # nothing was added


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("ana/messages", {"messages": [{"text": "hi", "speakr": "Ana"}]}, 422,
         r"messages\.0\.MessageObject\.speakr: Extra inputs are not permitted"),
        ("ana/messages", {"messages": [{"text": 3}]}, 422, r"messages\.0\."),
        ("ana/messages", {"messages": "hi"}, 422, r"messages: "),
        ("ana/messages", {"messages": [{"text": "hi", "time": "noon"}]}, 422,
         r"messages\[0\]\.time: 'noon' is not"),
        ("ana/messages", {"messages": [{"text": "a", "id": "x"}, {"text": "b", "id": "x"}]},
         422, r"messages\[1\]\.id 'x' repeats"),
        ("ana/messages", {"messages": ["hi"] * 51}, 400,
         r"51 messages in one request; the limit is 50\. Send them in several"),
        ("ana/messages", {"messages": ["x" * 100_001]}, 400,
         r"messages\[0\] has 100001 characters; the limit is 100000"),
        ("ana/context", {"query": "   "}, 400, r"query is empty"),
        ("ana/context", {"query": "hi", "now": "yesterday"}, 422, r"now: 'yesterday' is not"),
        ("ana/context", {"query": "hi", "intent": "gossip"}, 422, r"intent: Input should be"),
        ("ana/context", {"query": "hi", "shape": "tree"}, 422, r"shape: Input should be"),
        ("ana/context", {"query": "hi", "max_tokens": 0}, 422, r"max_tokens: Input should be"),
        (f"{'n' * 513}/context", {"query": "hi"}, 422, r"namespace: String should have at most"),
        ("/context", {"query": "hi"}, 422, r"namespace: String should have at least 1"),
    ],
)  # fmt: skip
def test_bad_requests_get_one_message_that_names_the_field(client, path, body, status, message):
    answer = client.post(f"/v1/memory/{path}", json=body)
    assert answer.status_code == status, answer.text
    assert list(answer.json()) == ["message"]
    assert re.search(message, answer.json()["message"]), answer.json()["message"]


def test_a_taken_id_is_refused_and_nothing_of_the_request_is_added(client: TestClient) -> None:
    assert add(client, "ana", [{"text": "first", "id": "a"}]).status_code == 200
    answer = add(client, "ana", [{"text": "second", "id": "b"}, {"text": "again", "id": "a"}])
    assert answer.status_code == 409
    assert answer.json()["message"].startswith(
        "the message id 'a' is already in the namespace 'ana'; give the message its own id"
    )
    assert add(client, "ana", ["third"]).json()["ids"] == ["m1"]


def test_messages_read_one_by_one_and_the_last_ones(client: TestClient) -> None:
    add(client, "ana/2024", CHAT)
    every = client.get("/v1/memory/ana/2024/messages").json()
    assert every["namespace"] == "ana/2024"
    assert [m["text"] for m in every["messages"]] == [m["text"] for m in CHAT]
    assert every["messages"][1] == {
        "id": "m1",
        "index": 1,
        "text": "My sister works as a nurse in Lyon.",
        "time": "2024-05-02T09:01:00+00:00",
        "speaker": "Ben",
        **{k: v for k, v in every["messages"][1].items() if k in ("entities", "tags")},
    }
    last = client.get("/v1/memory/ana%2F2024/messages", params={"last": 2}).json()
    assert last["messages"] == every["messages"][1:]
    assert client.get("/v1/memory/ana/2024/messages/m1").json() == every["messages"][1]
    assert client.get("/v1/memory/nobody/messages").json()["messages"] == []
    assert client.get("/v1/memory/ana/2024/messages", params={"last": -1}).status_code == 422


def test_a_deleted_message_is_gone_from_the_context(client: TestClient) -> None:
    add(client, "ana", [*CHAT, *OTHER])
    question = {"query": "what is the bank password hint?", "max_tokens": 2000}
    assert "Whiskers" in context(client, "ana", **question).json()["text"]
    deleted = client.delete("/v1/memory/ana/messages/m3")
    assert deleted.status_code == 200, deleted.text
    assert deleted.json() == {"namespace": "ana", "id": "m3", "deleted": True}
    assert "Whiskers" not in context(client, "ana", **question).json()["text"]
    assert client.get("/v1/memory/ana/messages/m3").status_code == 404


@pytest.mark.parametrize("method", ["get", "delete"])
def test_an_unknown_namespace_or_message_is_a_404_that_says_so(client, method) -> None:
    answer = getattr(client, method)("/v1/memory/nobody/messages/m0")
    assert answer.status_code == 404
    assert answer.json()["message"].startswith("the namespace 'nobody' holds no messages")
    add(client, "ana", ["hi"])
    answer = getattr(client, method)("/v1/memory/ana/messages/m9")
    assert answer.status_code == 404
    assert answer.json()["message"].startswith("the namespace 'ana' holds no message 'm9'")


def test_a_body_over_the_limit_is_413(client: TestClient) -> None:
    answer = add(client, "ana", ["word " * 50_000])
    assert answer.status_code == 413 and "larger than 200000 bytes" in answer.json()["message"]


def test_metrics_count_memory_requests_by_route_never_by_namespace(client: TestClient) -> None:
    add(client, "secret-user-42/session", CHAT)
    context(client, "secret-user-42/session", query="new job?")
    context(client, "secret-user-42/session", query="   ")
    text = client.get("/metrics").text
    assert (
        'rerank_plus_requests_total{path="/v1/memory/{namespace}/messages",status="200"} 1.0'
        in text
    )
    assert (
        'rerank_plus_requests_total{path="/v1/memory/{namespace}/context",status="400"} 1.0' in text
    )
    client.get("/v1/memory/secret-user-42/session/messages/m0")
    client.delete("/v1/memory/secret-user-42/session/messages/m7-secret")
    text = client.get("/metrics").text
    label = 'path="/v1/memory/{namespace}/messages/{message_id}"'
    assert f'rerank_plus_requests_total{{{label},status="200"}} 1.0' in text
    assert f'rerank_plus_requests_total{{{label},status="404"}} 1.0' in text
    assert "secret-user-42" not in text and "m7-secret" not in text


def test_the_schema_declares_the_memory_endpoints_and_their_limits(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert {"/v1/memory/{namespace}/messages", "/v1/memory/{namespace}/context"} <= set(
        schema["paths"]
    )
    components = schema["components"]["schemas"]
    assert components["AddMessagesRequest"]["properties"]["messages"]["maxItems"] == 50
    assert components["MessageObject"]["properties"]["text"]["maxLength"] == 100_000
    assert components["ContextRequest"]["properties"]["query"]["pattern"] == r"\S"
    namespace = schema["paths"]["/v1/memory/{namespace}/context"]["post"]["parameters"][0]
    assert namespace["schema"]["maxLength"] == 512
    one = schema["paths"]["/v1/memory/{namespace}/messages/{message_id}"]
    assert {"409", "404"} <= set(
        schema["paths"]["/v1/memory/{namespace}/messages"]["post"]["responses"]
    )
    assert "404" in one["get"]["responses"] and "404" in one["delete"]["responses"]


def test_without_memory_the_endpoints_are_not_there() -> None:
    with TestClient(create_app({"bm25": BM25Reranker(language="en")})) as plain:
        assert plain.post("/v1/memory/ana/messages", json={"messages": ["hi"]}).status_code == 404
        assert "/v1/memory/{namespace}/messages" not in plain.get("/openapi.json").json()["paths"]


def test_a_store_that_cannot_open_is_a_503_that_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder.db"
    folder.mkdir()
    app = create_app({"bm25": BM25Reranker(language="en")}, memory=f"sqlite:///{folder}")
    with TestClient(app) as broken:
        answer = add(broken, "ana", ["hi"])
    assert answer.status_code == 503
    assert answer.json()["message"].startswith("The memory store could not answer: ")
    assert "is a folder" in answer.json()["message"]


def _add_from_a_forked_child(service: MemoryService, inherited: Any, done: Any) -> None:
    try:
        store = service.store()
        done.put((store is not inherited, store.add("ana", ["Added by the forked child."])))
        service.close()
    except BaseException as error:  # reported to the parent, which fails the test
        done.put((repr(error), []))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_a_forked_process_opens_its_own_store_and_leaves_the_parents_alone(tmp_path) -> None:
    # No summarizing thread that could be writing at the fork (SQLite's rule: never fork a
    # connection in the middle of a write).
    service = MemoryService(lambda: open_store(url(tmp_path), background=False), ServeSettings())
    parents = service.store()
    parents.add("ana", ["Added by the parent before the fork."])
    context_ = multiprocessing.get_context("fork")
    done = context_.Queue()
    child = context_.Process(target=_add_from_a_forked_child, args=(service, parents, done))
    child.start()
    opened_its_own, ids = done.get(timeout=120)
    child.join(timeout=60)
    assert opened_its_own is True, opened_its_own
    assert ids == ["m1"] and child.exitcode == 0
    assert service.store() is parents  # the parent's store, still open after the child closed
    parents.add("ana", ["Added by the parent after the child."])
    assert [item.text for item in parents.messages("ana")] == [
        "Added by the parent before the fork.",
        "Added by the forked child.",
        "Added by the parent after the child.",
    ]
    service.close()


def test_workers_share_one_sqlite_store_and_lose_no_message(live_server: LiveServer) -> None:
    check_one_store_across_workers(live_server, f"live/{live_server.server}")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_with_a_store_that_cannot_open_does_not_start(
    tmp_path, capsys, monkeypatch, workers
) -> None:
    """The store is opened in each process before it serves: a bad URL stops the start, in one
    line, whether one process serves or several workers do."""
    from live_server import free_port, serve_environment
    from rerank_plus.cli import main

    monkeypatch.setenv("PYTHONPATH", serve_environment()["PYTHONPATH"])  # for the workers

    folder = f"sqlite:///{tmp_path}"  # a folder, not a file
    arguments = ["serve", "--config", "detail", "--port", str(free_port()), "--workers", workers]
    assert main([*arguments, "--memory", folder, "--log-level", "warning"]) == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("rerank-plus serve: error: ") and "is a folder" in error


def test_a_memory_embedder_without_a_store_is_refused(capsys) -> None:
    from rerank_plus.cli import main

    assert main(["serve", "--memory-embedder", "minilm"]) == 2
    assert "--memory-embedder needs --memory URL" in capsys.readouterr().err


def test_a_wrong_method_names_every_method_the_path_takes(client: TestClient) -> None:
    messages = client.put("/v1/memory/ana/messages", json={})
    assert messages.status_code == 405
    assert {"GET", "POST"} <= set(messages.headers["allow"].split(", "))
    one = client.post("/v1/memory/ana/messages/m0", json={})
    assert one.status_code == 405
    assert {"GET", "DELETE"} <= set(one.headers["allow"].split(", "))
    assert "POST" not in one.headers["allow"]
