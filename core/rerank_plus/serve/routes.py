"""The FastAPI routes and the OpenAPI schema: the rerank POSTs (reached where the fast path of
``endpoints`` is not, and declared so the schema describes them), ``/health`` and ``/metrics``.

The rerank endpoints parse their bodies themselves (``parsing``), so FastAPI cannot see their
request models: the schema gets them, and the server's limits on them, added here, so clients
and fuzzers see what a request may hold before sending it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel

from rerank_plus.serve.endpoints import Handler, json_bytes
from rerank_plus.serve.memory_routes import add_memory_limits
from rerank_plus.serve.metrics import ServerMetrics
from rerank_plus.serve.schemas import (
    CohereRerankRequest,
    CohereRerankResponse,
    ErrorBody,
    TeiRank,
    TeiRerankRequest,
)
from rerank_plus.serve.service import RerankService
from rerank_plus.serve.settings import ServeSettings

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 404, 413, 415, 422, 502, 503, 504)
}


async def _answer(request: Request, handler: Handler) -> Response:
    """A rerank handler behind a FastAPI route (reached only where the fast path is not)."""
    payload = await handler(await request.body(), request.headers.get("content-type"))
    return Response(json_bytes(payload), media_type="application/json")


def _request_body(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI request body of an endpoint that parses ``model`` itself."""
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


def _add_limits(components: dict[str, Any], settings: ServeSettings) -> None:
    """The server's limits in its schema, so clients (and fuzzers) see them before sending."""
    text = {"maxLength": settings.max_document_chars}
    components["TextDocument"]["properties"]["text"].update(text)
    for name, field in (("CohereRerankRequest", "documents"), ("TeiRerankRequest", "texts")):
        properties = components[name]["properties"]
        properties["query"].update(pattern=r"\S", maxLength=settings.max_query_chars)
        properties[field]["maxItems"] = settings.max_documents
        items = properties[field]["items"]
        for option in items.get("anyOf", [items]):
            if option.get("type") == "string":
                option.update(text)


def add_routes(
    app: FastAPI,
    handlers: Mapping[str, Handler],
    service: RerankService,
    *,
    metrics: ServerMetrics,
    workers: Callable[[], tuple[int, int]],
) -> None:
    """The routes of ``app``: the rerank ``handlers`` by path, ``/health`` (``workers()``
    says how many worker processes are up, of how many) and ``/metrics``; and its schema."""

    @app.post(
        "/v1/rerank",
        response_model=None,
        responses={200: {"model": CohereRerankResponse}, **_ERRORS},
        openapi_extra=_request_body(CohereRerankRequest),
    )
    async def rerank_v1(request: Request) -> Response:
        """Cohere v1 (documents as strings or ``{"text": ...}`` objects), also Jina's shape."""
        return await _answer(request, handlers["/v1/rerank"])

    @app.post(
        "/v2/rerank",
        response_model=None,
        responses={200: {"model": CohereRerankResponse}, **_ERRORS},
        openapi_extra=_request_body(CohereRerankRequest),
    )
    async def rerank_v2(request: Request) -> Response:
        """Cohere v2: ``results`` of ``index`` and ``relevance_score``, best first."""
        return await _answer(request, handlers["/v2/rerank"])

    @app.post(
        "/rerank",
        response_model=None,
        responses={200: {"model": list[TeiRank]}, **_ERRORS},
        openapi_extra=_request_body(TeiRerankRequest),
    )
    async def rerank_tei(request: Request) -> Response:
        """Text-embeddings-inference: every text's ``score``, best first."""
        return await _answer(request, handlers["/rerank"])

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Liveness, the models on offer, and the worker processes up (of how many)."""
        up, total = workers()
        return {"status": "ok", "models": list(service.models), "workers": {"up": up, "of": total}}

    @app.get("/metrics", response_class=PlainTextResponse)
    async def prometheus() -> Response:
        """Prometheus text format: requests, errors by status, latency, documents, batches
        (summed over all worker processes, the ones that ended included)."""
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    def openapi() -> dict[str, Any]:
        """FastAPI's schema, plus the request bodies the endpoints parse themselves."""
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in (CohereRerankRequest, TeiRerankRequest):
                found = model.model_json_schema(ref_template="#/components/schemas/{model}")
                components.update(found.pop("$defs", {}))
                components[model.__name__] = found
            _add_limits(components, service.settings)
            add_memory_limits(components, service.settings)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
