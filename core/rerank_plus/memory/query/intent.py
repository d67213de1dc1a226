"""Which of the four intents a query has, by rules that read its cues, not its topic.

In order, the first rule that applies decides:

1. an entity question with a target ("where do we talk about X", "où parle-t-on de X") ->
   ``entity``;
2. a recency cue ("what's new", "latest", "dernièrement", "seit gestern" is a window, see 5) ->
   ``recent``;
3. a breadth cue ("main steps", "big picture", "grandes étapes", "dans l'ensemble") ->
   ``synthesis``;
4. nothing left once the cues, the time expression, scope words ("meeting", "discussion",
   "team", "topics", "decisions", "discussed" ...) and stop words are taken out:
   with a summary cue ("summarize", "what was ... about", "de quoi") or a scope word ->
   ``synthesis`` ("Summarize the whole meeting", "What were the main topics?");
5. ...unless the query states a window that reaches ``now`` ("since yesterday", "today",
   "in the last 2 hours"): then ``recent`` ("What happened since yesterday?");
6. anything else -> ``detail``: the query names what it wants ("Summarize the discussion about
   remote concepts" keeps "remote concepts": a summary narrowed to a topic is a detail question).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: The intents a retriever policy has a profile for.
INTENTS = ("synthesis", "detail", "recent", "entity")


@dataclass(frozen=True, slots=True)
class IntentEvidence:
    """What the rules read, each cue as the query's text."""

    entity_targets: Sequence[str]
    entity_leads: Sequence[str]
    recency: Sequence[str]
    breadth: Sequence[str]
    summary: Sequence[str]
    scope: Sequence[str]
    #: Content words left once cues, times, scope and stop words are out.
    remainder: Sequence[str]
    #: The window's text when it reaches ``now`` (open, or ending after it), else None.
    open_window: str | None


def _quoted(words: Sequence[str]) -> str:
    return ", ".join(repr(word) for word in dict.fromkeys(words))


def decide_intent(evidence: IntentEvidence) -> tuple[str, str]:
    """``(intent, reason)``: the intent and the rule that gave it, in a short sentence."""
    if evidence.entity_targets:
        return "entity", (
            f"entity cue {_quoted(evidence.entity_leads)} about {_quoted(evidence.entity_targets)}"
        )
    if evidence.recency:
        return "recent", f"recency cue {_quoted(evidence.recency)}"
    if evidence.breadth:
        return "synthesis", f"breadth cue {_quoted(evidence.breadth)}"
    if not evidence.remainder:
        if evidence.open_window is not None:
            return "recent", f"a window up to now ({evidence.open_window!r}) and no topic"
        if evidence.summary:
            return "synthesis", (
                f"summary cue {_quoted(evidence.summary)} with no topic"
                + (f" (scope words {_quoted(evidence.scope)})" if evidence.scope else "")
            )
        if evidence.scope:
            return "synthesis", f"only scope words {_quoted(evidence.scope)}, no topic"
        return "detail", "no cue and no content words"
    narrowed = f"summary cue {_quoted(evidence.summary)} narrowed to " if evidence.summary else ""
    return "detail", f"{narrowed}content words {_quoted(evidence.remainder)}"
