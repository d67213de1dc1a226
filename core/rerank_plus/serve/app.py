"""The rerank server: Cohere-, Jina- and TEI-shaped endpoints over any configured reranker.

Scoring is CPU-bound, so it runs in a worker thread and the event loop keeps answering (in a
server process of its own, lexical requests predicted to take less than the GIL switch
interval are ranked on the loop: ``batching.InlineScoring``). The rerank POSTs skip FastAPI's
route stack (``endpoints``); FastAPI gives the schema and the other paths. Every bad request
gets a 4xx with a JSON ``message`` that says what to change; one request failing never touches
another.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from rerank_plus.errors import RerankPlusError
from rerank_plus.reranker import RankInput, Reranker
from rerank_plus.results import RankedResult
from rerank_plus.serve.batching import InlineScoring, MicroBatcher, shares_batches
from rerank_plus.serve.endpoints import Handler, RerankEndpoints, json_bytes
from rerank_plus.serve.errors import ApiError
from rerank_plus.serve.guard import Guard
from rerank_plus.serve.limits import BodyLimit, Receive, Scope, Send
from rerank_plus.serve.metrics import MetricsMiddleware, ServerMetrics
from rerank_plus.serve.parsing import parse_cohere, parse_tei, problem
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
#: The paths :class:`RerankEndpoints` answers POSTs to without FastAPI's route stack.
RERANK_PATHS = ("/v1/rerank", "/v2/rerank", "/rerank")


#: Response ids: random bits seeded once from the OS. ``uuid.uuid4()`` reads ``os.urandom``
#: per call, which lets go of the GIL in the middle of a request: the scoring thread takes it,
#: and the event loop waits to get it back (two thread switches per request).
_IDS = random.Random()


#: The version (4) and variant (RFC 4122) bits of a random UUID, and where they go.
_UUID4_CLEAR = ~((0xF000 << 64) | (0xC000 << 48))
_UUID4_SET = (0x4000 << 64) | (0x8000 << 48)


def answer_id() -> str:
    """A random UUID (version 4) for an answer's ``id``: what ``str(uuid.UUID(int=bits,
    version=4))`` gives, formatted without building the object (a few microseconds per
    request)."""
    digits = "%032x" % (_IDS.getrandbits(128) & _UUID4_CLEAR | _UUID4_SET)
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


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
    """Checks a request against the settings, finds its model, ranks in a worker thread
    (micro-batched with its neighbours where the model shares batches)."""

    def __init__(
        self, models: Mapping[str, Reranker], settings: ServeSettings, metrics: ServerMetrics
    ) -> None:
        if not models:
            raise ValueError("A server needs at least one model (a profile or configuration).")
        self.models = dict(models)
        self.default = next(iter(self.models))
        self.settings = settings
        self.metrics = metrics
        # Looked up once: ``labels()`` takes a lock and builds a key on every call.
        self._documents = {name: metrics.documents.labels(name) for name in self.models}
        self.draining = False
        #: HTTP requests received and not yet answered (the drain waits for none to be left).
        self.active = 0
        self._closed = False
        self.scoring, self.lexical = self._pools()
        self.inline = InlineScoring() if settings.inline_scoring else None
        # Neural models wait up to batch_wait for neighbours and share forward passes, on
        # ``scoring_threads`` threads (torch lets go of the GIL). The others gain nothing from
        # company: each request is its own job on one thread, so the event loop reads and
        # answers other requests while one is scored. Grouping them (one hand-off for all that
        # arrived in one loop turn) made a worker's connections wait for each other: its
        # requests came back all at once, and the worker idled until the clients sent the
        # next ones (2 workers, 16 connections: 1,563 requests/s grouped, 2,948 alone). In a
        # worker process their short requests skip the thread (``InlineScoring``).
        self.batchers = {
            name: self._batcher(name, reranker) for name, reranker in self.models.items()
        }

    def _batcher(self, name: str, reranker: Reranker) -> MicroBatcher:
        neural = shares_batches(reranker)
        return MicroBatcher(
            reranker,
            wait=self.settings.batch_wait if neural else 0.0,
            max_size=self.settings.batch_size if neural else 1,
            executor=self.scoring if neural else self.lexical,
            on_batch=self.metrics.batch_size.labels(name).observe,
            inline=None if neural else self.inline,
        )

    def _pools(self) -> tuple[ThreadPoolExecutor, ThreadPoolExecutor]:
        # Lexical scoring holds the GIL: a second thread for it only takes turns with the first
        # (measured: 871 requests/s on two threads, 1,464 on one).
        return (
            ThreadPoolExecutor(
                self.settings.scoring_threads, thread_name_prefix="rerank-plus-scoring"
            ),
            ThreadPoolExecutor(1, thread_name_prefix="rerank-plus-scoring-lexical"),
        )

    def open(self) -> None:
        """New scoring pools if :meth:`close` ended the last ones (an app started again)."""
        if self._closed:
            self.scoring, self.lexical = self._pools()
            if self.inline is not None:
                self.inline.queued = 0  # the jobs of the last pools are gone with them
            for name, reranker in self.models.items():
                self.batchers[name].executor = (
                    self.scoring if shares_batches(reranker) else self.lexical
                )
            self._closed = False

    def close(self) -> None:
        """Let the scoring threads end once their current job is done (the app's shutdown)."""
        self.scoring.shutdown(wait=False, cancel_futures=True)
        self.lexical.shutdown(wait=False, cancel_futures=True)
        self._closed = True

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
        longest = max(map(len, texts), default=0)
        if longest > limits.max_document_chars:
            position = next(i for i, text in enumerate(texts) if len(text) == longest)
            raise ApiError(
                400,
                f"documents[{position}] has {longest} characters; the limit is "
                f"{limits.max_document_chars}. Truncate it, or set max_tokens_per_doc.",
            )

    async def rank(
        self,
        name: str | None,
        query: str,
        texts: list[str],
        top_n: int | None = None,
        *,
        explain: bool = False,
        first_stage_scores: Sequence[float] | None = None,
        metadata: Sequence[Mapping[str, Any]] | None = None,
    ) -> tuple[str, list[RankedResult]]:
        key, _ = self.model(name)
        self.check(query, texts)
        item = RankInput(query, texts, first_stage_scores, metadata)
        try:
            results = await self.batchers[key].rank(
                item, top_n, explain=explain, timeout=self.settings.request_timeout
            )
        except TimeoutError as error:
            raise ApiError(
                504,
                f"Ranking took longer than {self.settings.request_timeout} s; send fewer "
                "documents per request.",
            ) from error
        except (ValueError, TypeError) as error:
            raise ApiError(422, str(error)) from error
        except RerankPlusError as error:
            raise ApiError(502, f"The {key!r} model failed: {error}") from error
        self._documents[key].inc(len(texts))
        return key, results


async def _answer(request: Request, handler: Handler) -> Response:
    """A rerank handler behind a FastAPI route (reached only where the fast path is not)."""
    payload = await handler(await request.body(), request.headers.get("content-type"))
    return Response(json_bytes(payload), media_type="application/json")


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


def _one_worker() -> tuple[int, int]:
    return 1, 1


def create_app(
    models: Mapping[str, Reranker],
    settings: ServeSettings | None = None,
    *,
    workers: Callable[[], tuple[int, int]] = _one_worker,
) -> FastAPI:
    """The ASGI application serving ``models`` by name under ``settings``; its
    ``state.service.draining`` turns new requests away with 503 during shutdown.
    ``workers()`` says how many of the server's worker processes are up, of how many, for
    ``/health``."""
    settings = settings or ServeSettings()
    metrics = ServerMetrics()
    service = RerankService(models, settings, metrics)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.open()
        yield
        service.close()  # after uvicorn has let in-flight requests finish

    app = RerankApp(
        lifespan=lifespan,
        title="rerank-plus",
        description="Cohere-, Jina- and TEI-compatible rerank API over rerank-plus rerankers.",
        version="1",
    )
    app.state.service = service
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
        return _error(error.status_code, str(error.detail), **(error.headers or {}))

    async def cohere(body: bytes, content_type: str | None, version: str) -> dict[str, Any]:
        request = parse_cohere(body, content_type)
        texts = request.documents
        scored = texts
        if request.max_tokens_per_doc is not None:
            scored = [truncate_tokens(t, request.max_tokens_per_doc) for t in texts]
        name, results = await service.rank(
            request.model,
            request.query,
            scored,
            request.top_n,
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
                item["explanation"] = result.explanation
            out.append(item)
        return {
            "id": answer_id(),
            "results": out,
            "meta": {"api_version": {"version": version}},
            "model": name,
        }

    async def cohere_v1(body: bytes, content_type: str | None) -> dict[str, Any]:
        return await cohere(body, content_type, "1")

    async def cohere_v2(body: bytes, content_type: str | None) -> dict[str, Any]:
        return await cohere(body, content_type, "2")

    async def tei(body: bytes, content_type: str | None) -> list[dict[str, Any]]:
        request = parse_tei(body, content_type)
        _, results = await service.rank(
            request.model, request.query, request.texts, explain=request.explain
        )
        out = []
        for result in results:
            score = result.score if request.raw_scores else result.relevance_score
            item: dict[str, Any] = {"index": result.index, "score": score}
            if request.return_text:
                item["text"] = request.texts[result.index]
            if result.explanation is not None:
                item["explanation"] = result.explanation
            out.append(item)
        return out

    @app.post(
        "/v1/rerank",
        response_model=None,
        responses={200: {"model": CohereRerankResponse}, **_ERRORS},
        openapi_extra=_request_body(CohereRerankRequest),
    )
    async def rerank_v1(request: Request) -> Response:
        """Cohere v1 (documents as strings or ``{"text": ...}`` objects), also Jina's shape."""
        return await _answer(request, cohere_v1)

    @app.post(
        "/v2/rerank",
        response_model=None,
        responses={200: {"model": CohereRerankResponse}, **_ERRORS},
        openapi_extra=_request_body(CohereRerankRequest),
    )
    async def rerank_v2(request: Request) -> Response:
        """Cohere v2: ``results`` of ``index`` and ``relevance_score``, best first."""
        return await _answer(request, cohere_v2)

    @app.post(
        "/rerank",
        response_model=None,
        responses={200: {"model": list[TeiRank]}, **_ERRORS},
        openapi_extra=_request_body(TeiRerankRequest),
    )
    async def rerank_tei(request: Request) -> Response:
        """Text-embeddings-inference: every text's ``score``, best first."""
        return await _answer(request, tei)

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
            _add_limits(components, settings)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    paths = frozenset((*RERANK_PATHS, "/health", "/metrics"))
    open_paths = frozenset(("/health", "/metrics"))
    draining = lambda: service.draining  # noqa: E731

    # Added innermost first: metrics see every answer (413s, 401s, 503s included), and the
    # key is checked before the body is read.
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(Guard, draining=draining, keys=settings.api_keys, open_paths=open_paths)
    app.add_middleware(MetricsMiddleware, metrics=metrics, paths=paths)
    # The rerank POSTs: the same handlers, metrics, key and limits, without FastAPI.
    app.endpoints = RerankEndpoints(
        {"/v1/rerank": cohere_v1, "/v2/rerank": cohere_v2, "/rerank": tei},
        metrics=MetricsMiddleware(app, metrics=metrics, paths=paths),
        guard=Guard(app, draining=draining, keys=settings.api_keys, open_paths=open_paths),
        max_bytes=settings.max_body_bytes,
    )
    return app
