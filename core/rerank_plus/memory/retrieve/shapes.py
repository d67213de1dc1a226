"""What a detail question's shape tells the reader: the guidance notes of its policy.

A question about the current state of something that changes ("where does Ana live now?",
"what is the launch date?") gets the statements about it newest first where they were said on
different days, older ones after with their own dates (``quote_order: newest_first``,
:mod:`rerank_plus.memory.context.quote_order`); the guidance says so, since whether an older
statement still holds is for the reader to judge, not the retriever.
"""

from __future__ import annotations

from rerank_plus.memory.policy import IntentPolicy
from rerank_plus.memory.trace import Trace

#: What the guidance says of a context whose statements come newest first.
NEWEST_FIRST = (
    "Statements about something that changes: those said on different days are shown newest "
    "first, older ones after them with their own dates; a newer statement may supersede an "
    "older one."
)


def shape_notes(policy: IntentPolicy, trace: Trace, dated_headers: bool) -> list[str]:
    """The guidance notes of the policy's shape (the trace names the shape's policy); the
    newest-first note only for a memory whose messages span days (within one sitting, or
    without times, the quotes stay best first)."""
    if policy.shape == "plain":
        return []
    trace.step(
        "shape",
        shape=policy.shape,
        lead_quotes=dict(policy.lead_quotes),
        lead_breadth=policy.lead_breadth,
        quote_order=policy.quote_order,
    )
    return [NEWEST_FIRST] if policy.quote_order == "newest_first" and dated_headers else []
