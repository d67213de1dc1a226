"""How much a term says what a conversation is about (read by a broad question's coverage
fill, :mod:`rerank_plus.memory.context.coverage`)."""

from __future__ import annotations

from collections.abc import Mapping
from math import log1p


def salience(message_counts: Mapping[str, int]) -> dict[str, float]:
    """Each term's weight from the number of messages that use it: what is said again and again
    is what the conversation is about; a damped count, so the most frequent terms do not
    outweigh everything else.

    >>> salience({"budget": 9, "lyon": 1})
    {'budget': 2.302585092994046, 'lyon': 0.6931471805599453}
    """
    return {term: log1p(count) for term, count in message_counts.items()}
