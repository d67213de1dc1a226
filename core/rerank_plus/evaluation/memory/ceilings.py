"""Ceilings: contexts built from the judgments themselves, to show how far a method could go.

* :class:`GoldTurns` (specific queries): the turns QMSum says answer the query, in meeting
  order, nothing else (they are not topped up: more words cannot raise their recall).
* :class:`GreedyOracle` (general queries): sentences picked greedily against the reference
  answer, each time the one that most increases ROUGE-1 recall of its content words (ties:
  the shorter, then the earlier sentence), until no sentence adds anything; then filled to the
  budget in that order. Clipped recall is a coverage function, so gains only shrink as
  sentences are picked, and the greedy search is lazy (a heap of stale gains).
"""

from __future__ import annotations

import heapq
from collections import Counter

from rerank_plus.evaluation.memory.contexts import fill, join_pieces
from rerank_plus.evaluation.memory.folding import content_words
from rerank_plus.evaluation.memory.qmsum import Meeting, Query
from rerank_plus.evaluation.memory.views import Piece, Resources


class GoldTurns:
    """The gold turns of a specific query (a ceiling for gold-turn recall)."""

    name = "gold-turns"
    kinds = ("specific",)

    def __init__(self, resources: Resources) -> None:
        self.resources = resources

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        lines = (meeting.turns[i].line for i in query.gold_turns if meeting.turns[i].text)
        return join_pieces(fill(lines, words))


def greedy_order(pieces: list[Piece], reference: str) -> list[Piece]:
    """Pieces in greedy order of ROUGE-1 recall gain against ``reference``; those that add
    nothing are left out."""
    need = content_words(reference)
    words = [content_words(piece.text) for piece in pieces]

    def gain(i: int) -> int:
        return sum(min(count, need[word]) for word, count in words[i].items() if word in need)

    heap = [(-gain(i), pieces[i].words, i) for i in range(len(pieces))]
    heapq.heapify(heap)
    order: list[Piece] = []
    while heap:
        stale, size, i = heapq.heappop(heap)
        fresh = gain(i)
        if fresh == 0:
            if stale == 0:
                break
            continue
        if -fresh != stale:
            heapq.heappush(heap, (-fresh, size, i))
            continue
        order.append(pieces[i])
        need.subtract(Counter({w: min(c, need[w]) for w, c in words[i].items() if w in need}))
        need = +need
    return order


class GreedyOracle:
    """A greedy extractive oracle against the reference answer (a ceiling for answer recall)."""

    name = "oracle"
    kinds = ("general",)

    def __init__(self, resources: Resources) -> None:
        self.resources = resources
        self._orders: dict[str, list[Piece]] = {}

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        if query.id not in self._orders:
            pieces = self.resources.views(meeting).all_sentences
            self._orders = {query.id: greedy_order(pieces, query.answer)}
        return join_pieces(fill((p.text for p in self._orders[query.id]), words))
