"""The rerank service behind every endpoint: a request checked against the server's limits,
its model found by name, and ranked in a worker thread (micro-batched with its neighbours where
the model shares batches), its failures turned into the status and message the client gets.

Kept apart from FastAPI: the app (``app``), each API's handlers (``handlers``) and the process
lifecycle (``lifecycle``, which waits for the requests in flight) share this one object.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from rerank_plus.errors import RerankPlusError
from rerank_plus.reranker import RankInput, Reranker
from rerank_plus.results import RankedResult
from rerank_plus.serve.batching import InlineScoring, MicroBatcher, shares_batches
from rerank_plus.serve.errors import ApiError
from rerank_plus.serve.metrics import ServerMetrics
from rerank_plus.serve.settings import ServeSettings


class RerankService:
    """Checks a request against the settings, finds its model, ranks in a worker thread
    (micro-batched with its neighbours where the model shares batches)."""

    def __init__(
        self, models: Mapping[str, Reranker], settings: ServeSettings, metrics: ServerMetrics
    ) -> None:
        if not models:
            raise ValueError("A server needs at least one model (a profile or configuration).")
        self.models = dict(models)
        self.default = next(iter(self.models))
        self.settings = settings
        self.metrics = metrics
        # Looked up once: ``labels()`` takes a lock and builds a key on every call.
        self._documents = {name: metrics.documents.labels(name) for name in self.models}
        self.draining = False
        #: HTTP requests received and not yet answered (the drain waits for none to be left).
        self.active = 0
        self._closed = False
        self.scoring, self.lexical = self._pools()
        self.inline = InlineScoring() if settings.inline_scoring else None
        # Neural models wait up to batch_wait for neighbours and share forward passes, on
        # ``scoring_threads`` threads (torch lets go of the GIL). The others gain nothing from
        # company: each request is its own job on one thread, so the event loop reads and
        # answers other requests while one is scored. Grouping them (one hand-off for all that
        # arrived in one loop turn) made a worker's connections wait for each other: its
        # requests came back all at once, and the worker idled until the clients sent the
        # next ones (2 workers, 16 connections: 1,563 requests/s grouped, 2,948 alone). In a
        # worker process their short requests skip the thread (``InlineScoring``).
        self.batchers = {
            name: self._batcher(name, reranker) for name, reranker in self.models.items()
        }

    def _batcher(self, name: str, reranker: Reranker) -> MicroBatcher:
        neural = shares_batches(reranker)
        return MicroBatcher(
            reranker,
            wait=self.settings.batch_wait if neural else 0.0,
            max_size=self.settings.batch_size if neural else 1,
            executor=self.scoring if neural else self.lexical,
            on_batch=self.metrics.batch_size.labels(name).observe,
            inline=None if neural else self.inline,
        )

    def _pools(self) -> tuple[ThreadPoolExecutor, ThreadPoolExecutor]:
        # Lexical scoring holds the GIL: a second thread for it only takes turns with the first
        # (measured: 871 requests/s on two threads, 1,464 on one).
        return (
            ThreadPoolExecutor(
                self.settings.scoring_threads, thread_name_prefix="rerank-plus-scoring"
            ),
            ThreadPoolExecutor(1, thread_name_prefix="rerank-plus-scoring-lexical"),
        )

    def open(self) -> None:
        """New scoring pools if :meth:`close` ended the last ones (an app started again)."""
        if self._closed:
            self.scoring, self.lexical = self._pools()
            if self.inline is not None:
                self.inline.queued = 0  # the jobs of the last pools are gone with them
            for name, reranker in self.models.items():
                self.batchers[name].executor = (
                    self.scoring if shares_batches(reranker) else self.lexical
                )
            self._closed = False

    def close(self) -> None:
        """Let the scoring threads end once their current job is done (the app's shutdown)."""
        self.scoring.shutdown(wait=False, cancel_futures=True)
        self.lexical.shutdown(wait=False, cancel_futures=True)
        self._closed = True

    def model(self, name: str | None) -> tuple[str, Reranker]:
        key = name or self.default
        if key not in self.models:
            raise ApiError(
                404, f"Unknown model {key!r}; this server offers: {', '.join(self.models)}."
            )
        return key, self.models[key]

    def check(self, query: str, texts: Sequence[str]) -> None:
        limits = self.settings
        if not query.strip():
            raise ApiError(400, "query is empty; send the question to rank the documents for.")
        if len(query) > limits.max_query_chars:
            raise ApiError(
                400, f"query has {len(query)} characters; the limit is {limits.max_query_chars}."
            )
        if len(texts) > limits.max_documents:
            raise ApiError(
                400,
                f"{len(texts)} documents in one request; the limit is {limits.max_documents}. "
                "Send a first stage's top candidates, or start the server with a higher "
                "--max-documents.",
            )
        longest = max(map(len, texts), default=0)
        if longest > limits.max_document_chars:
            position = next(i for i, text in enumerate(texts) if len(text) == longest)
            raise ApiError(
                400,
                f"documents[{position}] has {longest} characters; the limit is "
                f"{limits.max_document_chars}. Truncate it, or set max_tokens_per_doc.",
            )

    async def rank(
        self,
        name: str | None,
        query: str,
        texts: list[str],
        top_n: int | None = None,
        *,
        explain: bool = False,
        first_stage_scores: Sequence[float] | None = None,
        metadata: Sequence[Mapping[str, Any]] | None = None,
    ) -> tuple[str, list[RankedResult]]:
        key, _ = self.model(name)
        self.check(query, texts)
        item = RankInput(query, texts, first_stage_scores, metadata)
        try:
            results = await self.batchers[key].rank(
                item, top_n, explain=explain, timeout=self.settings.request_timeout
            )
        except TimeoutError as error:
            raise ApiError(
                504,
                f"Ranking took longer than {self.settings.request_timeout} s; send fewer "
                "documents per request.",
            ) from error
        except (ValueError, TypeError) as error:
            raise ApiError(422, str(error)) from error
        except RerankPlusError as error:
            raise ApiError(502, f"The {key!r} model failed: {error}") from error
        self._documents[key].inc(len(texts))
        return key, results
