"""The rerank server: Cohere-, Jina- and TEI-shaped endpoints over any configured reranker.

Scoring is CPU-bound, so it runs in a worker thread and never blocks the event loop. Every
bad request gets a 4xx with a JSON ``message`` that says what to change; one request failing
never touches another.
"""

from __future__ import annotations

import asyncio
import functools
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.exceptions import HTTPException as StarletteHTTPException

from rerank_plus.errors import RerankPlusError
from rerank_plus.reranker import Reranker
from rerank_plus.results import RankedResult
from rerank_plus.serve.auth import bearer_token, is_authorized
from rerank_plus.serve.limits import BodyLimit
from rerank_plus.serve.metrics import MetricsMiddleware, ServerMetrics
from rerank_plus.serve.schemas import (
    CohereRerankRequest,
    CohereRerankResponse,
    ErrorBody,
    TeiRank,
    TeiRerankRequest,
)
from rerank_plus.serve.settings import ServeSettings

_TOKEN = re.compile(r"\S+")
_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 404, 413, 415, 422, 502, 503, 504)
}


class ApiError(Exception):
    """A request the server refuses, with the status and the message the client gets."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"message": message}, status_code=status, headers=headers or None)


def truncate_tokens(text: str, max_tokens: int | None) -> str:
    """The text up to the end of its ``max_tokens``-th whitespace-separated token."""
    if max_tokens is None:
        return text
    for count, match in enumerate(_TOKEN.finditer(text), start=1):
        if count == max_tokens:
            return text[: match.end()]
    return text


class RerankService:
    """Checks a request against the settings, finds its model, ranks in a worker thread."""

    def __init__(
        self, models: Mapping[str, Reranker], settings: ServeSettings, metrics: ServerMetrics
    ) -> None:
        if not models:
            raise ValueError("A server needs at least one model (a profile or configuration).")
        self.models = dict(models)
        self.default = next(iter(self.models))
        self.settings = settings
        self.metrics = metrics
        self.draining = False
        # Scoring holds the GIL; more threads than cores only add switching and contention.
        self.scoring = anyio.CapacityLimiter(settings.scoring_threads)

    def model(self, name: str | None) -> tuple[str, Reranker]:
        key = name or self.default
        if key not in self.models:
            raise ApiError(
                404, f"Unknown model {key!r}; this server offers: {', '.join(self.models)}."
            )
        return key, self.models[key]

    def check(self, query: str, texts: Sequence[str]) -> None:
        limits = self.settings
        if not query.strip():
            raise ApiError(400, "query is empty; send the question to rank the documents for.")
        if len(query) > limits.max_query_chars:
            raise ApiError(
                400, f"query has {len(query)} characters; the limit is {limits.max_query_chars}."
            )
        if len(texts) > limits.max_documents:
            raise ApiError(
                400,
                f"{len(texts)} documents in one request; the limit is {limits.max_documents}. "
                "Send a first stage's top candidates, or start the server with a higher "
                "--max-documents.",
            )
        for position, text in enumerate(texts):
            if len(text) > limits.max_document_chars:
                raise ApiError(
                    400,
                    f"documents[{position}] has {len(text)} characters; the limit is "
                    f"{limits.max_document_chars}. Truncate it, or set max_tokens_per_doc.",
                )

    async def rank(
        self, name: str | None, query: str, texts: list[str], **options: Any
    ) -> tuple[str, list[RankedResult]]:
        key, reranker = self.model(name)
        self.check(query, texts)
        try:
            results = await asyncio.wait_for(
                anyio.to_thread.run_sync(
                    functools.partial(reranker.rank, query, texts, **options),
                    limiter=self.scoring,
                ),
                timeout=self.settings.request_timeout,
            )
        except asyncio.TimeoutError as error:
            raise ApiError(
                504,
                f"Ranking took longer than {self.settings.request_timeout} s; send fewer "
                "documents per request.",
            ) from error
        except (ValueError, TypeError) as error:
            raise ApiError(422, str(error)) from error
        except RerankPlusError as error:
            raise ApiError(502, f"The {key!r} model failed: {error}") from error
        self.metrics.documents.labels(key).inc(len(texts))
        return key, results


def _document_texts(request: CohereRerankRequest) -> list[str]:
    return [d if isinstance(d, str) else d.text for d in request.documents]


def create_app(models: Mapping[str, Reranker], settings: ServeSettings | None = None) -> FastAPI:
    """The ASGI application serving ``models`` by name under ``settings``; its
    ``state.service.draining`` turns new requests away with 503 during shutdown."""
    settings = settings or ServeSettings()
    metrics = ServerMetrics()
    service = RerankService(models, settings, metrics)
    app = FastAPI(
        title="rerank-plus",
        description="Cohere-, Jina- and TEI-compatible rerank API over rerank-plus rerankers.",
        version="1",
    )
    app.state.service = service

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return _error(error.status, error.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        if "json" not in request.headers.get("content-type", ""):
            return _error(415, "Send the body as JSON with 'Content-Type: application/json'.")
        if any(p.get("type") == "json_invalid" for p in problems):
            return _error(400, "The body is not valid JSON; send a JSON object.")
        where = "; ".join(
            f"{'.'.join(str(part) for part in p.get('loc', ())[1:]) or 'body'}: {p.get('msg')}"
            for p in problems[:5]
        )
        return _error(422, f"The request does not match the API: {where}.")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail))

    @app.middleware("http")
    async def guard(request: Request, call_next: Any) -> Response:
        if service.draining:
            return _error(503, "The server is shutting down; retry on another instance.")
        if request.url.path in ("/health", "/metrics"):
            return await call_next(request)
        if not is_authorized(bearer_token(request.headers.get("authorization")), settings.api_keys):
            return _error(
                401,
                "Missing or wrong API key; send 'Authorization: Bearer <key>'.",
                **{"WWW-Authenticate": "Bearer"},
            )
        return await call_next(request)

    async def cohere(request: CohereRerankRequest, version: str) -> dict[str, Any]:
        texts = _document_texts(request)
        scored = [truncate_tokens(t, request.max_tokens_per_doc) for t in texts]
        name, results = await service.rank(
            request.model,
            request.query,
            scored,
            top_n=request.top_n,
            explain=request.explain,
            first_stage_scores=request.first_stage_scores,
            metadata=request.metadata,
        )
        out = []
        for result in results:
            item: dict[str, Any] = {
                "index": result.index,
                "relevance_score": result.relevance_score,
            }
            if request.return_documents:
                item["document"] = {"text": texts[result.index]}
            if result.explanation is not None:
                item["explanation"] = dict(result.explanation)
            out.append(item)
        return {
            "id": str(uuid.uuid4()),
            "results": out,
            "meta": {"api_version": {"version": version}},
            "model": name,
        }

    @app.post(
        "/v1/rerank",
        response_model=None,
        responses={200: {"model": CohereRerankResponse}, **_ERRORS},
    )
    async def rerank_v1(request: CohereRerankRequest) -> JSONResponse:
        """Cohere v1 (documents as strings or ``{"text": ...}`` objects), also Jina's shape."""
        return JSONResponse(await cohere(request, "1"))

    @app.post(
        "/v2/rerank",
        response_model=None,
        responses={200: {"model": CohereRerankResponse}, **_ERRORS},
    )
    async def rerank_v2(request: CohereRerankRequest) -> JSONResponse:
        """Cohere v2: ``results`` of ``index`` and ``relevance_score``, best first."""
        return JSONResponse(await cohere(request, "2"))

    @app.post("/rerank", response_model=None, responses={200: {"model": list[TeiRank]}, **_ERRORS})
    async def rerank_tei(request: TeiRerankRequest) -> JSONResponse:
        """Text-embeddings-inference: every text's ``score``, best first."""
        _, results = await service.rank(
            request.model, request.query, list(request.texts), explain=request.explain
        )
        out = []
        for result in results:
            score = result.score if request.raw_scores else result.relevance_score
            item: dict[str, Any] = {"index": result.index, "score": score}
            if request.return_text:
                item["text"] = request.texts[result.index]
            if result.explanation is not None:
                item["explanation"] = dict(result.explanation)
            out.append(item)
        return JSONResponse(out)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Liveness and the models on offer."""
        return {"status": "ok", "models": list(service.models)}

    @app.get("/metrics")
    async def prometheus() -> Response:
        """Prometheus text format: requests, errors by status, latency, documents."""
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    paths = frozenset(("/v1/rerank", "/v2/rerank", "/rerank", "/health", "/metrics"))
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(MetricsMiddleware, metrics=metrics, paths=paths)  # outermost: counts 413s
    return app
