"""Algorithms written once, run sync or async: each is a generator that yields the prompts it
needs answered and receives the answers, so ``rank`` (threads) and ``arank`` (a coroutine)
drive the same code."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rerank_plus.scoring.llm.protocol import Completion, Prompt

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Batch:
    """Prompts to answer together, and the most tokens an answer needs."""

    prompts: Sequence[Prompt]
    max_tokens: int


Answers = list[Completion | None]
Steps = Generator[Batch, Answers, T]


def drive(steps: Steps[T], answer: Callable[[Sequence[Prompt], int], Answers]) -> T:
    """Run ``steps`` to its result, answering each batch with ``answer`` (blocking)."""
    try:
        batch = next(steps)
        while True:
            batch = steps.send(answer(batch.prompts, batch.max_tokens))
    except StopIteration as finished:
        return finished.value


async def adrive(
    steps: Steps[T], answer: Callable[[Sequence[Prompt], int], Awaitable[Answers]]
) -> T:
    """Run ``steps`` to its result, awaiting ``answer`` for each batch."""
    try:
        batch = next(steps)
        while True:
            batch = steps.send(await answer(batch.prompts, batch.max_tokens))
    except StopIteration as finished:
        return finished.value
