"""Token budget: keep results in rank order while their total size fits ``max_tokens``.

A language model's context is counted in tokens, not documents. The budget keeps the longest
prefix of the ranking whose token total fits; it never skips a long result to take a shorter
one further down, so the order callers see is still the ranking's. When the first result alone
exceeds the budget, nothing fits and the result is empty: raise ``max_tokens`` or split the
documents.

Counting is pluggable (any ``Callable[[str], int]``, e.g. a tokenizer's ``len(encode(text))``);
the default :func:`approximate_tokens` needs no download.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from rerank_plus.analysis.script import UNSPACED_LETTER, has_unspaced

TokenCounter = Callable[[str], int]

_PIECES = re.compile(r"\w+|[^\w\s]")
#: Subword tokenizers cut words into pieces: BPE vocabularies of current LLMs average about 1.3
#: tokens per English word; punctuation marks are a token each. We round up.
TOKENS_PER_PIECE = 4 / 3


def approximate_tokens(text: str) -> int:
    """Words and punctuation marks, times 4/3, rounded up: a no-download LLM token estimate.
    A letter of a script written without spaces (Han, Kana, Thai ...) is a piece of its own:
    tokenizers spend about a token on each, where a run of them is no word.

    >>> approximate_tokens("Paris is the capital of France.")
    10
    >>> approximate_tokens("巴黎是法国的首都。")
    12
    """
    if not has_unspaced(text):
        return math.ceil(len(_PIECES.findall(text)) * TOKENS_PER_PIECE)
    letters = len(UNSPACED_LETTER.findall(text))
    return math.ceil(
        (letters + len(_PIECES.findall(UNSPACED_LETTER.sub(" ", text)))) * TOKENS_PER_PIECE
    )


class TokenBudget:
    """Keep the longest prefix of the ranking whose total token count is <= ``max_tokens``.

    >>> TokenBudget(9).keep(["one two three", "four five six", "seven"])
    2
    """

    def __init__(self, max_tokens: int, counter: TokenCounter | None = None) -> None:
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
            raise ValueError(f"max_tokens must be a positive int, got {max_tokens!r}.")
        if counter is not None and not callable(counter):
            raise TypeError(f"counter must be a callable str -> int, got {counter!r}.")
        self.max_tokens = max_tokens
        self.counter = counter or approximate_tokens

    def count(self, texts: Sequence[str]) -> list[int]:
        counts = []
        for text in texts:
            value = self.counter(text)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise TypeError(
                    f"the token counter returned {value!r}; it must return an int >= 0."
                )
            counts.append(value)
        return counts

    def keep(self, texts: Sequence[str]) -> int:
        """How many of ``texts`` (in rank order) fit."""
        return self.fit(self.count(texts))

    def fit(self, counts: Sequence[int]) -> int:
        total = 0
        for kept, value in enumerate(counts):
            total += value
            if total > self.max_tokens:
                return kept
        return len(counts)

    def __repr__(self) -> str:
        return f"TokenBudget(max_tokens={self.max_tokens})"
