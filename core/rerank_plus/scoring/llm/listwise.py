"""Listwise reranking with RankGPT's sliding window (Sun et al., EMNLP 2023, section 3.2).

The model sees ``window`` numbered passages at a time and answers their order. Windows move
from the bottom of the list to the top by ``step``: each window's best ``window - step``
passages are also in the next window up, so a relevant passage climbs from anywhere to the top
in one pass. The top ``window - step`` of the final list are therefore the best ``window -
step`` passages the model would pick from the whole list (given a consistent model), at the
cost of ``1 + ceil((n - window) / step)`` calls for ``n > window``, 1 otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rerank_plus.scoring.llm.parsing import parse_permutation
from rerank_plus.scoring.llm.prompts import DEFAULT_TEMPLATES, PromptTemplate, listwise_prompt
from rerank_plus.scoring.llm.steps import Batch, Steps

#: Tokens an answer needs per passage ("[12] > " is about 4) plus a margin for prose.
ANSWER_TOKENS_PER_PASSAGE = 5
ANSWER_MARGIN = 20


def window_spans(count: int, window: int, step: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each window over ``count`` passages, bottom first.

    >>> window_spans(45, 20, 10)
    [(25, 45), (15, 35), (5, 25), (0, 15)]
    """
    if window < 2 or not 1 <= step <= window:
        raise ValueError(
            f"window must be >= 2 and 1 <= step <= window, got window={window}, step={step}."
        )
    spans = []
    end = count
    while True:
        start = max(0, end - window)
        spans.append((start, end))
        if start == 0:
            return spans
        end -= step


def expected_calls(count: int, window: int, step: int) -> int:
    """Calls a full pass makes: ``1 + ceil((count - window) / step)``, or 1 when it fits."""
    return 1 if count <= window else 1 + math.ceil((count - window) / step)


@dataclass
class ListwiseOutcome:
    """The final order (positions into the passages, best first) and what each window did."""

    order: list[int]
    windows_planned: int
    windows_run: int = 0
    stopped_by_max_calls: bool = False
    repairs: list[dict[str, Any]] = field(default_factory=list)


def sliding_window(
    query: str,
    passages: Sequence[str],
    window: int,
    step: int,
    template: PromptTemplate = DEFAULT_TEMPLATES["listwise"],
) -> Steps[ListwiseOutcome]:
    """Rerank ``passages`` (already truncated) window by window, from the bottom up.

    A window whose call the budget refused ends the pass: passages above it keep their order.
    """
    spans = window_spans(len(passages), window, step)
    outcome = ListwiseOutcome(list(range(len(passages))), windows_planned=len(spans))
    for number, (start, end) in enumerate(spans):
        ids = outcome.order[start:end]
        prompt = listwise_prompt(query, [passages[i] for i in ids], template)
        max_tokens = ANSWER_TOKENS_PER_PASSAGE * len(ids) + ANSWER_MARGIN
        (answer,) = yield Batch([prompt], max_tokens)
        if answer is None:
            outcome.stopped_by_max_calls = True
            break
        permutation = parse_permutation(answer.text, len(ids))
        outcome.order[start:end] = [ids[position] for position in permutation.order]
        outcome.windows_run += 1
        if permutation.repaired or permutation.found_no_numbers:
            outcome.repairs.append(
                {"window": number, "positions": [start + 1, end], **permutation.repairs()}
            )
    return outcome
