"""Which of the four intents a query has, by rules that read its cues, not its topic.

In order, the first rule that applies decides:

1. an entity question with a target ("where do we talk about X", "où parle-t-on de X") ->
   ``entity``;
2. a recency cue ("what's new", "latest", "dernièrement", "the last meeting") -> ``recent``,
   unless the question also has a time, list or current-state cue and a topic: "which books
   has Ben read recently?", "quels livres a-t-elle lus récemment ?" ask for particular
   messages about the books, "Was ist der aktuelle Termin für den Start?" for what holds now
   of the launch (``aktuell`` is both a recency and a current-state cue): each a ``detail``
   question, its shape read from those cues, not what is new;
3. take out the cues, the time expression, scope words ("meeting", "discussion", "team",
   "topics", "decisions", "discussed", "so far" ...), asking words ("can you tell me",
   "please") and stop words, but not the words that point past the memory ("the next
   meeting": plans are details); when nothing is left (no topic):

   - a window that reaches ``now`` ("since yesterday", "today", "in the last 2 hours") ->
     ``recent`` ("What happened since yesterday?");
   - a window of an hour or less ("at 14:05") -> ``detail``: the lines said then;
   - a breadth cue ("main steps", "big picture", "grandes étapes", "dans l'ensemble"), a
     summary cue ("summarize", "what was ... about", "de quoi") or a scope word ->
     ``synthesis`` ("Summarize the whole meeting", "What were the main topics?");
4. asked of a memory, a summary or breadth cue whose leftover words narrow nothing in that
   memory (used by many of its messages, "faire" in "peux-tu me faire un résumé", or by none;
   see :mod:`.specificity`) -> ``synthesis``. A name, a number, a word a few messages use, a
   topic named after a topic lead ("about", "sur") or a time or list cue ("when did", "which
   cities") narrows it;
5. anything else -> ``detail``: the query names what it wants. A summary or breadth cue
   narrowed to a topic is a detail question ("Summarize the discussion about remote
   concepts", "What were the main points of Marketing?").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

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
    #: The window's text when it is a precise time (an hour or less: "at 14:05"), else None.
    precise_window: str | None = None
    #: The remainder's words that narrow nothing in the memory asked (common in it, or used by
    #: none of its messages), with the share of its messages that use each
    #: (:func:`.specificity.unspecific_words`; empty for a question read alone).
    unspecific: Mapping[str, float] = field(default_factory=dict)
    #: The question's time and list cues ("when did", "which places"): it asks for particular
    #: messages, however unspecific its words.
    particular: Sequence[str] = ()
    #: The question's current-state cues ("now", "aktuell", "where does"): with a topic, it
    #: asks what holds now of that topic, not what is new.
    current: Sequence[str] = ()


def _quoted(words: Sequence[str]) -> str:
    return ", ".join(repr(word) for word in dict.fromkeys(words))


def decide_intent(evidence: IntentEvidence) -> tuple[str, str]:
    """``(intent, reason)``: the intent and the rule that gave it, in a short sentence."""
    if evidence.entity_targets:
        return "entity", (
            f"entity cue {_quoted(evidence.entity_leads)} about {_quoted(evidence.entity_targets)}"
        )
    asks_particular = bool(evidence.particular or evidence.current)
    if evidence.recency and not (asks_particular and evidence.remainder):
        return "recent", f"recency cue {_quoted(evidence.recency)}"
    if not evidence.remainder:
        if evidence.open_window is not None:
            return "recent", f"a window up to now ({evidence.open_window!r}) and no topic"
        if evidence.precise_window is not None:
            return "detail", f"a precise time ({evidence.precise_window!r}) and no topic"
        scope = f" (scope words {_quoted(evidence.scope)})" if evidence.scope else ""
        if evidence.breadth:
            return "synthesis", f"breadth cue {_quoted(evidence.breadth)} with no topic{scope}"
        if evidence.summary:
            return "synthesis", f"summary cue {_quoted(evidence.summary)} with no topic{scope}"
        if evidence.scope:
            return "synthesis", f"only scope words {_quoted(evidence.scope)}, no topic"
        return "detail", "no cue and no content words"
    cues = [*evidence.breadth, *evidence.summary]
    unspecific = all(word in evidence.unspecific for word in evidence.remainder)
    if cues and unspecific and not evidence.particular:
        shares = ", ".join(f"{word!r} {share:.0%}" for word, share in evidence.unspecific.items())
        return "synthesis", (
            f"summary cue {_quoted(cues)} with only words unspecific to this memory ({shares} "
            "of its messages)"
        )
    narrowed = f"summary cue {_quoted(cues)} narrowed to " if cues else ""
    return "detail", f"{narrowed}content words {_quoted(evidence.remainder)}"
