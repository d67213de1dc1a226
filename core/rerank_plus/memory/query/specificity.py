"""How specific a question is for one memory, read from the memory's own word counts: a signal
that needs no lexicon.

A broad question asked in words no cue list holds still leaves words that narrow nothing:
"faire" in "peux-tu me faire un résumé", "big" and "day" in a chat that says them every other
session. Such words are common in the memory, while a precise question names what only a few
messages hold: a name, a number, a rare term. So a word the memory's messages use often is no
topic of a question that asks for a summary, nor is a word no message uses (nothing in this
memory is about it: "chance" in "any chance you could summarize", a misspelt "everythign"),
unless the question names it as its topic ("the discussion *about* early help",
:attr:`.Lexicon.topic_leads`): there, however often or seldom the memory says it, it is what
the question is about; a name the memory does not know stays one too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: A word is common in a memory when at least this share of its messages use it: one message
#: in twelve. The smallest share at which common words cost QMSum nothing, measured on its train
#: split (162 meetings, 1,095 specific questions, each asked of its own meeting:
#: ``python benchmarks/memory_intent.py --qmsum train --shares 0.02,0.04,0.125,0.2``): at 0.02,
#: 6 specific questions more are read as synthesis, at 0.04 one more, from 1/12 to 0.2 none
#: beyond the 6 whose leftover words no message of their meeting uses ("Summarize the wrap up
#: of the meeting"). The generic words a broad question leaves ("think", "want", "make") are used
#: by 10% to 30% of a meeting's turns.
COMMON_SHARE = 1 / 12
#: ... and at least this many of its messages: in a memory of twenty messages one message is
#: already 5%, and a word said once is no word the memory says everywhere.
COMMON_MESSAGES = 3


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """How many of a memory's messages use each analyzed term (the terms as the analysis layer
    reads them, so a question's keywords are looked up as they are)."""

    messages: int
    counts: Mapping[str, int]
    #: The share of the messages a common word is used by (:data:`COMMON_SHARE`).
    common_share: float = COMMON_SHARE
    #: The fewest messages a common word is used by (:data:`COMMON_MESSAGES`).
    common_messages: int = COMMON_MESSAGES

    def share(self, term: str) -> float:
        """The share of the messages that use ``term`` (0 for an empty memory)."""
        return self.counts.get(term, 0) / self.messages if self.messages else 0.0

    def is_common(self, term: str) -> bool:
        """Whether ``term`` is used by at least ``common_share`` of the messages and by
        ``common_messages`` of them."""
        count = self.counts.get(term, 0)
        return count >= self.common_messages and count >= self.common_share * self.messages


def unspecific_words(
    words: Iterable[str],
    vocabulary: Vocabulary | None,
    topic: Iterable[str] = (),
    named: Iterable[str] = (),
) -> dict[str, float]:
    """The ``words`` that narrow nothing in the memory, each with the share of its messages
    that use it: the common ones (:meth:`Vocabulary.is_common`) and the ones no message uses
    (nothing in this memory is about them). A number, a word of the ``topic`` (named after a
    topic lead) and a ``named`` word the memory never uses (a name it does not know) narrow the
    question whatever their counts. Without a vocabulary (a question read alone, not asked of
    a memory) none is."""
    if vocabulary is None or not vocabulary.messages:
        return {}
    kept, names = set(topic), set(named)
    found = {}
    for word in words:
        if word in kept or any(c.isdigit() for c in word):
            continue
        unused = word not in vocabulary.counts and word not in names
        if unused or vocabulary.is_common(word):
            found[word] = vocabulary.share(word)
    return found
