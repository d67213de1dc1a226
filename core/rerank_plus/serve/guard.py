"""An ASGI middleware in front of the API: 503 while the server drains, 401 without a valid key.

A plain ASGI class rather than ``@app.middleware("http")``: Starlette's ``BaseHTTPMiddleware``
spawns a task and a memory stream per request, a measurable share of a small request's cost.
It runs before the body is read, so an unauthenticated client never gets to upload one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rerank_plus.serve.auth import bearer_token, is_authorized
from rerank_plus.serve.limits import ASGIApp, Receive, Scope, Send, send_json_error


class Guard:
    """Turns requests away while ``draining()`` is true, and those without a key in ``keys``
    (paths in ``open_paths`` need no key)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        draining: Callable[[], bool],
        keys: Sequence[str],
        open_paths: frozenset[str],
    ) -> None:
        self.app = app
        self.draining = draining
        self.keys = tuple(keys)
        self.open_paths = open_paths

    def refusal(self, scope: Scope) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        """The status, message and headers this request is turned away with, or None."""
        if self.draining():
            return 503, "The server is shutting down; retry on another instance.", []
        if self.keys and scope["path"] not in self.open_paths:
            header = next((v for k, v in scope["headers"] if k == b"authorization"), None)
            token = bearer_token(header.decode("latin-1") if header is not None else None)
            if not is_authorized(token, self.keys):
                return (
                    401,
                    "Missing or wrong API key; send 'Authorization: Bearer <key>'.",
                    [(b"www-authenticate", b"Bearer")],
                )
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            status, message, headers = refusal
            await send_json_error(send, status, message, headers=headers or None)
            return
        await self.app(scope, receive, send)
