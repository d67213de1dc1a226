"""The rerank endpoints as one plain ASGI call, in front of FastAPI.

Profiles of the server under load put FastAPI's route stack (its error and exception
middlewares, the ``Request`` object, dependency solving, the background-response bookkeeping)
at about as much CPU per request as decoding a 128 kB body. ``POST`` to a rerank path goes
straight to its handler here instead, with what the middlewares do for every other path (the
metrics, the guard's 503 and 401, the body limit's 413) done in the same call, by the same
objects, without a wrapper per layer around ``receive`` and ``send``. The same handlers stay
declared as FastAPI routes, which give the OpenAPI schema and answer every other method and
path.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import orjson

from rerank_plus.serve.errors import ApiError
from rerank_plus.serve.guard import Guard
from rerank_plus.serve.limits import (
    BodyTooLarge,
    Receive,
    Scope,
    Send,
    error_body,
    read_body,
    send_json,
)
from rerank_plus.serve.metrics import MetricsMiddleware

#: A handler takes the body and its ``Content-Type`` and returns the JSON payload, or raises
#: :class:`ApiError`.
Handler = Callable[[bytes, "str | None"], Awaitable[Any]]

_ORJSON_OPTIONS = orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS
_LOG = logging.getLogger("rerank_plus.serve")


def _plain(value: Any) -> Any:
    """What orjson cannot write itself: read-only mappings in explanations."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def json_bytes(payload: Any) -> bytes:
    """``payload`` as JSON: orjson is several times faster than ``json.dumps``, and writes NaN
    as null, never as invalid JSON."""
    return orjson.dumps(payload, default=_plain, option=_ORJSON_OPTIONS)


class RerankEndpoints:
    """Answers ``POST`` to the paths in ``handlers``: counted by ``metrics``, turned away by
    ``guard``, bodies over ``max_bytes`` refused, as behind those middlewares."""

    def __init__(
        self,
        handlers: Mapping[str, Handler],
        *,
        metrics: MetricsMiddleware,
        guard: Guard,
        max_bytes: int,
    ) -> None:
        self.handlers = dict(handlers)
        self.metrics = metrics
        self.guard = guard
        self.max_bytes = max_bytes

    def serves(self, scope: Scope) -> bool:
        """Whether this request is one of the rerank endpoints'."""
        return (
            scope["type"] == "http" and scope["method"] == "POST" and scope["path"] in self.handlers
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        started = self.metrics.begin(path)
        status = 500  # what the metrics count when no answer goes out (the client went away)
        try:
            answer = await self._answer(scope, receive, self.handlers[path])
            if answer is not None:
                status, body, headers = answer
                await send_json(send, status, body, headers)
        finally:
            self.metrics.end(path, status, started)

    async def _answer(
        self, scope: Scope, receive: Receive, handler: Handler
    ) -> tuple[int, bytes, list[tuple[bytes, bytes]] | None] | None:
        """The status, JSON body and extra headers of the answer; None if the client went
        away before its body was read."""
        refusal = self.guard.refusal(scope)
        if refusal is not None:
            status, message, headers = refusal
            return status, error_body(message), headers or None
        length = content_type = None
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
            elif name == b"content-type" and content_type is None:
                content_type = value.decode("latin-1")
        try:
            body = await read_body(receive, self.max_bytes, length)
        except BodyTooLarge as error:
            return 413, error_body(str(error)), None
        if body is None:
            return None
        status = 200
        try:
            payload = await handler(body, content_type)
        except ApiError as error:
            status, payload = error.status, {"message": error.message}
        except Exception:  # a bug: logged, and the client still gets JSON
            _LOG.exception("Unexpected error answering %s", scope["path"])
            status, payload = 500, {"message": "Internal server error."}
        return status, json_bytes(payload), None
