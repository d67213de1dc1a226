"""What a rerank server allows: request limits, keys, and how long a request may take."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ServeSettings:
    """Limits every request is checked against, and the bearer keys that may call the API.

    ``max_documents`` follows Cohere's own limit (1,000 per request). An empty ``api_keys``
    means no authentication (the command line allows that only on a loopback address, or with
    ``--no-auth``). ``scoring_threads`` batches of the neural models are scored at once
    (default: one per CPU; torch lets go of the GIL); the others wait their turn without holding
    a thread. The other models' requests are scored one at a time on one thread of their own.

    Rerankers that share batches across queries (neural ones) gather concurrent requests for
    up to ``batch_wait`` seconds, at most ``batch_size`` requests, into one ``rank_many`` call;
    ``batch_wait=0`` still groups the requests that arrive in the same event-loop turn.

    ``inline_scoring``: the other models' requests that the model's cost so far says take
    less than the GIL switch interval are ranked on the event loop, without the hand-off to
    their thread (``batching.InlineScoring``). Only for a server process of its own
    (``rerank-plus serve`` sets it), where nothing else waits on that loop.
    """

    max_documents: int = 1000
    max_body_bytes: int = 10 * 1024 * 1024
    max_query_chars: int = 10_000
    max_document_chars: int = 100_000
    request_timeout: float = 60.0
    scoring_threads: int = field(default_factory=lambda: os.cpu_count() or 1)
    batch_wait: float = 0.005
    batch_size: int = 32
    inline_scoring: bool = False
    api_keys: tuple[str, ...] = field(default=(), repr=False)
