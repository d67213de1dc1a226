"""The rerank endpoints as a plain ASGI app, in front of FastAPI.

Profiles of the server under load put FastAPI's route stack (its error and exception
middlewares, the ``Request`` object, dependency solving, the background-response bookkeeping)
at about as much CPU per request as decoding a 128 kB body. ``POST`` to a rerank path goes
straight to its handler here instead; the same handlers stay declared as FastAPI routes, which
give the OpenAPI schema and answer every other method and path.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import orjson

from rerank_plus.serve.errors import ApiError
from rerank_plus.serve.limits import ASGIApp, Receive, Scope, Send

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


async def _body(receive: Receive) -> bytes | None:
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


class RerankEndpoints:
    """Answers ``POST`` to the paths in ``handlers``; passes everything else to ``app``."""

    def __init__(self, app: ASGIApp, handlers: Mapping[str, Handler]) -> None:
        self.app = app
        self.handlers = dict(handlers)

    def serves(self, scope: Scope) -> bool:
        """Whether this request is one of the rerank endpoints'."""
        return (
            scope["type"] == "http" and scope["method"] == "POST" and scope["path"] in self.handlers
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.serves(scope):
            await self.app(scope, receive, send)
            return
        body = await _body(receive)
        if body is None:  # the client went away
            return
        content_type = next((v for k, v in scope["headers"] if k == b"content-type"), None)
        status = 200
        try:
            payload = await self.handlers[scope["path"]](
                body, content_type.decode("latin-1") if content_type is not None else None
            )
        except ApiError as error:
            status, payload = error.status, {"message": error.message}
        except Exception:  # a bug: logged, and the client still gets JSON
            _LOG.exception("Unexpected error answering %s", scope["path"])
            status, payload = 500, {"message": "Internal server error."}
        answer = json_bytes(payload)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", b"%d" % len(answer)),
                ],
            }
        )
        await send({"type": "http.response.body", "body": answer})
