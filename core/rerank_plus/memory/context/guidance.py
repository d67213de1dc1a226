"""What an answer built on a context rests on: summaries, verbatim quotes or both, the
summaries whose covered messages were not shown, and the notes a retrieval collected."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rerank_plus.memory.context.result import ContextItem, Guidance, MemoryContext
from rerank_plus.memory.trace import Trace

#: The intents that need no subject: an overview of everything, the latest messages. A
#: question without words asks for nothing else.
WITHOUT_SUBJECT = ("synthesis", "recent")
#: The guidance of a question without words (and no intent that needs none).
EMPTY_QUESTION = (
    "The question is empty: nothing was retrieved. Ask about something, or pass "
    "intent='synthesis' for an overview or intent='recent' for the latest messages."
)


def guidance_for(items: Sequence[ContextItem], notes: Sequence[str]) -> Guidance:
    summaries = [item for item in items if item.level > 0]
    quotes = [item for item in items if item.level == 0]
    shown = {item.id for item in items}
    drillable = tuple(
        item.id
        for item in summaries
        if item.item.covers and not all(c in shown for c in item.item.covers)
    )
    basis = (
        "summaries and verbatim quotes"
        if summaries and quotes
        else "summaries"
        if summaries
        else "verbatim quotes"
        if quotes
        else "nothing"
    )
    return Guidance(basis, len(summaries), len(quotes), drillable, tuple(notes))


def note_what_is_missing(
    notes: list[str], items: Sequence[ContextItem], candidates: Mapping[str, Any]
) -> None:
    """Add to ``notes`` what a context lacks: summaries whose summarizer failed, or any item."""
    failed = [item.id for item in items if "summary_error" in item.item.extras]
    if failed:
        notes.append(
            f"Summaries {', '.join(failed[:5])} are extractive stand-ins: their summarizer "
            "failed when the memory was built."
        )
    if not items:
        notes.append(
            "Nothing fits: the budget is smaller than one item with its header."
            if any(candidates.values())
            else "No item matched the query's constraints."
        )


def empty_context(trace: Trace, intent: str, note: str) -> MemoryContext:
    """A context with nothing in it, its guidance saying why (``note``)."""
    trace.step("empty", reason=note)
    return MemoryContext(
        text="",
        items=(),
        intent=intent,
        tokens=0,
        trace=trace,
        guidance=Guidance("nothing", 0, 0, (), (note,)),
    )
