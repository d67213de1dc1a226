"""When to retry a rerank request and how long to wait: capped exponential backoff with full
jitter (the AWS Architecture Blog's "Exponential Backoff And Jitter"), overridden by the
server's own ``Retry-After`` (RFC 9110, section 10.2.3) when it sends one."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

#: Statuses worth another try: rate limited, or the server (or a proxy before it) failed.
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """``attempts`` tries in all; waits grow from ``base_delay`` by doubling up to ``max_delay``.

    >>> RetryPolicy(jitter=False).delay(2, None)
    1.0
    """

    attempts: int = 4
    base_delay: float = 0.25
    max_delay: float = 20.0
    jitter: bool = True

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"attempts must be at least 1, got {self.attempts}.")
        if self.base_delay < 0 or self.max_delay < 0:
            raise ValueError("base_delay and max_delay must not be negative.")

    def delay(self, attempt: int, retry_after: str | None) -> float:
        """Seconds to wait after failed try number ``attempt`` (0-based)."""
        asked = parse_retry_after(retry_after)
        if asked is not None:
            return min(asked, self.max_delay)
        ceiling = min(self.max_delay, self.base_delay * 2**attempt)
        return random.uniform(0, ceiling) if self.jitter else ceiling


def parse_retry_after(value: str | None) -> float | None:
    """``Retry-After`` as seconds from now: delay-seconds or an HTTP date; None if absent or bad."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())
