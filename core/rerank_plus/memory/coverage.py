"""Sentences picked for what they add: a budgeted coverage of what a conversation is about.

A broad question ("what was the meeting about?") is best served by the fewest words that say
the most of what the conversation kept coming back to, not by whole items in order of their
likeness to the question (for a question that names no topic that likeness is noise, and the
items most like "summarize the meeting" are often back-channel). A term weighs its
:func:`salience`, ``log(1 + the number of messages that use it)``; a sentence's gain is the
summed weight of its terms that nothing in the context holds yet, per token it costs (its
item's header too when it is the item's first sentence). Picking the best gain until the
budget is spent or nothing adds a term is the greedy approximation of budgeted maximum
coverage (Khuller, Moss and Naor, 1999), the one extractive summarizers use (Lin and Bilmes,
2011); counting a term once is SumBasic's update at its limit (Nenkova and Vanderwende, 2005).
When the question names a topic, each gain is multiplied by its item's relevance (its score
over the pool's best), so what is covered is what the question is about.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from rerank_plus.memory.items import MemoryItem

#: Below this a gain is rounding left by the updates: the sentence adds no term.
GAIN_FLOOR = 1e-9


#: A sentence worth showing on its own: this many words and distinct terms at least (the bar
#: the extractive summarizer sets; "Yeah , right ." and "Mm - hmm ." add nothing).
MIN_SENTENCE_WORDS = 5
MIN_SENTENCE_TERMS = 2


@dataclass(frozen=True)
class Coverage:
    """What a composition fills by coverage: which blocks, the terms' weights, each item's
    sentence terms, whether relevance multiplies the gains (when the question names a topic),
    and the section of each message and window (see :func:`pick`)."""

    blocks: frozenset[str]
    weights: Mapping[str, float]
    terms_of: Callable[[MemoryItem], tuple[frozenset[str], ...]]
    by_relevance: bool
    sections: Mapping[str, str]


def salience(message_counts: Mapping[str, int]) -> dict[str, float]:
    """Each term's weight from the number of messages that use it: what is said again and again
    is what the conversation is about; a damped count, so the most frequent terms do not
    outweigh everything else.

    >>> salience({"budget": 9, "lyon": 1})
    {'budget': 2.302585092994046, 'lyon': 0.6931471805599453}
    """
    return {term: math.log1p(count) for term, count in message_counts.items()}


@dataclass(frozen=True, slots=True)
class Candidate:
    """A sentence that may be shown: which item (a position in the pool) and which of its
    sentences, its terms, what it costs and what its item's first sentence costs more, its
    section, and its folded form (a sentence said twice is shown once)."""

    item: int
    sentence: int
    terms: frozenset[str]
    tokens: int
    opening: int
    section: str | None = None
    form: str = ""


def pick(
    candidates: Sequence[Candidate],
    weights: Mapping[str, float],
    allowance: float,
    covered: set[str],
    relevance: Sequence[float] | None = None,
    shown_sections: set[str] | None = None,
) -> list[Candidate]:
    """The candidates picked greedily by new weight per token while they fit ``allowance``,
    in the order picked; ``covered`` (terms already in the context) and ``shown_sections``
    grow with each pick.

    A section (a part of the conversation: the summary above a window) not shown yet adds
    the weight of the memory's most used term to its sentences' gains, the diversity reward
    of Lin and Bilmes (2011): without it every pick may come from the one stretch that says
    the most, and a broad question's context misses whole topics.

    >>> a = Candidate(0, 0, frozenset({"budget", "lyon"}), 5, 3)
    >>> b = Candidate(0, 1, frozenset({"budget"}), 3, 3)
    >>> [c.sentence for c in pick([a, b], {"budget": 2.0, "lyon": 1.0}, 20, set())]
    [0]
    """
    if not candidates:
        return []
    shown_sections = set() if shown_sections is None else shown_sections
    reward = max(weights.values(), default=0.0)
    gains = np.array(
        [
            sum(weights.get(t, 0.0) for t in c.terms if t not in covered)
            + (reward if c.section is not None and c.section not in shown_sections else 0.0)
            for c in candidates
        ]
    )
    factor = np.ones(len(candidates)) if relevance is None else np.asarray(relevance, float)
    tokens = np.array([max(c.tokens, 1) for c in candidates], dtype=float)
    opening = np.array([c.opening for c in candidates], dtype=float)
    items = np.array([c.item for c in candidates])
    holders: dict[str, list[int]] = {}
    in_section: dict[str, list[int]] = {}
    same_form: dict[str, list[int]] = {}
    for position, candidate in enumerate(candidates):
        if candidate.form:
            same_form.setdefault(candidate.form, []).append(position)
        for term in candidate.terms:
            holders.setdefault(term, []).append(position)
        if candidate.section is not None:
            in_section.setdefault(candidate.section, []).append(position)
    open_items: set[int] = set()
    left = np.ones(len(candidates), dtype=bool)
    picked: list[Candidate] = []
    while True:
        cost = tokens + np.where(np.isin(items, list(open_items)), 0.0, opening)
        fits = left & (gains > GAIN_FLOOR) & (cost <= allowance)
        if not fits.any():
            return picked
        best = int(np.argmax(np.where(fits, gains * factor / cost, -1.0)))
        chosen = candidates[best]
        picked.append(chosen)
        allowance -= cost[best]
        left[best] = False
        if chosen.form:
            left[same_form[chosen.form]] = False
        open_items.add(chosen.item)
        for term in chosen.terms - covered:
            covered.add(term)
            weight = weights.get(term, 0.0)
            for position in holders[term]:
                gains[position] -= weight
        if chosen.section is not None and chosen.section not in shown_sections:
            shown_sections.add(chosen.section)
            gains[in_section[chosen.section]] -= reward
