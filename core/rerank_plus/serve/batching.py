"""Micro-batching: concurrent requests for one reranker, scored in one ``rank_many`` call.

A neural scorer's cost is dominated by its forward passes, and one pass over the pairs of many
queries costs far less than one pass per query. Requests that arrive within ``wait`` seconds of
each other (at most ``max_size`` of them) are gathered and ranked together, the way Triton's
dynamic batcher and text-embeddings-inference's queue do; the first request of a batch waits at
most ``wait``, a full batch goes at once. With ``wait=0`` a batch is what arrived in the same
event-loop turn: no added latency, and one thread hand-off instead of one per request. With
``max_size=1`` (rerankers that gain nothing from company) each request goes to the executor
as it comes, with no batch bookkeeping.

A worker process of its own (``rerank-plus serve``) ranks the small requests of a model that
never batches on the event loop itself (:class:`InlineScoring`): such scoring holds the GIL,
so a thread of its own adds no throughput to the one core a worker has, and the hand-off to it
and back (two thread switches and the GIL taking turns between them) cost 0.02-0.05 ms of
CPU per request (docs/serve.md, "Throughput"). Large requests still go to the thread, so
the loop keeps answering others (and ``/health``) while one is scored.

The hand-off is the event loop's own ``run_in_executor`` on a bounded thread pool, and a
request's time limit is one timer on its future: anyio's ``to_thread`` (limiter, cancel scope,
worker bookkeeping) and its ``fail_after`` cancel scope cost more CPU per request, on the one
core the event loop and scoring share under the GIL.

Requests are grouped by ``(top_n, explain)``, the arguments ``rank_many`` shares across its
inputs: a pipeline's selection reads ``top_n`` (diversity, token budgets), so cutting one longer
list per request afterwards would not equal ``rank``. Each request is checked before it joins a
batch, so a malformed one fails alone; if a batch still fails, its requests are ranked one by
one, so each gets its own answer or its own error.
"""

from __future__ import annotations

import asyncio
import functools
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field

from rerank_plus.reranker import RankInput, Reranker, checked_request
from rerank_plus.results import RankedResult

BatchKey = tuple[int | None, bool]


def shares_batches(reranker: Reranker) -> bool:
    """Whether ``reranker`` scores many queries at once better than one by one: it overrides
    :meth:`Reranker.score_many` (neural scorers do), or it is a pipeline or cascade with such
    a reranker inside (they override it only to pass the batch on). The others gain nothing
    from waiting."""
    from rerank_plus.compose.cascade import Cascade
    from rerank_plus.compose.pipeline import Pipeline

    if isinstance(reranker, Pipeline):
        return shares_batches(reranker.reranker)
    if isinstance(reranker, Cascade):
        return any(shares_batches(stage) for stage in reranker.stages)
    return type(reranker).score_many is not Reranker.score_many


@dataclass(slots=True)
class InlineScoring:
    """Whether a request of a model that never batches is ranked on the event loop: when the
    model's cost so far predicts it takes at most ``budget`` seconds, it has at most
    ``max_chars`` characters, and no request of these models is on their scoring thread (so
    two never run at once, as on the one thread). One per server, shared by those models,
    which share that thread too.

    The default budget is the interpreter's GIL switch interval: a thread scoring a request
    holds the GIL that long before the event loop gets it back, so a request ranked inline is
    expected to keep the loop from its other connections (or ``/health``) no longer than one
    ranked on the thread would. The first request of a model goes to the thread (its cost is
    not known yet).
    """

    budget: float = field(default_factory=sys.getswitchinterval)
    #: Requests of more characters always go to the thread. A request of text the model has
    #: not seen costs up to a hundred times what the same size costs cached (BM25's analysis
    #: caches: 226 ms against 3 ms for 160,000 characters of new words), which no average
    #: predicts; this bounds what such a request holds the loop (about 150 ms at most).
    max_chars: int = 100_000
    #: Requests handed to the scoring thread and not yet answered.
    queued: int = 0


class _Cost:
    """A model's CPU seconds per character of a request (query and documents), a moving
    average over its requests, inline or on the thread (halved each request: a slow first
    request, loading what the model needs, is forgotten within a few)."""

    __slots__ = ("per_char",)

    def __init__(self) -> None:
        self.per_char: float | None = None

    def predict(self, chars: int) -> float | None:
        return None if self.per_char is None else self.per_char * chars

    def add(self, seconds: float, chars: int) -> None:
        seen = seconds / max(chars, 1)
        self.per_char = seen if self.per_char is None else (self.per_char + seen) / 2


def _chars(item: RankInput) -> int:
    return len(item.query) + sum(map(len, item.documents))


@dataclass(frozen=True, slots=True)
class _Waiting:
    item: RankInput
    answer: asyncio.Future[list[RankedResult]]


class MicroBatcher:
    """Gathers one reranker's concurrent requests into ``rank_many`` calls in worker threads.

    ``executor`` runs the batches; its size bounds how many (with the server's other
    scoring) run at once.
    ``on_batch`` is told each batch's size (for metrics). ``inline``: where a model that
    never batches (``max_size`` 1) ranks small requests on the event loop.
    """

    def __init__(
        self,
        reranker: Reranker,
        *,
        wait: float,
        max_size: int,
        executor: Executor,
        on_batch: Callable[[int], None] | None = None,
        inline: InlineScoring | None = None,
    ) -> None:
        if wait < 0 or max_size < 1:
            raise ValueError(
                f"A micro-batch needs wait >= 0 and max_size >= 1, got {wait} and {max_size}."
            )
        self.reranker = reranker
        self.wait = wait
        self.max_size = max_size
        self.executor = executor
        self.on_batch = on_batch
        self.inline = inline if max_size == 1 else None
        self._cost = _Cost()
        self._open: dict[BatchKey, list[_Waiting]] = {}
        self._timers: dict[BatchKey, asyncio.TimerHandle] = {}
        self._running: set[asyncio.Task[None]] = set()

    async def rank(
        self,
        item: RankInput,
        top_n: int | None = None,
        *,
        explain: bool = False,
        timeout: float | None = None,
    ) -> list[RankedResult]:
        """What ``reranker.rank`` returns for ``item``, scored together with its neighbours;
        :class:`TimeoutError` after ``timeout`` seconds (the batch goes on for the others).
        A request ranked inline is answered before any other event is handled, so its time
        limit cannot fire (the budget and the size cap keep such requests short)."""
        inline = self.inline
        if inline is not None and not inline.queued:
            chars = _chars(item)
            predicted = self._cost.predict(chars)
            if predicted is not None and predicted <= inline.budget and chars <= inline.max_chars:
                # Wall time here (a clock read, where the thread's CPU clock is a system call):
                # on the loop's own thread the two differ only when the process is preempted.
                started = time.perf_counter()
                answer = self.reranker.rank_many([item], top_n, explain=explain)
                self._cost.add(time.perf_counter() - started, chars)
                if self.on_batch is not None:
                    self.on_batch(1)
                return answer[0]
        loop = asyncio.get_running_loop()
        waiting = _Waiting(item, loop.create_future())
        if self.max_size == 1:
            self._score_now(waiting, top_n, explain)
        else:
            self._join(waiting, top_n, explain)
        if timeout is None:
            return await waiting.answer
        expiry = loop.call_later(timeout, _expire, waiting)
        try:
            return await waiting.answer
        finally:
            expiry.cancel()

    def _join(self, waiting: _Waiting, top_n: int | None, explain: bool) -> None:
        """Into the open batch of its ``top_n`` and ``explain``, checked first, so that a
        malformed request fails alone."""
        item = waiting.item
        checked_request(
            item.query,
            item.documents,
            top_n,
            None,
            explain=explain,
            first_stage_scores=item.first_stage_scores,
            metadata=item.metadata,
        )
        key = (top_n, explain)
        group = self._open.setdefault(key, [])
        group.append(waiting)
        if len(group) >= self.max_size:
            self._close(key)
        elif len(group) == 1:
            self._timers[key] = asyncio.get_running_loop().call_later(self.wait, self._close, key)

    def _score_now(self, waiting: _Waiting, top_n: int | None, explain: bool) -> None:
        """A batch of one, straight to the executor: ``rank_many`` checks the request there
        (checking it here too walked the documents twice on the event loop), and its
        answer comes back by one callback, with no task, timer or future chained to it."""
        loop = asyncio.get_running_loop()
        chars = 0
        if self.inline is not None:
            chars = _chars(waiting.item)
            self.inline.queued += 1  # counted on the event loop, here and in ``_deliver``
        job = self.executor.submit(self._timed_rank, waiting.item, top_n, explain)

        def done(job: Future[tuple[list[list[RankedResult]], float]]) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(self._deliver, waiting, job, chars)

        job.add_done_callback(done)

    def _timed_rank(
        self, item: RankInput, top_n: int | None, explain: bool
    ) -> tuple[list[list[RankedResult]], float]:
        """``rank_many`` of one request, and the CPU seconds it took on this thread (whatever
        the GIL's turns with the event loop)."""
        started = time.thread_time()
        answer = self.reranker.rank_many([item], top_n, explain=explain)
        return answer, time.thread_time() - started

    def _deliver(
        self,
        waiting: _Waiting,
        job: Future[tuple[list[list[RankedResult]], float]],
        chars: int,
    ) -> None:
        if self.inline is not None:
            self.inline.queued -= 1
        if job.cancelled():  # the pool was shut down before the job ran
            waiting.answer.cancel()
            return
        error = job.exception()
        if error is not None:
            _fail(waiting, error)
            return
        answer, seconds = job.result()
        if self.inline is not None:
            self._cost.add(seconds, chars)
        if self.on_batch is not None:
            self.on_batch(1)
        _answer(waiting, answer[0])

    def _close(self, key: BatchKey) -> None:
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        batch = [w for w in self._open.pop(key, []) if not w.answer.done()]  # done: cancelled
        if not batch:
            return
        task = asyncio.get_running_loop().create_task(self._score(batch, key))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _score(self, batch: list[_Waiting], key: BatchKey) -> None:
        top_n, explain = key
        rank_many = functools.partial(
            self.reranker.rank_many, [w.item for w in batch], top_n, explain=explain
        )
        try:
            answers = await asyncio.get_running_loop().run_in_executor(self.executor, rank_many)
        except Exception as error:
            if len(batch) == 1:
                _fail(batch[0], error)
            else:
                await asyncio.gather(*(self._score_alone(w, top_n, explain) for w in batch))
            return
        if self.on_batch is not None:
            self.on_batch(len(batch))
        for waiting, answer in zip(batch, answers, strict=True):
            _answer(waiting, answer)

    async def _score_alone(self, waiting: _Waiting, top_n: int | None, explain: bool) -> None:
        item = waiting.item
        rank = functools.partial(
            self.reranker.rank,
            item.query,
            item.documents,
            top_n,
            first_stage_scores=item.first_stage_scores,
            explain=explain,
            metadata=item.metadata,
        )
        try:
            answer = await asyncio.get_running_loop().run_in_executor(self.executor, rank)
        except Exception as error:
            _fail(waiting, error)
        else:
            _answer(waiting, answer)


# A request that stopped waiting (timed out, disconnected) has a done future: leave it be.
def _answer(waiting: _Waiting, answer: list[RankedResult]) -> None:
    if not waiting.answer.done():
        waiting.answer.set_result(answer)


def _fail(waiting: _Waiting, error: BaseException) -> None:
    if not waiting.answer.done():
        waiting.answer.set_exception(error)


def _expire(waiting: _Waiting) -> None:
    _fail(waiting, TimeoutError())
