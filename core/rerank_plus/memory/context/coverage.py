"""Sentences picked for what they add: a budgeted coverage of what a conversation is about.

A broad question ("what was the meeting about?") is best served by the fewest words that say
the most of what the conversation kept coming back to, not by whole items in order of their
likeness to the question (for a question that names no topic that likeness is noise, and the
items most like "summarize the meeting" are often back-channel). A term weighs its
:func:`~rerank_plus.memory.index.salience.salience`, ``log(1 + the number of messages that use
it)``; a sentence's gain is the summed weight of its terms that nothing in the context holds yet,
per token it costs (its item's header too when it is the item's first sentence). Picking the best
gain until the
budget is spent or nothing adds a term is the greedy approximation of budgeted maximum
coverage (Khuller, Moss and Naor, 1999), the one extractive summarizers use (Lin and Bilmes,
2011); counting a term once is SumBasic's update at its limit (Nenkova and Vanderwende, 2005).
When the question names a topic, each gain is multiplied by its item's relevance (its score
min-max scaled over its block's pool), so what is covered is what the question is about.
A :class:`Timeline` spreads the picks over the conversation as evenly spaced sentences are
spread: what is said once, at the opening or in a short exchange, is a topic too.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, insort
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from math import fsum

from rerank_plus.memory.model.items import MemoryItem

#: Below this a gain is rounding left by the updates: the sentence adds no term.
GAIN_FLOOR = 1e-9


#: A sentence worth showing on its own: this many words and distinct terms at least (the bar
#: the extractive summarizer sets; "Yeah , right ." and "Mm - hmm ." add nothing).
MIN_SENTENCE_WORDS = 5
MIN_SENTENCE_TERMS = 2


@dataclass(frozen=True)
class Timeline:
    """Where each window and message sits in the conversation (its ``places``: 0 the first
    message, 1 the last; a window at the mean of its messages') and what a sentence gains for
    standing far from everything shown: ``weight`` times the distance to the nearest shown
    place, as a share of ``gap``, up to ``weight`` at ``gap`` or more. Salience alone passes
    over a part whose words the rest of the conversation never uses again (the opening review
    of the last meeting, petitions read out, a short aside), and each of those is a topic of
    its own; evenly spaced sentences cover every part but say little of each. The reward
    only shrinks as the context grows, so the lazy greedy of :func:`pick` stays exact.

    >>> timeline = Timeline({"m0": 0.0, "m8": 1.0}, gap=0.25, weight=2.0)
    >>> timeline.reward(0.625, [0.5]), timeline.reward(1.0, [0.5]), timeline.reward(0.5, [])
    (1.0, 2.0, 2.0)
    """

    places: Mapping[str, float]
    gap: float
    weight: float

    def reward(self, place: float, shown: Sequence[float]) -> float:
        """What a sentence at ``place`` gains, ``shown`` being the sorted places already in
        the context."""
        at = bisect_left(shown, place)
        nearest = shown[at] - place if at < len(shown) else self.gap
        if at and place - shown[at - 1] < nearest:
            nearest = place - shown[at - 1]
        return self.weight if nearest >= self.gap else self.weight * (nearest / self.gap)


@dataclass(frozen=True)
class Coverage:
    """What a composition fills by coverage: which blocks, the terms' weights, each item's
    sentence terms, whether relevance multiplies the gains (when the question names a topic),
    the section of each message and window and what a section not shown yet adds (see
    :func:`pick`), and the timeline that spreads the picks (None: no spread)."""

    blocks: frozenset[str]
    weights: Mapping[str, float]
    terms_of: Callable[[MemoryItem], tuple[frozenset[str], ...]]
    by_relevance: bool
    sections: Mapping[str, str]
    reward: float
    timeline: Timeline | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A sentence that may be shown: its item's id and its position among the item's
    sentences, its terms, what it costs and what its item's first
    sentence costs more (the header), its section, and its folded form (a sentence said twice
    is shown once)."""

    item: str
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
    *,
    relevance: Mapping[str, float] | None = None,
    shown_sections: set[str] | None = None,
    reward: float | None = None,
    timeline: Timeline | None = None,
    shown_places: list[float] | None = None,
) -> list[Candidate]:
    """The candidates picked greedily by new weight per token while they fit ``allowance``,
    in the order picked; ``covered`` (terms already in the context), ``shown_sections`` and
    ``shown_places`` (sorted) grow with each pick. ``relevance`` (by item id) multiplies an
    item's gains; ``timeline`` adds its reward for a place far from those shown.

    A section (a part of the conversation: the summary above a window) not shown yet adds
    ``reward`` (default: the weight of the memory's most used term) to its sentences' gains,
    the diversity reward of Lin and Bilmes (2011): without it every pick may come from the one
    stretch that says the most, and a broad question's context misses whole topics. Gains only
    shrink as the context grows, so a candidate's gain is computed again only when it comes to
    the top of the queue (the lazy greedy of Minoux, 1978); opening an item lowers its other
    sentences' cost, so they are queued again.

    >>> a = Candidate("w0", 0, frozenset({"budget", "lyon"}), 5, 3)
    >>> b = Candidate("w0", 1, frozenset({"budget"}), 3, 3)
    >>> [c.sentence for c in pick([a, b], {"budget": 2.0, "lyon": 1.0}, 20, set())]
    [0]
    """
    shown_sections = set() if shown_sections is None else shown_sections
    shown_places = [] if shown_places is None else shown_places
    places = [None if timeline is None else timeline.places.get(c.item) for c in candidates]
    if reward is None:
        reward = max(weights.values(), default=0.0)
    open_items: set[str] = set()
    shown_forms: set[str] = set()
    weight_of, zeros = weights.get, repeat(0.0)  # a term no message uses weighs 0.0
    scale = None if relevance is None else [relevance.get(c.item, 0.0) for c in candidates]

    def gain(position: int) -> float:
        candidate = candidates[position]
        # exactly rounded sums: a set's order changes with the hash seed, and so would ties
        found = fsum(map(weight_of, candidate.terms - covered, zeros))
        if candidate.section is not None and candidate.section not in shown_sections:
            found += reward
        place = places[position]
        if place is not None and timeline is not None:
            found += timeline.reward(place, shown_places)
        return found if scale is None else found * scale[position]

    # what each costs now: its item's header too until the item is opened
    costs = [max(c.tokens, 1) + c.opening for c in candidates]
    queue = [(-gain(n) / cost, n) for n, cost in enumerate(costs)]
    heapq.heapify(queue)  # ties keep the pool's order
    in_item: dict[str, list[int]] = {}
    for position, candidate in enumerate(candidates):
        in_item.setdefault(candidate.item, []).append(position)
    picked: list[Candidate] = []
    done = [False] * len(candidates)
    pop, push = heapq.heappop, heapq.heappush
    # below the cheapest sentence's cost nothing fits any more: the rest of the queue would
    # only be popped and passed over
    cheapest = max(min(c.tokens for c in candidates), 1) if candidates else 0
    while queue and allowance >= cheapest:
        best = pop(queue)[1]
        if done[best]:
            continue
        chosen = candidates[best]
        spent = costs[best]
        if spent > allowance or chosen.form in shown_forms:
            continue  # a sentence of an item opened later is queued again
        value = gain(best)
        if value <= GAIN_FLOOR:
            done[best] = True
            continue
        ratio = value / spent
        if queue and ratio < -queue[0][0]:
            push(queue, (-ratio, best))  # stale bound: another may now be ahead
            continue
        picked.append(chosen)
        done[best] = True
        allowance -= spent
        if chosen.form:
            shown_forms.add(chosen.form)
        covered.update(chosen.terms)
        if chosen.section is not None:
            shown_sections.add(chosen.section)
        place = places[best]
        if place is not None:
            insort(shown_places, place)
        if chosen.item not in open_items:
            open_items.add(chosen.item)
            for position in in_item[chosen.item]:
                if not done[position]:
                    costs[position] -= candidates[position].opening
                    push(queue, (-gain(position) / costs[position], position))
    return picked
