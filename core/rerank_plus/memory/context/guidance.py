"""What an answer built on a context rests on: summaries, verbatim quotes or both, the
summaries whose covered messages were not shown, and the notes a retrieval collected."""

from __future__ import annotations

from collections.abc import Sequence

from rerank_plus.memory.context.result import ContextItem, Guidance


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
