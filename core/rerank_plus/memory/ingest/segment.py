"""Windows of messages (level 1): cut at sessions, time gaps, a size limit and topic shifts.

The rule is causal, one message at a time, looking only at the open window: that is what lets
``MemoryWriter.add`` extend or close the last window exactly as a build from scratch would have.
A topic shift is a relative drop: an informative message (5+ words, 3+ distinct terms) whose
cosine with the window's centroid falls below ``shift_ratio`` times the mean of the cosines
the window's own informative messages had when they arrived. Being relative, it needs no
threshold per model: embeddings and term weights use the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from rerank_plus.memory.ingest.requests import Vector
from rerank_plus.memory.ingest.settings import BuildSettings
from rerank_plus.memory.ingest.vectors import add_into, cosine

#: Why a window was opened (recorded in the window's ``signals["opened_by"]``).
START, SESSION, TIME_GAP, SIZE, TOPIC_SHIFT = "start", "session", "time gap", "size", "topic shift"

#: A message must have this many words and distinct terms to count as topic evidence.
INFORMATIVE_WORDS = 5
INFORMATIVE_TERMS = 3


@dataclass(frozen=True, slots=True)
class Turn:
    """What segmentation reads of one message."""

    words: int
    time: datetime | None
    vector: Vector | None
    informative: bool


@dataclass(slots=True)
class OpenWindow:
    """The window being filled: its session (see :class:`.BuildSettings`), turns, size, last
    time, centroid and the similarity each informative turn had with the centroid when it
    arrived (None for the others)."""

    start: int
    opened_by: str = START
    session: int = 0
    turns: list[Turn] = field(default_factory=list)
    arrivals: list[float | None] = field(default_factory=list)
    words: int = 0
    last_time: datetime | None = None
    centroid: Vector | None = None

    @property
    def size(self) -> int:
        return len(self.turns)

    @property
    def timed_session(self) -> int | None:
        """The window's session, or None when none of its messages has a time."""
        return self.session if self.last_time is not None else None

    def _expected(self) -> float | None:
        known = [value for value in self.arrivals if value is not None]
        return sum(known) / len(known) if known else None

    def cut_reason(self, turn: Turn, settings: BuildSettings) -> str | None:
        """Why ``turn`` opens a new window, or None if it joins this one."""
        if not self.turns:
            return None
        if turn.time is not None and self.last_time is not None:
            gap = turn.time - self.last_time
            if gap > settings.session_gap:
                return SESSION
            if gap > settings.time_gap:
                return TIME_GAP
        if self.words + turn.words > settings.window_words:
            return SIZE
        expected = self._expected()
        if (
            turn.informative
            and turn.vector is not None
            and self.centroid is not None
            and expected is not None
            and self.words >= settings.window_minimum
            and cosine(turn.vector, self.centroid) < settings.shift_ratio * expected
        ):
            return TOPIC_SHIFT
        return None

    def add(self, turn: Turn) -> None:
        arrival = None
        if turn.informative and turn.vector is not None:
            if self.centroid is not None:
                arrival = cosine(turn.vector, self.centroid)
            self.centroid = add_into(self.centroid, turn.vector)
        self.turns.append(turn)
        self.arrivals.append(arrival)
        self.words += turn.words
        if turn.time is not None:
            self.last_time = turn.time

    def best_split(self, settings: BuildSettings) -> int | None:
        """Where a full window is best cut: the informative turn least like the window when
        it arrived, among those after ``min_window_words`` words whose similarity was below
        the window's mean, and those after half of that whose similarity was a shift
        (below ``shift_ratio`` times the mean): a shift the immediate rule could not take,
        because the window was still small, is found here."""
        expected = self._expected()
        if expected is None:
            return None
        words, best, lowest = 0, None, expected
        for position, turn in enumerate(self.turns):
            if words >= settings.window_minimum:
                bound = expected
            elif 2 * words >= settings.window_minimum:
                bound = settings.shift_ratio * expected
            else:
                bound = float("-inf")
            arrival = self.arrivals[position]
            if position and arrival is not None and arrival < min(lowest, bound):
                best, lowest = position, arrival
            words += turn.words
        return best

    def split(self, position: int) -> tuple[OpenWindow, OpenWindow]:
        """The window's head (closed) and its tail, a new window opened by a topic shift."""
        head = OpenWindow(self.start, self.opened_by, self.session)
        tail = OpenWindow(self.start + position, TOPIC_SHIFT, self.session)
        for turn in self.turns[:position]:
            head.add(turn)
        for turn in self.turns[position:]:
            tail.add(turn)
        return head, tail


class Segmenter:
    """Turns in, windows out, one turn at a time (the build and ``MemoryWriter.add`` both push).

    A window that would grow past ``window_words`` is cut where its topic drifted most (see
    :meth:`OpenWindow.best_split`), or before the new turn when it never drifted.
    """

    def __init__(self, settings: BuildSettings, window: OpenWindow | None = None) -> None:
        self.settings = settings
        self.window = window or OpenWindow(start=0)

    def push(self, turn: Turn, position: int) -> list[OpenWindow]:
        """Add the turn at ``position``; returns the windows this closed, in order."""
        closed: list[OpenWindow] = []
        reason = self.window.cut_reason(turn, self.settings)
        while reason is not None:
            split = self.window.best_split(self.settings) if reason == SIZE else None
            if split is None:
                closed.append(self.window)
                session = self.window.session + (reason == SESSION)
                self.window = OpenWindow(position, reason, session)
                break
            head, self.window = self.window.split(split)
            closed.append(head)
            reason = self.window.cut_reason(turn, self.settings)
        if not self.window.turns:
            self.window.start = position
        self.window.add(turn)
        return closed
