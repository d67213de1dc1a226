"""The memory endpoints as FastAPI routes, and their limits in the OpenAPI schema.

- ``POST /v1/memory/{namespace}/messages``: ``{"messages": [...]}`` appended to the namespace;
  answers ``{"namespace", "ids"}``.
- ``GET /v1/memory/{namespace}/messages?last=N``: the namespace's messages (the last ``N``);
  ``GET`` and ``DELETE /v1/memory/{namespace}/messages/{message_id}``: one message, read or
  deleted (its text is in no later context; the summaries are built again without it).
- ``POST /v1/memory/{namespace}/context``: ``{"query", "max_tokens", "now", "intent",
  "shape"}``;
  answers the context's ``text``, ``items``, ``intent``, ``tokens``, ``guidance`` and ``trace``.

A namespace may hold "/" (``ana/2024-05``): send it as it is (``/v1/memory/ana/2024-05/context``)
or encoded (``ana%2F2024-05``); both name the same namespace. Behind the same key, body limit,
metrics and error shape (``{"message": ...}``) as the rerank endpoints: a taken message id is
a 409, an unknown namespace or message where one is read or deleted a 404.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query
from fastapi import Path as PathParameter
from fastapi.responses import Response

from rerank_plus.serve.endpoints import json_bytes
from rerank_plus.serve.memory import CONTEXT_PATH, MESSAGE_PATH, MESSAGES_PATH, MemoryService
from rerank_plus.serve.memory_schemas import (
    NAMESPACE_MAX_CHARS,
    NAMESPACE_PATTERN,
    AddMessagesRequest,
    AddMessagesResponse,
    ContextRequest,
    ContextResponse,
    DeletedMessageResponse,
    MessagesResponse,
    StoredMessageBody,
)
from rerank_plus.serve.schemas import ErrorBody
from rerank_plus.serve.settings import ServeSettings

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 404, 409, 413, 422, 503, 504)
}

Namespace = Annotated[
    str,
    PathParameter(
        min_length=1,
        max_length=NAMESPACE_MAX_CHARS,
        pattern=NAMESPACE_PATTERN,
        description="Any name you choose (a user, user/session...); a '/' as it is or as %2F.",
    ),
]


MessageId = Annotated[
    str,
    PathParameter(
        min_length=1, description="The message's id, as the add answered it (without '/')."
    ),
]


def _stored(item: Any) -> dict[str, Any]:
    from rerank_plus.memory.model.artifact_shape import item_to_dict

    return item_to_dict(item, f"message {item.id!r}", embeddings=False)


def _json(payload: Any) -> Response:
    return Response(json_bytes(payload), media_type="application/json")


def add_memory_routes(app: FastAPI, memory: MemoryService) -> None:
    """The memory endpoints of ``app``, answered by ``memory``."""

    @app.post(
        MESSAGES_PATH,
        response_model=None,
        responses={200: {"model": AddMessagesResponse}, **_ERRORS},
        tags=["memory"],
    )
    async def add_messages(namespace: Namespace, body: AddMessagesRequest) -> Response:
        """Append messages to the namespace (made on first use); they are stored when the
        answer comes, and found by the next context request."""
        messages = [
            m if isinstance(m, str) else m.model_dump(exclude_none=True) for m in body.messages
        ]
        ids = await memory.add(namespace, messages)
        return _json({"namespace": namespace, "ids": ids})

    @app.get(
        MESSAGES_PATH,
        response_model=None,
        responses={200: {"model": MessagesResponse}, **_ERRORS},
        tags=["memory"],
    )
    async def list_messages(
        namespace: Namespace,
        last: Annotated[
            int | None, Query(ge=0, description="Only the last N messages (default: all).")
        ] = None,
    ) -> Response:
        """The namespace's messages in order (none for an unknown namespace)."""
        found = await memory.messages(namespace, last)
        return _json({"namespace": namespace, "messages": [_stored(item) for item in found]})

    @app.get(
        MESSAGE_PATH,
        response_model=None,
        responses={200: {"model": StoredMessageBody}, **_ERRORS},
        tags=["memory"],
    )
    async def get_message(namespace: Namespace, message_id: MessageId) -> Response:
        """One message by its id; a 404 when the namespace holds no messages or not this one."""
        return _json(_stored(await memory.message(namespace, message_id)))

    @app.delete(
        MESSAGE_PATH,
        response_model=None,
        responses={200: {"model": DeletedMessageResponse}, **_ERRORS},
        tags=["memory"],
    )
    async def delete_message(namespace: Namespace, message_id: MessageId) -> Response:
        """Delete one message: its text is in no context from the answer on (the summaries
        over it are built again without it); a 404 when it is not there."""
        await memory.delete_message(namespace, message_id)
        return _json({"namespace": namespace, "id": message_id, "deleted": True})

    @app.post(
        CONTEXT_PATH,
        response_model=None,
        responses={200: {"model": ContextResponse}, **_ERRORS},
        tags=["memory"],
    )
    async def memory_context(namespace: Namespace, body: ContextRequest) -> Response:
        """The context the namespace's memory gives for a question, within ``max_tokens``; an
        unknown namespace gives an empty context with its guidance."""
        from rerank_plus.memory.context.payload import context_payload

        context = await memory.context(
            namespace,
            body.query,
            max_tokens=body.max_tokens,
            now=body.now,
            intent=body.intent,
            shape=body.shape,
        )
        return _json(context_payload(context))


def add_memory_limits(components: dict[str, Any], settings: ServeSettings) -> None:
    """The server's limits on the memory bodies in its schema (as ``routes`` does for the
    rerank bodies), so clients and fuzzers see them before sending."""
    if "AddMessagesRequest" not in components:
        return
    text = {"maxLength": settings.max_document_chars}
    components["MessageObject"]["properties"]["text"].update(text)
    messages = components["AddMessagesRequest"]["properties"]["messages"]
    messages["maxItems"] = settings.max_documents
    for option in messages["items"].get("anyOf", []):
        if option.get("type") == "string":
            option.update(text)
    query = components["ContextRequest"]["properties"]["query"]
    query.update(pattern=r"\S", maxLength=settings.max_query_chars)
