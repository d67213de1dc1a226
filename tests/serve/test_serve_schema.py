"""Fuzzing the API from its own OpenAPI schema (schemathesis, in-process ASGI, no network):
every operation answers as its schema says, accepts what the schema allows, refuses what it
does not, and never answers 5xx."""

from __future__ import annotations

from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="fuzzing needs the 'test' extra")
pytest.importorskip("fastapi", reason="the server needs the 'server' extra")

from hypothesis import HealthCheck, settings  # noqa: E402
from rerank_plus import BM25Reranker  # noqa: E402
from rerank_plus.serve import ServeSettings, create_app  # noqa: E402

KEY = "schema-fuzzing-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
# English analysis throughout: random text in random scripts would otherwise load a language's
# lemmas and stop words on first sight, seconds each, and fuzzing aims at the HTTP layer.
app = create_app(
    {"bm25": BM25Reranker(language="en")}, ServeSettings(api_keys=(KEY,), batch_wait=0)
)
schema = schemathesis.openapi.from_asgi("/openapi.json", app, headers=AUTH)


def align_extension_lists(body: dict[str, Any]) -> None:
    """``first_stage_scores`` and ``metadata`` hold one item per document, a rule across
    fields that JSON Schema cannot state: a schema-valid body gets lists of the right length."""
    count = len(body.get("documents") or [])
    for field, filler in (("first_stage_scores", 0.0), ("metadata", {})):
        if isinstance(body.get(field), list):
            body[field] = (body[field] + [filler] * count)[:count]


@schema.parametrize()
# Bounded and seeded so the normal test run stays short and repeatable; for a deeper search run
# `schemathesis run http://127.0.0.1:8080/openapi.json` against `rerank-plus serve`.
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_conforms_and_never_answers_5xx(case: Any) -> None:
    positive = (
        case.meta is None or case.meta.generation.mode == schemathesis.GenerationMode.POSITIVE
    )
    if positive and isinstance(case.body, dict):
        align_extension_lists(case.body)
    case.call_and_validate(headers=AUTH, timeout=60)  # a loaded CPU is slow, not broken
