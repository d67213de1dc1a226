"""The rerank server: Cohere-, Jina- and TEI-shaped endpoints over any configured reranker.

Scoring is CPU-bound, so it runs in a worker thread and the event loop keeps answering (in a
server process of its own, lexical requests predicted to take less than the GIL switch
interval are ranked on the loop: ``batching.InlineScoring``). The rerank POSTs skip FastAPI's
route stack (``endpoints``); FastAPI gives the schema and the other paths (``routes``). Every
bad request gets a 4xx with a JSON ``message`` that says what to change; one request failing
never touches another. Here: the app put together from those parts, its error answers, its
middlewares.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from rerank_plus.reranker import Reranker
from rerank_plus.serve.endpoints import RerankEndpoints
from rerank_plus.serve.errors import ApiError
from rerank_plus.serve.guard import Guard
from rerank_plus.serve.handlers import rerank_handlers
from rerank_plus.serve.limits import BodyLimit, Receive, Scope, Send
from rerank_plus.serve.memory import MemoryService, memory_path_label
from rerank_plus.serve.memory_routes import add_memory_routes
from rerank_plus.serve.metrics import MetricsMiddleware, ServerMetrics
from rerank_plus.serve.parsing import problem
from rerank_plus.serve.routes import add_routes
from rerank_plus.serve.service import RerankService
from rerank_plus.serve.settings import ServeSettings

#: The paths :class:`RerankEndpoints` answers POSTs to without FastAPI's route stack.
RERANK_PATHS = ("/v1/rerank", "/v2/rerank", "/rerank")


def _error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"message": message}, status_code=status, headers=headers or None)


class RerankApp(FastAPI):
    """FastAPI, with POSTs to the rerank paths answered by ``endpoints`` (the same handlers,
    metrics, key and limits, without FastAPI's route stack: see ``endpoints``)."""

    endpoints: RerankEndpoints | None = None
    service: RerankService | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.service is None:
            await super().__call__(scope, receive, send)
            return
        service = self.service
        service.active += 1
        try:
            if self.endpoints is not None and self.endpoints.serves(scope):
                scope["app"] = self
                await self.endpoints(scope, receive, send)
            else:
                await super().__call__(scope, receive, send)
        finally:
            service.active -= 1


def _one_worker() -> tuple[int, int]:
    return 1, 1


def _memory_service(memory: str | Callable[[], Any], settings: ServeSettings) -> MemoryService:
    if isinstance(memory, str):
        from rerank_plus.memory.store import open_store

        url = memory
        return MemoryService(lambda: open_store(url), settings)
    return MemoryService(memory, settings)


def create_app(
    models: Mapping[str, Reranker],
    settings: ServeSettings | None = None,
    *,
    workers: Callable[[], tuple[int, int]] = _one_worker,
    memory: str | Callable[[], Any] | None = None,
) -> FastAPI:
    """The ASGI application serving ``models`` by name under ``settings``; its
    ``state.service.draining`` turns new requests away with 503 during shutdown.
    ``workers()`` says how many of the server's worker processes are up, of how many, for
    ``/health``. ``memory``: a memory store's URL, or a function that opens the store (called
    once in each process that serves), for the ``/v1/memory/...`` endpoints."""
    settings = settings or ServeSettings()
    metrics = ServerMetrics()
    service = RerankService(models, settings, metrics)
    memories = _memory_service(memory, settings) if memory is not None else None

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.open()
        yield
        service.close()  # after uvicorn has let in-flight requests finish
        if memories is not None:
            memories.close()

    app = RerankApp(
        lifespan=lifespan,
        title="rerank-plus",
        description="Cohere-, Jina- and TEI-compatible rerank API over rerank-plus rerankers.",
        version="1",
    )
    app.state.service = service
    app.state.memory = memories
    app.service = service

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return _error(error.status, error.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        found = problem([{**e, "loc": e.get("loc", ())[1:]} for e in error.errors()])
        return _error(found.status, found.message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        # Keep the exception's headers: a 405 must say which methods are allowed (RFC 9110).
        headers = dict(error.headers or {})
        if error.status_code == 405:
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return _error(error.status_code, str(error.detail), **headers)

    handlers = rerank_handlers(service)
    add_routes(app, handlers, service, metrics=metrics, workers=workers)
    if memories is not None:
        add_memory_routes(app, memories)
    paths = frozenset((*RERANK_PATHS, "/health", "/metrics"))
    open_paths = frozenset(("/health", "/metrics"))
    draining = lambda: service.draining  # noqa: E731

    # Added innermost first: metrics see every answer (413s, 401s, 503s included), and the
    # key is checked before the body is read.
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(Guard, draining=draining, keys=settings.api_keys, open_paths=open_paths)
    app.add_middleware(MetricsMiddleware, metrics=metrics, paths=paths, templates=memory_path_label)
    # The rerank POSTs: the same handlers, metrics, key and limits, without FastAPI.
    app.endpoints = RerankEndpoints(
        handlers,
        metrics=MetricsMiddleware(app, metrics=metrics, paths=paths),
        guard=Guard(app, draining=draining, keys=settings.api_keys, open_paths=open_paths),
        max_bytes=settings.max_body_bytes,
    )
    return app


def _allowed_methods(request: Request) -> list[str]:
    """Every method of every route on the request's path: Starlette's 405 names only the first
    route's, where a path such as a namespace's messages has a GET route and a POST route."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match is not Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return sorted(methods)
