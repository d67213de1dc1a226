"""Fuzzing the API from its own OpenAPI schema (schemathesis): every operation answers as its
schema says, accepts what the schema allows, refuses what it does not, and never answers 5xx.
In-process (ASGI, no network), and against every live setup (each front, one process and two
workers, on loopback), so every worker and front rejects what the single process rejects."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="fuzzing needs the 'test' extra")
pytest.importorskip("fastapi", reason="the server needs the 'server' extra")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from live_server import LiveServer  # noqa: E402
from rerank_plus import BM25Reranker  # noqa: E402
from rerank_plus.serve import ServeSettings, create_app  # noqa: E402

KEY = "schema-fuzzing-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
# English analysis throughout: random text in random scripts would otherwise load a language's
# lemmas and stop words on first sight, seconds each, and fuzzing aims at the HTTP layer.
app = create_app(
    {"bm25": BM25Reranker(language="en")},
    ServeSettings(api_keys=(KEY,), batch_wait=0),
    memory="memory://",
)
schema = schemathesis.openapi.from_asgi("/openapi.json", app, headers=AUTH)
# Bounded and seeded so the normal test run stays short and repeatable; for a deeper search run
# `schemathesis run http://127.0.0.1:8080/openapi.json` against `rerank-plus serve`.
bounded = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def align_extension_lists(body: dict[str, Any]) -> None:
    """``first_stage_scores`` and ``metadata`` hold one item per document, a rule across
    fields that JSON Schema cannot state: a schema-valid body gets lists of the right length."""
    count = len(body.get("documents") or [])
    for field, filler in (("first_stage_scores", 0.0), ("metadata", {})):
        if isinstance(body.get(field), list):
            body[field] = (body[field] + [filler] * count)[:count]


def unique_message_ids(body: dict[str, Any]) -> None:
    """A message id is unique in its namespace, across requests too, a rule JSON Schema cannot
    state: a schema-valid body's ids are made unique (the fuzzer repeats "0")."""
    for message in body.get("messages") or []:
        if isinstance(message, dict) and isinstance(message.get("id"), str):
            message["id"] = f"{message['id']}-{uuid.uuid4().hex}"


def call_and_validate(case: Any, headers: dict[str, str]) -> None:
    positive = (
        case.meta is None or case.meta.generation.mode == schemathesis.GenerationMode.POSITIVE
    )
    if positive and isinstance(case.body, dict):
        align_extension_lists(case.body)
        unique_message_ids(case.body)
    response = case.call(headers=headers, timeout=60)  # a loaded CPU is slow, not broken
    if response.status_code == 413:
        # The live servers' body limit (2 MB) comes before the schema, and schemathesis does
        # not count 413 as a refusal: a generated body that large is refused, not accepted.
        assert "larger than" in response.json()["message"]
        return
    case.validate_response(response, headers=headers)


@schema.parametrize()
@bounded
def test_every_operation_conforms_and_never_answers_5xx(case: Any) -> None:
    call_and_validate(case, AUTH)


@pytest.mark.parametrize("mode", list(schemathesis.GenerationMode), ids=str)
def test_every_front_and_worker_conforms_and_never_answers_5xx(
    live_server: LiveServer, mode: Any
) -> None:
    live = schemathesis.openapi.from_url(
        f"{live_server.url}/openapi.json", headers=live_server.headers()
    )
    operations = [result.ok() for result in live.get_all_operations()]
    assert len(operations) >= 7  # the three rerank POSTs, /health, /metrics, the memory POSTs
    if mode == schemathesis.GenerationMode.NEGATIVE:  # a GET without parameters has none
        operations = [op for op in operations if op.method.upper() == "POST"]

    for operation in operations:

        @bounded
        @given(case=operation.as_strategy(generation_mode=mode))
        def conforms(case: Any) -> None:
            call_and_validate(case, live_server.headers())

        conforms()
