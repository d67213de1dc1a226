"""The rerank APIs' handlers: a request body parsed into its API's shape (Cohere v1 and v2,
Jina, text-embeddings-inference), ranked by the service, and answered in that API's shape.

The same handlers serve the fast path (``endpoints``) and the FastAPI routes (``routes``), so
both answer alike.
"""

from __future__ import annotations

import random
import re
from typing import Any

from rerank_plus.serve.endpoints import Handler
from rerank_plus.serve.parsing import parse_cohere, parse_tei
from rerank_plus.serve.service import RerankService

_TOKEN = re.compile(r"\S+")

#: Response ids: random bits seeded once from the OS. ``uuid.uuid4()`` reads ``os.urandom``
#: per call, which lets go of the GIL in the middle of a request: the scoring thread takes it,
#: and the event loop waits to get it back (two thread switches per request).
_IDS = random.Random()


#: The version (4) and variant (RFC 4122) bits of a random UUID, and where they go.
_UUID4_CLEAR = ~((0xF000 << 64) | (0xC000 << 48))
_UUID4_SET = (0x4000 << 64) | (0x8000 << 48)


def answer_id() -> str:
    """A random UUID (version 4) for an answer's ``id``: what ``str(uuid.UUID(int=bits,
    version=4))`` gives, formatted without building the object (a few microseconds per
    request)."""
    digits = "%032x" % (_IDS.getrandbits(128) & _UUID4_CLEAR | _UUID4_SET)
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def truncate_tokens(text: str, max_tokens: int | None) -> str:
    """The text up to the end of its ``max_tokens``-th whitespace-separated token."""
    if max_tokens is None:
        return text
    for count, match in enumerate(_TOKEN.finditer(text), start=1):
        if count == max_tokens:
            return text[: match.end()]
    return text


def rerank_handlers(service: RerankService) -> dict[str, Handler]:
    """The handler of each rerank path, ranking with ``service``."""

    async def cohere(body: bytes, content_type: str | None, version: str) -> dict[str, Any]:
        request = parse_cohere(body, content_type)
        texts = request.documents
        scored = texts
        if request.max_tokens_per_doc is not None:
            scored = [truncate_tokens(t, request.max_tokens_per_doc) for t in texts]
        name, results = await service.rank(
            request.model,
            request.query,
            scored,
            request.top_n,
            explain=request.explain,
            first_stage_scores=request.first_stage_scores,
            metadata=request.metadata,
        )
        out = []
        for result in results:
            item: dict[str, Any] = {
                "index": result.index,
                "relevance_score": result.relevance_score,
            }
            if request.return_documents:
                item["document"] = {"text": texts[result.index]}
            if result.explanation is not None:
                item["explanation"] = result.explanation
            out.append(item)
        return {
            "id": answer_id(),
            "results": out,
            "meta": {"api_version": {"version": version}},
            "model": name,
        }

    async def cohere_v1(body: bytes, content_type: str | None) -> dict[str, Any]:
        return await cohere(body, content_type, "1")

    async def cohere_v2(body: bytes, content_type: str | None) -> dict[str, Any]:
        return await cohere(body, content_type, "2")

    async def tei(body: bytes, content_type: str | None) -> list[dict[str, Any]]:
        request = parse_tei(body, content_type)
        _, results = await service.rank(
            request.model, request.query, request.texts, explain=request.explain
        )
        out = []
        for result in results:
            score = result.score if request.raw_scores else result.relevance_score
            item: dict[str, Any] = {"index": result.index, "score": score}
            if request.return_text:
                item["text"] = request.texts[result.index]
            if result.explanation is not None:
                item["explanation"] = result.explanation
            out.append(item)
        return out

    return {"/v1/rerank": cohere_v1, "/v2/rerank": cohere_v2, "/rerank": tei}
