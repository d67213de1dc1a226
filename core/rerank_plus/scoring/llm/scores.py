"""From what the model said to :class:`Scores`: relevance in [0, 1], and the explanation
(the answer, the repairs, every call's tokens and the rank's totals)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rerank_plus.reranker import Scores
from rerank_plus.scoring.llm.calls import CallRunner
from rerank_plus.scoring.llm.listwise import ListwiseOutcome
from rerank_plus.scoring.llm.pointwise import Judgment

#: The listwise relevance of the passage at ``rank`` (1 = best) of ``n``.
LISTWISE_RELEVANCE = "(n - rank + 1) / n"


def listwise_scores(
    outcome: ListwiseOutcome, runner: CallRunner, *, explain: bool, model: str
) -> Scores:
    """``score = n - rank + 1`` and ``relevance = score / n``: 1 for the best, 1/n the last."""
    count = len(outcome.order)
    raw = [0.0] * count
    for position, index in enumerate(outcome.order):
        raw[index] = float(count - position)
    relevance = [value / count for value in raw]
    if not explain:
        return Scores(raw, relevance)
    shared = {
        "mode": "listwise",
        "model": model,
        "relevance": LISTWISE_RELEVANCE,
        "windows_run": outcome.windows_run,
        "windows_planned": outcome.windows_planned,
        "stopped_by_max_calls": outcome.stopped_by_max_calls,
        "repairs": outcome.repairs,
        "calls": [call.to_dict() for call in runner.calls],
        "usage": runner.usage.to_dict(),
    }
    explanations = [
        {**shared, "rank": count - int(raw[i]) + 1, "input_rank": i + 1} for i in range(count)
    ]
    return Scores(raw, relevance, explanations)


def pointwise_scores(
    judgments: list[Judgment], runner: CallRunner, *, explain: bool, model: str, judgment: str
) -> Scores:
    """The judgments' relevance; a passage the budget left unjudged sorts below judged ones."""
    raw = [j.relevance if j.judged else -1.0 for j in judgments]
    relevance = [j.relevance for j in judgments]
    if not explain:
        return Scores(raw, relevance)
    shared = {
        "mode": "pointwise",
        "model": model,
        "judgment": judgment,
        "usage": runner.usage.to_dict(),
    }
    return Scores(raw, relevance, [_explain(j, runner, shared) for j in judgments])


def _explain(judgment: Judgment, runner: CallRunner, shared: Mapping[str, Any]) -> dict[str, Any]:
    explanation: dict[str, Any] = {**shared, "judged": judgment.judged}
    if not judgment.judged:
        explanation["not_judged"] = "max_calls reached"
        return explanation
    call = runner.by_prompt.get(judgment.prompt)
    explanation.update(
        answer=(judgment.answer or "")[:200],
        read_from=judgment.read_from,
        call=call.to_dict() if call is not None else None,
    )
    if judgment.grade is not None:
        explanation["grade"] = judgment.grade
    if judgment.unreadable:
        explanation["unreadable"] = True
    return explanation
