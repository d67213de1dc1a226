"""Calling the model: cache, call budget, retries with backoff, bounded concurrency, accounting.

One :class:`CallRunner` serves one rank. The sync path (``rank``) runs a batch of calls on a
thread pool of ``max_concurrency`` threads with the backend's ``complete``; the async path
(``arank``) awaits ``acomplete`` (or ``complete`` in a worker thread when the backend has no
coroutine) under a semaphore of the same size. Both share the retry rule: a rate limit (HTTP
429), an overloaded server (503) or a timeout is retried after ``backoff * 2**attempt`` seconds
(or the server's ``Retry-After``), at most ``max_retries`` times.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from rerank_plus.analysis.cache import LRUCache
from rerank_plus.scoring.llm.errors import LLMCallError, RetryableLLMError
from rerank_plus.scoring.llm.protocol import ChatModel, Completion, Prompt
from rerank_plus.scoring.llm.usage import CallUsage, Usage

#: The longest pause between two tries, whatever the server's Retry-After says.
MAX_PAUSE_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class CallPolicy:
    """How calls are made: bounds that hold for every rank of one reranker."""

    max_calls: int | None = 100
    max_concurrency: int = 8
    max_retries: int = 3
    backoff: float = 1.0


def is_retryable(error: BaseException) -> bool:
    """Rate limits and timeouts, ours or a framework client's (``status_code`` 429/503)."""
    if isinstance(error, (RetryableLLMError, TimeoutError)):
        return True
    status = getattr(error, "status_code", None)
    if status is None:
        status = getattr(getattr(error, "response", None), "status_code", None)
    return status in (429, 503)


def _pause(error: BaseException, attempt: int, backoff: float) -> float:
    advised = getattr(error, "retry_after", None)
    pause = advised if isinstance(advised, (int, float)) else backoff * 2**attempt
    return float(min(max(pause, 0.0), MAX_PAUSE_SECONDS))


def _gave_up(model: str, error: BaseException, retries: int) -> LLMCallError:
    return LLMCallError(
        f"{model} still failed after {retries} retries ({type(error).__name__}: {error}). "
        "Wait and try again, raise max_retries or backoff, or lower max_concurrency."
    )


class CallRunner:
    """Makes the calls of one rank and records what each cost."""

    def __init__(
        self,
        model: ChatModel,
        policy: CallPolicy,
        cache: LRUCache[Completion],
        *,
        logprobs: bool = False,
    ) -> None:
        self.model = model
        self.policy = policy
        self.cache = cache
        self.logprobs = logprobs
        self.calls: list[CallUsage] = []
        self.by_prompt: dict[Prompt, CallUsage] = {}

    @property
    def usage(self) -> Usage:
        return Usage(tuple(self.calls))

    def budget_left(self) -> int | None:
        """Calls that may still reach the model in this rank (None: no limit)."""
        if self.policy.max_calls is None:
            return None
        return max(0, self.policy.max_calls - self.usage.calls_made)

    def _key(self, prompt: Prompt) -> Hashable:
        return (self.model.model_name, prompt.system, prompt.user, self.logprobs)

    def _record(self, prompt: Prompt, completion: Completion, retries: int, started: float) -> None:
        self.cache.put(self._key(prompt), completion)
        self._note(prompt, CallUsage.of(prompt, completion, retries, time.perf_counter() - started))

    def _from_cache(self, prompts: Sequence[Prompt]) -> tuple[list[Completion | None], list[int]]:
        """Cached answers, and the positions left to call (within the call budget)."""
        answers = [self.cache.get(self._key(prompt)) for prompt in prompts]
        for prompt, answer in zip(prompts, answers, strict=True):
            if answer is not None:
                self._note(prompt, CallUsage(0, 0, cached=True))
        todo = [i for i, answer in enumerate(answers) if answer is None]
        budget = self.budget_left()
        return answers, todo if budget is None else todo[:budget]

    def _note(self, prompt: Prompt, call: CallUsage) -> None:
        self.calls.append(call)
        self.by_prompt[prompt] = call

    def run(self, prompts: Sequence[Prompt], max_tokens: int) -> list[Completion | None]:
        """Answer the prompts (cache first), at most ``max_concurrency`` calls at a time; None
        where the call budget (``max_calls``) ran out."""
        answers, todo = self._from_cache(prompts)
        if todo:
            workers = min(self.policy.max_concurrency, len(todo))
            # one copy of the caller's context per call (a context is entered by one thread)
            contexts = [contextvars.copy_context() for _ in todo]
            with ThreadPoolExecutor(max_workers=workers) as pool:
                done = list(
                    pool.map(
                        lambda i, context: context.run(self._call, prompts[i], max_tokens),
                        todo,
                        contexts,
                    )
                )
            for i, completion in zip(todo, done, strict=True):
                answers[i] = completion
        return answers

    def _call(self, prompt: Prompt, max_tokens: int) -> Completion:
        started = time.perf_counter()
        for attempt in range(self.policy.max_retries + 1):
            try:
                completion = self.model.complete(
                    prompt, max_tokens=max_tokens, logprobs=self.logprobs
                )
            except Exception as error:
                if not is_retryable(error):
                    raise
                if attempt == self.policy.max_retries:
                    raise _gave_up(self.model.model_name, error, attempt) from error
                time.sleep(_pause(error, attempt, self.policy.backoff))
                continue
            self._record(prompt, completion, attempt, started)
            return completion
        raise AssertionError("unreachable: the loop returns or raises")

    async def arun(self, prompts: Sequence[Prompt], max_tokens: int) -> list[Completion | None]:
        """The async twin of :meth:`run`: a semaphore bounds the calls in flight."""
        answers, todo = self._from_cache(prompts)
        gate = asyncio.Semaphore(self.policy.max_concurrency)

        async def call(i: int) -> None:
            async with gate:
                answers[i] = await self._acall(prompts[i], max_tokens)

        tasks = [asyncio.ensure_future(call(i)) for i in todo]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            # one call failed for good: stop the others instead of leaving them running
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        return answers

    async def _acall(self, prompt: Prompt, max_tokens: int) -> Completion:
        started = time.perf_counter()
        complete: Any = getattr(self.model, "acomplete", None)
        for attempt in range(self.policy.max_retries + 1):
            try:
                if complete is not None:
                    completion = await complete(
                        prompt, max_tokens=max_tokens, logprobs=self.logprobs
                    )
                else:
                    completion = await asyncio.to_thread(
                        self.model.complete, prompt, max_tokens=max_tokens, logprobs=self.logprobs
                    )
            except Exception as error:
                if not is_retryable(error):
                    raise
                if attempt == self.policy.max_retries:
                    raise _gave_up(self.model.model_name, error, attempt) from error
                await asyncio.sleep(_pause(error, attempt, self.policy.backoff))
                continue
            self._record(prompt, completion, attempt, started)
            return completion
        raise AssertionError("unreachable: the loop returns or raises")
