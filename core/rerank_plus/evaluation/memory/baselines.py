"""Flat baselines: what a context holds when nothing knows about levels.

Each is a method ``context(meeting, query, words) -> str``: pieces best first, separated by
blank lines, filled to ``words`` words (the last piece cut at a word boundary; see
:func:`~.contexts.fill`). Turn-based pieces carry the speaker (``Speaker: text``) like a
transcript chunk would; sentence pieces do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from rerank_plus.compose.fusion import FusionReranker
from rerank_plus.evaluation.memory.contexts import fill, join_pieces
from rerank_plus.evaluation.memory.qmsum import Meeting, Query
from rerank_plus.evaluation.memory.views import Piece, Resources, dense_order
from rerank_plus.scoring.bm25 import BM25Reranker


class DenseWindows:
    """Windows of ~150 words of consecutive turns by embedding similarity to the query."""

    name = "dense-windows"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources

    def prepare(self, meeting: Meeting) -> None:
        """Embed the meeting's windows (timed apart from the queries)."""
        self.resources.rows([p.text for p in self.resources.views(meeting).windows])

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        pieces = dense_order(self.resources, query.text, self.resources.views(meeting).windows)
        return join_pieces(fill((p.text for p in pieces), words))


class DenseTurns:
    """Single turns by embedding similarity to the query: each turn embedded as said (the
    text a memory's raw messages hold, so a run embeds it once), shown with its speaker."""

    name = "dense-turns"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources

    def prepare(self, meeting: Meeting) -> None:
        """Embed the meeting's turns (timed apart from the queries)."""
        self.resources.rows(said(self.resources, meeting))

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        pieces = self.resources.views(meeting).turns
        scores = self.resources.similarities(query.text, said(self.resources, meeting))
        ranked = (pieces[i].text for i in np.argsort(-scores, kind="stable"))
        return join_pieces(fill(ranked, words))


class HybridTurns:
    """Single turns ranked by BM25 and by embedding similarity, fused by reciprocal rank (as
    :class:`HybridWindows`), each read as said and shown with its speaker (and time): flat
    hybrid search over a chat's messages, which finds the one message that answers "when did
    ..." wherever it is."""

    name = "hybrid-turns"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources
        self.reranker = FusionReranker(BM25Reranker(), method="rrf")

    def prepare(self, meeting: Meeting) -> None:
        """Embed the meeting's turns (timed apart from the queries)."""
        self.resources.rows(said(self.resources, meeting))

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        pieces = self.resources.views(meeting).turns
        texts = said(self.resources, meeting)
        dense = self.resources.similarities(query.text, texts)
        ranked = self.reranker.rank(query.text, texts, first_stage_scores=dense.tolist())
        return join_pieces(fill((pieces[r.index].text for r in ranked), words))


class LexicalTurns:
    """Single turns ranked by BM25 alone, shown as :class:`HybridTurns` shows them: its
    lexical half, for a run without an embedding model."""

    name = "bm25-turns"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources
        self.reranker = BM25Reranker()

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        pieces = self.resources.views(meeting).turns
        ranked = self.reranker.rank(query.text, said(self.resources, meeting))
        return join_pieces(fill((pieces[r.index].text for r in ranked), words))


def said(resources: Resources, meeting: Meeting) -> list[str]:
    """Each non-empty turn's text as said (no speaker, no time), in the order of its pieces."""
    return [meeting.turns[p.first_turn].text for p in resources.views(meeting).turns]


class HybridWindows:
    """The same windows ranked by BM25 and by embedding similarity, fused by reciprocal rank
    (the project's :class:`FusionReranker`, ``method="rrf"``: k=60, equal weights)."""

    name = "hybrid-windows"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources
        self.reranker = FusionReranker(BM25Reranker(), method="rrf")

    def prepare(self, meeting: Meeting) -> None:
        """Embed the meeting's windows (timed apart from the queries)."""
        self.resources.rows([p.text for p in self.resources.views(meeting).windows])

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        texts = [piece.text for piece in self.resources.views(meeting).windows]
        dense = self.resources.similarities(query.text, texts)
        ranked = self.reranker.rank(query.text, texts, first_stage_scores=dense.tolist())
        return join_pieces(fill((texts[r.index] for r in ranked), words))


class LexicalWindows:
    """The same windows ranked by BM25 alone (the project's :class:`BM25Reranker`, whose
    analysis reads every language it detects): the hybrid's lexical half, for memories in a
    language the embedding model does not read, where the dense half is noise."""

    name = "bm25-windows"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources
        self.reranker = BM25Reranker()

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        texts = [piece.text for piece in self.resources.views(meeting).windows]
        ranked = self.reranker.rank(query.text, texts)
        return join_pieces(fill((texts[r.index] for r in ranked), words))


def spread(count: int, total: int) -> list[int]:
    """``count`` indices spread evenly over ``range(total)``, each in the middle of its
    stretch.

    >>> spread(3, 9)
    [1, 4, 7]
    """
    return [(2 * i + 1) * total // (2 * count) for i in range(count)]


@lru_cache(maxsize=256)
def _spread_fit(sizes: tuple[int, ...], words: int) -> tuple[int, ...]:
    total = len(sizes)
    if not total:
        return ()
    mean = sum(sizes) / total
    count = min(total, max(1, round(words / mean)))

    def size(k: int) -> int:
        return sum(sizes[i] for i in spread(k, total))

    while count > 1 and size(count) > words:
        count -= 1
    while count < total and size(count + 1) <= words:
        count += 1
    return tuple(spread(count, total))


def evenly_spaced(pieces: Sequence[Piece], words: int) -> list[Piece]:
    """As many evenly spaced pieces as fit in ``words`` (in meeting order), then the others
    in meeting order, for :func:`fill` to top up."""
    chosen = _spread_fit(tuple(piece.words for piece in pieces), words)
    picked = set(chosen)
    return [pieces[i] for i in chosen] + [p for i, p in enumerate(pieces) if i not in picked]


class EvenWindows:
    """Windows evenly spaced over the meeting, whatever the query: breadth alone."""

    name = "even-windows"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        pieces = evenly_spaced(self.resources.views(meeting).windows, words)
        return join_pieces(fill((p.text for p in pieces), words))


class EvenSentences:
    """Sentences of 5+ words evenly spaced over the whole meeting, whatever the query: it
    nearly saturates topic coverage at any budget, so breadth alone is not the goal."""

    name = "even-sentences"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        pieces = evenly_spaced(self.resources.views(meeting).sentences, words)
        return join_pieces(fill((p.text for p in pieces), words))


class Lead:
    """The meeting's first words, turn by turn."""

    name = "lead"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        return join_pieces(fill((p.text for p in self.resources.views(meeting).turns), words))
