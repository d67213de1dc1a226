"""Errors of LLM calls: what failed, and what to change so the next call works."""

from __future__ import annotations

from rerank_plus.errors import RerankPlusError


class LLMCallError(RerankPlusError):
    """A call to the LLM failed (HTTP error, malformed reply, retries used up)."""


class RetryableLLMError(LLMCallError):
    """A failure worth trying again after a pause: a rate limit (HTTP 429), an overloaded
    server (503) or a timeout. ``retry_after`` is the server's own advice, in seconds."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after
