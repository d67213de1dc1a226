"""A scripted rerank server on a free loopback port (the standard library's HTTP server), for
what a real provider does now and then: rate limits, failures, dropped connections."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: What the script answers for the n-th request (1-based) and its JSON body:
#: (status, headers, JSON body), or None to drop the connection without an answer.
Answer = tuple[int, dict[str, str], Any] | None
Script = Callable[[int, Any], Answer]


@dataclass
class ScriptedServer:
    url: str
    bodies: list[Any] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


def pointwise_score(text: str) -> float:
    """A per-document score, as neural providers give: it never depends on the other documents."""
    return round(len(text) % 7 / 7, 6)


def cohere_answer(body: Any) -> Answer:
    results = [
        {"index": i, "relevance_score": pointwise_score(t)} for i, t in enumerate(body["documents"])
    ]
    results.sort(key=lambda r: -r["relevance_score"])
    return 200, {}, {"id": "x", "results": results, "meta": {}}
