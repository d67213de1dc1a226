"""Request and response bodies of the memory endpoints (``rerank-plus serve --memory URL``).

A message is what :func:`~rerank_plus.memory.build_memory` takes, in the one spelling the API
documents: a text, or an object with ``text`` and optional ``speaker``, ``time`` (ISO 8601),
``tags``, ``entities``, ``source`` and ``id``. A context answer is
:func:`~rerank_plus.memory.context.payload.context_payload`'s shape.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rerank_plus.serve.schemas import Count

#: The store's rule for a namespace, stated in the schema (``rerank_plus.memory.store``:
#: a non-empty str of at most 512 characters, without NUL).
NAMESPACE_MAX_CHARS = 512
NAMESPACE_PATTERN = r"^[^\x00]+$"

Intent = Literal["synthesis", "detail", "recent", "entity"]
#: ``rerank_plus.memory.query.SHAPES``, spelt out for the schema (a test keeps them equal).
Shape = Literal["plain", "time", "list", "current"]
Name = Annotated[str, Field(min_length=1)]


class MessageObject(BaseModel):
    """One message with its fields (keys other than these are refused: a misspelt one would
    otherwise be lost)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str
    speaker: str | None = Field(None, description="Who said it.")
    time: str | None = Field(
        None,
        description="When, ISO 8601 (an offset is kept; without one, UTC).",
        json_schema_extra={"format": "date-time"},
    )
    tags: list[str] | None = None
    entities: dict[Name, list[str]] | list[str] | None = Field(
        None, description="Names in it: a group -> names, or a list of names."
    )
    source: str | None = None
    id: Name | None = Field(
        None,
        description="Unique in the namespace, not a summary's (L1.0); default m<position>. "
        "A taken id is refused.",
    )


class AddMessagesRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    messages: list[str | MessageObject] = Field(
        description="Appended in order after the namespace's messages."
    )


class AddMessagesResponse(BaseModel):
    namespace: str
    ids: list[str] = Field(description="The added messages' ids, in order.")


class StoredMessageBody(BaseModel):
    """A stored message as the memory file writes it (embedding left out)."""

    model_config = ConfigDict(extra="allow")

    id: str
    index: int = Field(description="Its place in the namespace: 0, 1, ... (a delete moves the "
                       "later ones up).")  # fmt: skip
    text: str
    time: str | None = None
    speaker: str | None = None
    source: str | None = None
    tags: list[str] | None = None
    entities: dict[str, list[str]] | None = None


class MessagesResponse(BaseModel):
    namespace: str
    messages: list[StoredMessageBody] = Field(description="In order, the oldest first.")


class DeletedMessageResponse(BaseModel):
    namespace: str
    id: str
    deleted: bool = Field(description="Always true: a message that is not there is a 404.")


class ContextRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    query: str = Field(description="The question.")
    max_tokens: Count = Field(2000, description="The context's budget, headers included.")
    now: str | None = Field(
        None,
        description="ISO 8601 time that 'since yesterday' counts from; default: the clock.",
        json_schema_extra={"format": "date-time"},
    )
    intent: Intent | None = Field(None, description="Force an intent; default: read it.")
    shape: Shape | None = Field(
        None, description="Force a precise question's shape; default: read it."
    )


class ContextItemBody(BaseModel):
    """One item in the context: its text and where it sits in the memory."""

    text: str
    memory_id: str
    level: int = Field(description="0: a message; 1: a summary of messages; 2...: above.")
    index: int
    block: str = Field(description="overview, extracts or quotes.")
    score: float
    elided: bool = Field(description="Whether the context shows only part of the text.")
    time: str | None = None
    speaker: str | None = None
    source: str | None = None


class GuidanceBody(BaseModel):
    basis: str
    summaries: int
    quotes: int
    drillable: list[str]
    notes: list[str]


class ContextResponse(BaseModel):
    text: str = Field(description="The context, to paste into a prompt as it is.")
    intent: str
    tokens: int
    items: list[ContextItemBody]
    guidance: GuidanceBody
    trace: dict[str, Any] = Field(description="How the context was chosen (steps, rejections).")
