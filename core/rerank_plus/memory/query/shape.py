"""What form of answer a precise question asks for, beside its intent: its shape.

A chat kept over months is asked things a meeting seldom is: when something happened ("when did
Ana start the new job?"), a list spread over the sessions ("which places has she visited?"),
what holds now of something that changed ("where does she live now?", "what is the launch
date?"). Each wants another context (the best single messages with their dates; one or two
messages from each session; the newest statements first), so the analysis names the shape and
the policy reads it. The cues are the ``[shape]`` table of each lexicon (:mod:`.lexicon`); the
first rule that applies decides:

1. a question that is not ``detail`` is ``plain``: a summary, what is new and every mention of
   an entity already read the whole memory, each in its own way;
2. a list cue ("which places", "what are all", "quels sont tous", "哪些") -> ``list``;
3. a time cue ("when did", "how long ago", "quand", "wann", "什么时候") -> ``time``;
4. a current-state cue ("now", "currently", "what is the ... date", "actuellement",
   "derzeit") -> ``current``;
5. anything else -> ``plain``.

A list before a time ("which cities did she visit and when?" wants every visit, each dated) and
a time before a current state ("when did she start her current job?" asks for a date): the
time cues are written so that "when is the launch?", a date that may still move, is a current
state rather than a past event's time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rerank_plus.memory.query.cues import Cue
from rerank_plus.memory.query.lexicon import LEXICONS

#: The shapes, ``plain`` first (what every question not read as another is).
SHAPES = ("plain", "time", "list", "current")

#: Shape -> the cue kind that signals it, in the order the rules try them.
_RULES = (("list", "list_questions"), ("time", "time_questions"), ("current", "current_questions"))
_KINDS = tuple(kind for _, kind in _RULES)


def decide_shape(
    intent: str, found: Mapping[str, Sequence[Cue]], text: str, language: str | None
) -> tuple[str, str]:
    """``(shape, reason)`` of a question of ``intent`` in ``language`` whose cues are ``found``
    (by kind, spans in ``text``); the reason is empty for ``plain``. In a language a lexicon
    reads, only its own cues count: every language's cues are tried on every question, French
    "allé" folds to German "alle", and "est-ce que Jules aimerait ...?" holds Portuguese
    "que cidades" ("que" and a word ending in s). A question in another language reads every
    lexicon's cues."""
    if intent != "detail":
        return "plain", ""
    own = language in LEXICONS
    for shape, kind in _RULES:
        cues = [c for c in found.get(kind, ()) if not own or c.language == language]
        if cues:
            words = ", ".join(repr(text[c.start : c.end].strip()) for c in cues)
            return shape, f"{shape} question ({words})"
    return "plain", ""
