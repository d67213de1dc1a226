"""The LLM reranker: listwise (RankGPT's sliding window) or pointwise (a judgment per passage)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rerank_plus.analysis.cache import LRUCache
from rerank_plus.reranker import AsyncScoringReranker, Scores
from rerank_plus.scoring.llm.calls import CallPolicy, CallRunner
from rerank_plus.scoring.llm.frameworks import as_chat_model
from rerank_plus.scoring.llm.listwise import ListwiseOutcome, sliding_window, window_spans
from rerank_plus.scoring.llm.pointwise import JUDGMENTS, judge_each
from rerank_plus.scoring.llm.prompts import (
    DEFAULT_TEMPLATES,
    PromptTemplate,
    check_template,
    task_of,
    truncate,
)
from rerank_plus.scoring.llm.protocol import Completion
from rerank_plus.scoring.llm.scores import listwise_scores, pointwise_scores
from rerank_plus.scoring.llm.steps import Steps, adrive, drive
from rerank_plus.scoring.llm.usage import Usage

MODES = ("listwise", "pointwise")


def _positive(name: str, value: Any, *, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(
            f"{name} must be a positive int{' or None' if allow_none else ''}, got {value!r}."
        )


class LLMReranker(AsyncScoringReranker):
    """Reranks with the LLM you already have: a LangChain chat model, a LlamaIndex LLM, or an
    OpenAI-compatible endpoint (:class:`OpenAICompatibleChat`).

    ``mode="listwise"`` (RankGPT) shows the model ``window_size`` numbered passages at a time
    and reads their order, moving the window from the bottom of the list up by ``step``; the
    model's order is the result. ``relevance_score`` is then a function of the final rank,
    ``(n - rank + 1) / n`` (1 for the best of n, 1/n for the last): a threshold of 0.8 keeps
    the top fifth. ``score`` is ``n - rank + 1``. Listwise needs the candidates in a useful
    starting order (the retriever's): the window starts at the bottom.

    ``mode="pointwise"`` asks one question per passage, concurrently (at most
    ``max_concurrency`` at a time): a 0-3 grade (``judgment="grade"``, relevance ``grade / 3``)
    or yes/no (``judgment="yes-no"``, relevance P(yes) from logprobs when the backend returns
    them, else 1 or 0). Equal judgments keep the input order.

    Every rank counts its calls and tokens (the backend's counts, or estimates at 4 characters a
    token); :attr:`usage` holds the last rank's, and ``explain=True`` puts them in each result.
    Answers are cached by (model, prompt), so asking again costs nothing. At most ``max_calls``
    calls reach the model per rank: listwise stops moving the window (the passages above keep
    their order), pointwise leaves the passages past the budget unjudged (relevance 0, below
    every judged one).

    Args:
        llm: the model (see above).
        mode: ``"listwise"`` or ``"pointwise"``.
        judgment: pointwise only: ``"grade"`` or ``"yes-no"``.
        window_size, step: the listwise window (RankGPT: 20 and 10).
        passage_tokens: each passage is cut to about this many tokens.
        query_tokens: the query is cut to about this many tokens.
        max_calls: calls per rank that may reach the model (``None``: no limit).
        max_concurrency: pointwise calls in flight at once.
        max_retries, backoff: a rate-limited or timed-out call is retried after
            ``backoff * 2**attempt`` seconds (or the server's Retry-After), up to this often.
        cache_size: answers kept; 0 turns the cache off.
        prompt: a :class:`PromptTemplate` to send instead of the task's default (its
            placeholders are checked here: ``{query}``, ``{passages}`` and optionally
            ``{count}`` listwise; ``{query}`` and ``{passage}`` pointwise).

    >>> from rerank_plus import LLMReranker, OpenAICompatibleChat  # doctest: +SKIP
    >>> reranker = LLMReranker(OpenAICompatibleChat("gpt-4o-mini"))  # doctest: +SKIP
    >>> reranker.rank("who wrote Hamlet?", ["Shakespeare wrote Hamlet.", "Paris"], top_n=1)
    ... # doctest: +SKIP
    [RankedResult(index=0, score=2.0, relevance_score=1.0, explanation=None)]
    """

    def __init__(
        self,
        llm: Any,
        mode: str = "listwise",
        *,
        judgment: str = "grade",
        window_size: int = 20,
        step: int = 10,
        passage_tokens: int = 300,
        query_tokens: int = 200,
        max_calls: int | None = 100,
        max_concurrency: int = 8,
        max_retries: int = 3,
        backoff: float = 1.0,
        cache_size: int = 10_000,
        prompt: PromptTemplate | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}.")
        if judgment not in JUDGMENTS:
            raise ValueError(f"judgment must be one of {', '.join(JUDGMENTS)}, got {judgment!r}.")
        window_spans(0, window_size, step)  # validates the window
        for name, value in (
            ("passage_tokens", passage_tokens),
            ("query_tokens", query_tokens),
            ("max_concurrency", max_concurrency),
        ):
            _positive(name, value)
        _positive("max_calls", max_calls, allow_none=True)
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"max_retries must be an int >= 0, got {max_retries!r}.")
        if not isinstance(backoff, (int, float)) or backoff < 0:
            raise ValueError(f"backoff must be a number of seconds >= 0, got {backoff!r}.")
        task = task_of(mode, judgment)
        self.prompt = check_template(DEFAULT_TEMPLATES[task] if prompt is None else prompt, task)
        self.llm = as_chat_model(llm)
        self.mode = mode
        self.judgment = judgment
        self.window_size = window_size
        self.step = step
        self.passage_tokens = passage_tokens
        self.query_tokens = query_tokens
        self.policy = CallPolicy(max_calls, max_concurrency, max_retries, float(backoff))
        self.usage = Usage()
        self._cache: LRUCache[Completion] = LRUCache(cache_size)

    @property
    def model(self) -> str:
        """The model's name (what adapters report, and half of the cache key)."""
        return self.llm.model_name

    def _runner(self) -> CallRunner:
        logprobs = self.mode == "pointwise" and self.judgment == "yes-no"
        return CallRunner(self.llm, self.policy, self._cache, logprobs=logprobs)

    def _steps(self, query: str, documents: Sequence[str]) -> Steps[Any]:
        short_query = truncate(query, self.query_tokens)
        passages = [truncate(text, self.passage_tokens) for text in documents]
        if self.mode == "listwise":
            return sliding_window(short_query, passages, self.window_size, self.step, self.prompt)
        return judge_each(short_query, passages, self.judgment, self.prompt)

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        runner = self._runner()
        outcome = drive(self._steps(query, documents), runner.run)
        return self._scores(outcome, runner, explain)

    async def ascore(
        self, query: str, documents: Sequence[str], *, explain: bool = False
    ) -> Scores:
        """:meth:`score` on the running event loop: the backend's ``acomplete`` under a
        semaphore of ``max_concurrency``."""
        runner = self._runner()
        outcome = await adrive(self._steps(query, documents), runner.arun)
        return self._scores(outcome, runner, explain)

    def _scores(self, outcome: Any, runner: CallRunner, explain: bool) -> Scores:
        self.usage = runner.usage
        if isinstance(outcome, ListwiseOutcome):
            return listwise_scores(outcome, runner, explain=explain, model=self.model)
        return pointwise_scores(
            outcome, runner, explain=explain, model=self.model, judgment=self.judgment
        )
