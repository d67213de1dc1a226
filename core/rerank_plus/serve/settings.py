"""What a rerank server allows: request limits, keys, and how long a request may take."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ServeSettings:
    """Limits every request is checked against, and the bearer keys that may call the API.

    ``max_documents`` follows Cohere's own limit (1,000 per request). An empty ``api_keys``
    means no authentication (the command line allows that only on a loopback address, or with
    ``--no-auth``).
    """

    max_documents: int = 1000
    max_body_bytes: int = 10 * 1024 * 1024
    max_query_chars: int = 10_000
    max_document_chars: int = 100_000
    request_timeout: float = 60.0
    api_keys: tuple[str, ...] = field(default=(), repr=False)
