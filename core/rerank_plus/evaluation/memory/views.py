"""A meeting cut the ways the baselines read it: windows of turns, sentences, turn lines.

Cut once per meeting and shared by every method of a run (:class:`MeetingViews`), like the
embeddings of those pieces (:class:`Resources`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from rerank_plus.evaluation.memory.folding import MIN_SENTENCE_WORDS, fold
from rerank_plus.evaluation.memory.qmsum import Meeting
from rerank_plus.memory.model.sentences import split_sentences, word_count

#: A flat window grows turn by turn until it holds at least this many words.
WINDOW_WORDS = 150


@dataclass(frozen=True, slots=True)
class Piece:
    """A unit a baseline can put into a context: its text and the turns it comes from."""

    text: str
    first_turn: int
    last_turn: int

    @property
    def words(self) -> int:
        return word_count(self.text)


def windows(meeting: Meeting, size: int = WINDOW_WORDS) -> list[Piece]:
    """Consecutive turns (``Speaker: text`` lines) grouped until a group has ``size`` words;
    the last group keeps what is left."""
    pieces: list[Piece] = []
    lines: list[str] = []
    first = words = 0
    for turn in meeting.turns:
        if not turn.text.strip():
            continue
        if not lines:
            first = turn.index
        lines.append(turn.line)
        words += word_count(turn.line)
        if words >= size:
            pieces.append(Piece("\n".join(lines), first, turn.index))
            lines, words = [], 0
    if lines:
        pieces.append(Piece("\n".join(lines), first, meeting.turns[-1].index))
    return pieces


def turn_pieces(meeting: Meeting) -> list[Piece]:
    """One piece per non-empty turn, as its ``Speaker: text`` line."""
    return [Piece(t.line, t.index, t.index) for t in meeting.turns if t.text.strip()]


def sentence_pieces(meeting: Meeting, min_words: int = 1) -> list[Piece]:
    """Every sentence of every turn (speaker left out) with at least ``min_words`` folded
    words, in meeting order."""
    return [
        Piece(sentence, turn.index, turn.index)
        for turn in meeting.turns
        for sentence in split_sentences(turn.text)
        if len(fold(sentence).split()) >= min_words
    ]


class MeetingViews:
    """One meeting's windows, turns and sentences, cut on first use."""

    def __init__(self, meeting: Meeting) -> None:
        self.meeting = meeting

    @cached_property
    def windows(self) -> list[Piece]:
        return windows(self.meeting)

    @cached_property
    def turns(self) -> list[Piece]:
        return turn_pieces(self.meeting)

    @cached_property
    def sentences(self) -> list[Piece]:
        """Sentences long enough to say something (the judges' 5+ words)."""
        return sentence_pieces(self.meeting, MIN_SENTENCE_WORDS)

    @cached_property
    def all_sentences(self) -> list[Piece]:
        return sentence_pieces(self.meeting)


Embed = Callable[[Sequence[str]], np.ndarray]


class Resources:
    """What the methods of one run share: an embedding function (texts -> unit rows, e.g. an
    :class:`~.embeddings.EmbeddingCache`; None in a lexical-only run), each meeting's views,
    and each meeting's memory (built once, for the policy and the collapsed tree alike)."""

    def __init__(
        self,
        embed: Embed | None,
        *,
        build_memory: Callable[[Meeting], Any] | None = None,
    ) -> None:
        self.embed = embed
        self._build_memory = build_memory
        self._views: dict[str, MeetingViews] = {}
        self._memories: dict[str, Any] = {}

    def views(self, meeting: Meeting) -> MeetingViews:
        if meeting.name not in self._views:
            self._views = {meeting.name: MeetingViews(meeting)}  # one meeting at a time
        return self._views[meeting.name]

    def prepare(self, meeting: Meeting) -> None:
        """Embed the meeting's queries in one batch, so that no method's latency pays for
        embedding a query the first time."""
        if self.embed is not None:
            self.embed([query.text for query in meeting.queries])

    def rows(self, texts: Sequence[str]) -> np.ndarray:
        """The texts' embeddings (unit rows)."""
        if self.embed is None:
            raise ValueError("a lexical-only run has no embeddings; leave dense methods out.")
        return self.embed(texts)

    def similarities(self, query: str, texts: Sequence[str]) -> np.ndarray:
        """Cosine of the query with each text (embeddings are unit rows)."""
        if not texts:
            return np.zeros(0, dtype=np.float32)
        rows = self.rows(list(texts))
        return rows @ self.rows([query])[0]

    def memory(self, meeting: Meeting) -> Any:
        """The meeting's :class:`~rerank_plus.memory.Memory`, built from its turns once."""
        if self._build_memory is None:
            raise ValueError(
                "this run has no memory builder; create Resources(build_memory=...) to run "
                "the policy or the collapsed tree."
            )
        if meeting.name not in self._memories:
            self._memories = {meeting.name: self._build_memory(meeting)}
        return self._memories[meeting.name]


def dense_order(resources: Resources, query: str, pieces: Sequence[Piece]) -> list[Piece]:
    """Pieces by cosine with the query, best first (ties in meeting order)."""
    scores = resources.similarities(query, [piece.text for piece in pieces])
    return [pieces[i] for i in np.argsort(-scores, kind="stable")]
