"""Run methods over meetings and budgets, judge every context, keep one record per query.

For each meeting, query and budget the reference method (the policy) answers first with the
budget as ``max_tokens``; the words of its context (headers included) are then given to every
other method. Without a reference method the budget is read as words. A method that returns
more words than it was given is an error, not a result.

Latency is each ``context`` call's wall time. Work a method can do once per meeting (building
a memory, embedding its pieces) goes in its optional ``prepare(meeting)``, timed apart; so
does ``before_meeting`` (the suite embeds the meeting's queries there), so the latency of
embedding-based methods is their own work on cached vectors.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rerank_plus.evaluation.memory.contexts import MethodContext, as_method_context
from rerank_plus.evaluation.memory.judges import MeetingJudge, intent_correct
from rerank_plus.evaluation.memory.qmsum import Meeting, Query
from rerank_plus.memory.model.sentences import word_count


class Method(Protocol):
    """An evaluation method: a context of at most ``words`` words for one query."""

    name: str

    def context(self, meeting: Meeting, query: Query, words: int) -> Any:
        """A str (pieces separated by blank lines) or a :class:`MethodContext`."""


@dataclass(frozen=True, slots=True)
class Record:
    """One method's context for one query at one budget, judged."""

    method: str
    budget: int
    meeting: str
    query: str
    kind: str
    words_given: int
    words: int
    seconds: float
    metrics: Mapping[str, float]
    intent: str | None = None
    intent_correct: bool | None = None
    category: str = ""
    tokens_by_block: Mapping[str, int] = field(default_factory=dict)
    tokens_by_level: Mapping[str, int] = field(default_factory=dict)


@dataclass
class Run:
    """Every record of a run, and each method's preparation time per meeting (building
    memories, embedding pieces), kept apart from per-query latency."""

    budgets: tuple[int, ...]
    methods: tuple[str, ...]
    reference: str | None
    records: list[Record] = field(default_factory=list)
    prepare_seconds: dict[str, dict[str, float]] = field(default_factory=dict)
    meetings: list[str] = field(default_factory=list)


def applies(method: Any, query: Query) -> bool:
    """Ceilings judge one kind of query only (their ``kinds``); other methods, every kind."""
    return query.kind in getattr(method, "kinds", ("general", "specific"))


def _timed(method: Any, meeting: Meeting, query: Query, amount: int) -> tuple[MethodContext, float]:
    started = time.perf_counter()
    value = method.context(meeting, query, amount)
    return as_method_context(value, method.name), time.perf_counter() - started


def _record(
    method: Any,
    budget: int,
    query: Query,
    given: int,
    context: MethodContext,
    *,
    seconds: float,
    judge: MeetingJudge,
) -> Record:
    return Record(
        method=method.name,
        budget=budget,
        meeting=query.meeting,
        query=query.id,
        kind=query.kind,
        words_given=given,
        words=word_count(context.text),
        seconds=seconds,
        metrics=judge.judge(query, context.text, context.pieces),
        intent=context.intent,
        intent_correct=None if context.intent is None else intent_correct(query, context.intent),
        category=query.category,
        tokens_by_block=dict(context.tokens_by_block),
        tokens_by_level=dict(context.tokens_by_level),
    )


def evaluate(
    meetings: Sequence[Meeting],
    methods: Sequence[Method],
    budgets: Sequence[int],
    *,
    reference: Method | None = None,
    progress: Callable[[str], None] | None = None,
    before_meeting: Callable[[Meeting], None] | None = None,
    after_meeting: Callable[[Meeting], None] | None = None,
) -> Run:
    """Judge every method's context for every query of ``meetings`` at every budget.

    ``reference`` (the policy) gets the budget as its third argument and sets the words of
    the others; ``before_meeting`` and ``after_meeting`` run around each meeting (to embed
    its queries, to flush a cache).
    """
    names = [method.name for method in methods]
    if reference is not None:
        names.insert(0, reference.name)
    if len(set(names)) != len(names):
        raise ValueError(f"method names must be unique, got {names}.")
    if not budgets or any(b < 1 for b in budgets):
        raise ValueError(f"budgets must be positive ints, got {list(budgets)}.")
    run = Run(tuple(budgets), tuple(names), None if reference is None else reference.name)
    everyone = ([reference] if reference is not None else []) + list(methods)
    for position, meeting in enumerate(meetings, start=1):
        if progress:
            progress(f"[{position}/{len(meetings)}] {meeting.name}: {len(meeting.queries)} queries")
        if before_meeting is not None:
            before_meeting(meeting)
        for method in everyone:
            prepare = getattr(method, "prepare", None)
            if prepare is not None:
                started = time.perf_counter()
                prepare(meeting)
                seconds = time.perf_counter() - started
                run.prepare_seconds.setdefault(method.name, {})[meeting.name] = seconds
        judge = MeetingJudge(meeting)
        for query in meeting.queries:
            for budget in budgets:
                words = budget
                if reference is not None:
                    context, seconds = _timed(reference, meeting, query, budget)
                    record = _record(
                        reference, budget, query, budget, context, seconds=seconds, judge=judge
                    )
                    run.records.append(record)
                    words = record.words
                for method in methods:
                    if not applies(method, query):
                        continue
                    context, seconds = _timed(method, meeting, query, words)
                    record = _record(
                        method, budget, query, words, context, seconds=seconds, judge=judge
                    )
                    if record.words > words:
                        raise ValueError(
                            f"method {method.name!r} returned {record.words} words for "
                            f"{query.id} where it was given {words}; a method must fill at "
                            "most the words it is given."
                        )
                    run.records.append(record)
        run.meetings.append(meeting.name)
        if after_meeting is not None:
            after_meeting(meeting)
    return run
