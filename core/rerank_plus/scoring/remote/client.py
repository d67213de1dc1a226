"""A reranker that asks a rerank API over HTTP: Cohere, Jina, Voyage, TEI, Infinity, vLLM, or
another rerank-plus server.

Providers return one relevance per document, so a list longer than the provider accepts is split
into requests whose scores merge exactly; the usual :meth:`Reranker.rank` then orders and
selects. The API key is given (``api_key``, kept out of the repr and every error message) or
read from an environment variable at request time (``api_key_env``, never stored).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from rerank_plus.errors import MissingExtraError, RerankPlusError
from rerank_plus.reranker import AsyncScoringReranker, Scores
from rerank_plus.scoring.remote.protocols import WireProtocol, get_protocol
from rerank_plus.scoring.remote.retry import RETRY_STATUSES, RetryPolicy

if TYPE_CHECKING:
    import httpx


class RemoteRerankError(RerankPlusError, RuntimeError):
    """The rerank API refused the request, or kept failing after every retry."""


def _httpx() -> Any:
    try:
        import httpx
    except ImportError as error:
        raise MissingExtraError("httpx", "remote", "RemoteReranker") from error
    return httpx


class RemoteReranker(AsyncScoringReranker):
    """Rerank with a rerank API at ``url`` speaking ``protocol`` (cohere, jina, voyage, tei).

    ``api_key`` is the bearer key itself, or ``api_key_env`` names the environment variable
    holding it (neither: send none). ``client`` and ``async_client`` are ``httpx`` clients to
    send with (proxies, TLS, pooling of your own; never closed here); None: one of its own.
    ``max_documents`` overrides the protocol's per-request maximum; ``retry`` sets how often
    and how long to retry on 408/429/5xx and connection errors (``Retry-After`` is respected),
    ``max_retries`` just the number of retries after the first try.
    ``truncate`` asks an API with a truncation switch (TEI ``truncate``, Voyage ``truncation``)
    to cut a too-long document (True) or refuse it (False); ``max_tokens_per_doc`` sets the
    Cohere protocol's token limit per document. None leaves the provider's default.
    ``relevance_score`` is the provider's score clamped to [0, 1]; ``score`` is the provider's
    score as sent.

    >>> reranker = RemoteReranker("http://127.0.0.1:8080/v2/rerank", protocol="cohere")
    >>> reranker
    RemoteReranker(url='http://127.0.0.1:8080/v2/rerank', protocol='cohere', model=None)
    """

    def __init__(
        self,
        url: str,
        protocol: str = "cohere",
        model: str | None = None,
        api_key_env: str | None = None,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        max_documents: int | None = None,
        headers: Mapping[str, str] | None = None,
        api_key: str | None = None,
        client: httpx.Client | None = None,
        async_client: httpx.AsyncClient | None = None,
        max_retries: int | None = None,
        truncate: bool | None = None,
        max_tokens_per_doc: int | None = None,
    ) -> None:
        self._httpx = _httpx()
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"url must be an http:// or https:// address, got {url!r}.")
        self.url = url
        self.wire: WireProtocol = get_protocol(protocol)
        self.model = model
        self.api_key_env = api_key_env
        self.timeout = float(timeout)
        self.retry = retry or RetryPolicy()
        if max_retries is not None:
            if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
                raise ValueError(f"max_retries must be an int of at least 0, got {max_retries!r}.")
            self.retry = dataclasses.replace(self.retry, attempts=max_retries + 1)
        self.max_documents = max_documents or self.wire.max_documents
        if self.max_documents < 1:
            raise ValueError(f"max_documents must be at least 1, got {max_documents}.")
        self.headers = dict(headers or {})
        if api_key is not None and (not isinstance(api_key, str) or not api_key.strip()):
            raise ValueError("api_key must be a non-empty string (or None to send no key).")
        self._api_key = api_key
        self._check_client("client", client, self._httpx.Client)
        self._check_client("async_client", async_client, self._httpx.AsyncClient)
        self._client: httpx.Client | None = client
        self._owns_client = client is None
        self._async_client = async_client
        self._truncation = self._truncation_fields(truncate, max_tokens_per_doc)

    def __repr__(self) -> str:
        return (
            f"RemoteReranker(url={self.url!r}, protocol={self.wire.name!r}, model={self.model!r})"
        )

    @staticmethod
    def _check_client(name: str, client: object, expected: type) -> None:
        if client is not None and not isinstance(client, expected):
            raise TypeError(
                f"{name} must be an {expected.__module__}.{expected.__name__}, got "
                f"{type(client).__name__}."
            )

    def _truncation_fields(
        self, truncate: bool | None, max_tokens_per_doc: int | None
    ) -> dict[str, Any]:
        """The body fields that ask the API to truncate, checked against what it supports."""
        fields: dict[str, Any] = {}
        if truncate is not None:
            if not isinstance(truncate, bool):
                raise ValueError(f"truncate must be True, False or None, got {truncate!r}.")
            if self.wire.truncate_key is None:
                raise ValueError(
                    f"The {self.wire.name} protocol has no truncation switch; leave truncate "
                    "None" + (", or set max_tokens_per_doc." if self.wire.doc_tokens_key else ".")
                )
            fields[self.wire.truncate_key] = truncate
        if max_tokens_per_doc is not None:
            if (
                isinstance(max_tokens_per_doc, bool)
                or not isinstance(max_tokens_per_doc, int)
                or max_tokens_per_doc < 1
            ):
                raise ValueError(
                    f"max_tokens_per_doc must be an int of at least 1, got {max_tokens_per_doc!r}."
                )
            if self.wire.doc_tokens_key is None:
                raise ValueError(
                    f"The {self.wire.name} protocol has no token limit per document; leave "
                    "max_tokens_per_doc None"
                    + (", or set truncate." if self.wire.truncate_key else ".")
                )
            fields[self.wire.doc_tokens_key] = max_tokens_per_doc
        return fields

    # -- requests ---------------------------------------------------------------------------

    def _body(self, query: str, documents: Sequence[str]) -> dict[str, Any]:
        return {**self.wire.build(query, documents, self.model), **self._truncation}

    def _request_headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json", **self.headers}
        if self._api_key is not None:
            headers["Authorization"] = f"Bearer {self._api_key}"
        elif self.api_key_env:
            key = os.environ.get(self.api_key_env)
            if not key:
                raise RemoteRerankError(
                    f"The environment variable {self.api_key_env} holds no API key; set it to "
                    f"the key for {self.url}."
                )
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _chunks(self, documents: Sequence[str]) -> list[tuple[int, Sequence[str]]]:
        size = self.max_documents
        return [
            (start, documents[start : start + size]) for start in range(0, len(documents), size)
        ]

    def _read(self, response: httpx.Response, size: int) -> list[tuple[int, float]]:
        try:
            pairs = self.wire.read(response.json())
        except ValueError as error:
            raise RemoteRerankError(
                f"{self.url} answered in an unexpected shape for protocol "
                f"{self.wire.name!r}: {error}. Check the url and protocol."
            ) from error
        if sorted(i for i, _ in pairs) != list(range(size)):
            raise RemoteRerankError(
                f"{self.url} scored {len(pairs)} of {size} documents; a rerank API must return "
                "every index once (is top_n set on the server?)."
            )
        return pairs

    def _refusal(self, response: httpx.Response) -> RemoteRerankError:
        return RemoteRerankError(
            f"{self.url} refused the request with HTTP {response.status_code}: "
            f"{response.text[:300]}"
        )

    def _gave_up(self, failure: str) -> RemoteRerankError:
        return RemoteRerankError(
            f"{self.url} failed {self.retry.attempts} times, the last with {failure}; "
            "check that the server is up, or raise RetryPolicy(attempts=...)."
        )

    def _post(self, body: dict[str, Any], size: int) -> list[tuple[int, float]]:
        if self._client is None:
            self._client = self._httpx.Client(timeout=self.timeout)
        client = self._client
        failure = ""
        for attempt in range(self.retry.attempts):
            retry_after = None
            try:
                response = client.post(self.url, json=body, headers=self._request_headers())
            except self._httpx.TransportError as error:
                failure = f"{type(error).__name__}: {error}"
            else:
                if response.status_code < 400:
                    return self._read(response, size)
                if response.status_code not in RETRY_STATUSES:
                    raise self._refusal(response)
                failure = f"HTTP {response.status_code}"
                retry_after = response.headers.get("retry-after")
            if attempt + 1 < self.retry.attempts:
                time.sleep(self.retry.delay(attempt, retry_after))
        raise self._gave_up(failure)

    async def _apost(
        self, client: httpx.AsyncClient, body: dict[str, Any], size: int
    ) -> list[tuple[int, float]]:
        failure = ""
        for attempt in range(self.retry.attempts):
            retry_after = None
            try:
                response = await client.post(self.url, json=body, headers=self._request_headers())
            except self._httpx.TransportError as error:
                failure = f"{type(error).__name__}: {error}"
            else:
                if response.status_code < 400:
                    return self._read(response, size)
                if response.status_code not in RETRY_STATUSES:
                    raise self._refusal(response)
                failure = f"HTTP {response.status_code}"
                retry_after = response.headers.get("retry-after")
            if attempt + 1 < self.retry.attempts:
                await asyncio.sleep(self.retry.delay(attempt, retry_after))
        raise self._gave_up(failure)

    # -- scoring ----------------------------------------------------------------------------

    def _scores(
        self, answers: Sequence[tuple[int, list[tuple[int, float]]]], n: int, explain: bool
    ) -> Scores:
        raw = [0.0] * n
        for start, pairs in answers:
            for index, value in pairs:
                raw[start + index] = value
        relevance = [min(1.0, max(0.0, value)) for value in raw]
        explanations = (
            [
                {"provider": self.wire.name, "url": self.url, "model": self.model, "score": v}
                for v in raw
            ]
            if explain
            else None
        )
        return Scores(raw, relevance, explanations)

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        answers = [
            (start, self._post(self._body(query, chunk), len(chunk)))
            for start, chunk in self._chunks(documents)
        ]
        return self._scores(answers, len(documents), explain)

    async def ascore(
        self, query: str, documents: Sequence[str], *, explain: bool = False
    ) -> Scores:
        """:meth:`score` with ``httpx.AsyncClient``: the chunks of a long list go out at once."""
        async with self._async_session() as client:
            chunks = self._chunks(documents)
            pairs = await asyncio.gather(
                *(self._apost(client, self._body(query, chunk), len(chunk)) for _, chunk in chunks)
            )
        return self._scores(
            [(start, found) for (start, _), found in zip(chunks, pairs, strict=True)],
            len(documents),
            explain,
        )

    @asynccontextmanager
    async def _async_session(self) -> AsyncIterator[httpx.AsyncClient]:
        """The injected async client (left open), or one of its own for this call."""
        if self._async_client is not None:
            yield self._async_client
            return
        async with self._httpx.AsyncClient(timeout=self.timeout) as client:
            yield client

    def close(self) -> None:
        """Close the pooled connections of the synchronous client it made (an injected one
        is its owner's to close)."""
        if self._client is not None and self._owns_client:
            self._client.close()
            self._client = None
