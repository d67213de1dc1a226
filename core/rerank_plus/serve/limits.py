"""An ASGI middleware that refuses request bodies over a size with 413 before the app reads
them: a ``Content-Length`` over the limit is refused at once, a chunked body once it passes it."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def error_body(message: str) -> bytes:
    """The JSON body of a refusal: ``{"message": message}``."""
    return json.dumps({"message": message}).encode()


async def send_json(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """Answer ``status`` with the JSON ``body`` (and any extra ``headers``)."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def send_json_error(
    send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """Answer ``{"message": message}`` with ``status`` straight from an ASGI middleware."""
    await send_json(send, status, error_body(message), headers)


class BodyTooLarge(Exception):
    """A request body over the server's limit (413)."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(
            f"The request body is larger than {max_bytes} bytes; send fewer or shorter "
            "documents per request."
        )


async def read_body(receive: Receive, max_bytes: int, length: bytes | None) -> bytes | None:
    """The whole request body, None if the client went away first; :class:`BodyTooLarge` as
    soon as its ``Content-Length`` header (``length``) or the bytes received pass the limit."""
    if length is not None and length.isdigit() and int(length) > max_bytes:
        raise BodyTooLarge(max_bytes)
    chunks = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > max_bytes:
            raise BodyTooLarge(max_bytes)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return chunk if len(chunks) == 1 else b"".join(chunks)


class BodyLimit:
    """Wraps an ASGI app so no request body over ``max_bytes`` reaches it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        try:
            body = await read_body(receive, self.max_bytes, headers.get(b"content-length"))
        except BodyTooLarge as error:
            await send_json_error(send, 413, str(error))
            return
        if body is None:
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
