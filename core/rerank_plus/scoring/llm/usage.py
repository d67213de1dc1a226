"""Token and call accounting: what one call cost, and what one rank cost in all."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rerank_plus.scoring.batching import CHARS_PER_TOKEN
from rerank_plus.scoring.llm.protocol import Completion, Prompt


def estimate_tokens(text: str) -> int:
    """Tokens of ``text`` for a subword tokenizer, about 4 characters each (English).

    Used where the backend reports no usage, and to cut passages to their token budget.
    """
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def prompt_tokens(prompt: Prompt) -> int:
    return estimate_tokens(prompt.system) + estimate_tokens(prompt.user)


@dataclass(frozen=True, slots=True)
class CallUsage:
    """One call: tokens in and out (the backend's counts, or ``estimated``), retries, time.

    A call answered from the cache costs no tokens and has ``cached`` set.
    """

    input_tokens: int
    output_tokens: int
    cached: bool = False
    estimated: bool = False
    retries: int = 0
    seconds: float = 0.0

    @classmethod
    def of(cls, prompt: Prompt, completion: Completion, retries: int, seconds: float) -> CallUsage:
        estimated = completion.input_tokens is None or completion.output_tokens is None
        return cls(
            input_tokens=completion.input_tokens
            if completion.input_tokens is not None
            else prompt_tokens(prompt),
            output_tokens=completion.output_tokens
            if completion.output_tokens is not None
            else estimate_tokens(completion.text),
            estimated=estimated,
            retries=retries,
            seconds=seconds,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cached": self.cached,
            "estimated": self.estimated,
            "retries": self.retries,
        }


@dataclass(frozen=True, slots=True)
class Usage:
    """Every call of one rank, in the order they were made, and their totals.

    >>> usage = Usage((CallUsage(120, 8), CallUsage(0, 0, cached=True)))
    >>> usage.calls_made, usage.cached_calls, usage.input_tokens
    (1, 1, 120)
    """

    calls: tuple[CallUsage, ...] = ()

    @property
    def calls_made(self) -> int:
        """Calls that reached the model (cache hits excluded): what ``max_calls`` bounds."""
        return sum(1 for call in self.calls if not call.cached)

    @property
    def cached_calls(self) -> int:
        return sum(1 for call in self.calls if call.cached)

    @property
    def input_tokens(self) -> int:
        return sum(call.input_tokens for call in self.calls)

    @property
    def output_tokens(self) -> int:
        return sum(call.output_tokens for call in self.calls)

    @property
    def retries(self) -> int:
        return sum(call.retries for call in self.calls)

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls_made,
            "cached_calls": self.cached_calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "retries": self.retries,
            "estimated": any(call.estimated for call in self.calls),
        }
