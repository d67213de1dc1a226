"""Windows of messages (level 1): cut at time gaps, at a size limit and at topic shifts.

The rule is causal, one message at a time, looking only at the open window: that is what lets
``Memory.add`` extend or close the last window exactly as a build from scratch would have.
A topic shift is a relative drop: an informative message (5+ words, 3+ distinct terms) whose
cosine with the window's centroid falls below ``shift_ratio`` times the mean of the cosines
the window's own informative messages had when they arrived. Being relative, it needs no
threshold per model: embeddings and term weights use the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from rerank_plus.memory.build.requests import Vector
from rerank_plus.memory.build.settings import BuildSettings
from rerank_plus.memory.build.vectors import add_into, cosine

#: Why a window was opened (recorded in the window's ``signals["opened_by"]``).
START, TIME_GAP, SIZE, TOPIC_SHIFT = "start", "time gap", "size", "topic shift"

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
    """The window being filled: its size, last time, centroid and arrival similarities."""

    start: int
    opened_by: str = START
    size: int = 0
    words: int = 0
    last_time: datetime | None = None
    centroid: Vector | None = None
    similarities: list[float] = field(default_factory=list)

    def cut_reason(self, turn: Turn, settings: BuildSettings) -> str | None:
        """Why ``turn`` opens a new window, or None if it joins this one."""
        if not self.size:
            return None
        known = turn.time is not None and self.last_time is not None
        if known and turn.time - self.last_time > settings.time_gap:  # type: ignore[operator]
            return TIME_GAP
        if self.words + turn.words > settings.window_words:
            return SIZE
        if (
            turn.informative
            and turn.vector is not None
            and self.centroid is not None
            and self.similarities
            and self.words >= settings.min_window_words
        ):
            expected = sum(self.similarities) / len(self.similarities)
            if cosine(turn.vector, self.centroid) < settings.shift_ratio * expected:
                return TOPIC_SHIFT
        return None

    def add(self, turn: Turn) -> None:
        self.size += 1
        self.words += turn.words
        if turn.time is not None:
            self.last_time = turn.time
        if turn.informative and turn.vector is not None:
            if self.centroid is not None:
                self.similarities.append(cosine(turn.vector, self.centroid))
            self.centroid = add_into(self.centroid, turn.vector)


def segment(turns: list[Turn], settings: BuildSettings) -> tuple[list[OpenWindow], OpenWindow]:
    """The closed windows and the last (still open) one; a window spans
    ``turns[start:start + size]``. No turns give no closed window and an empty open one."""
    closed: list[OpenWindow] = []
    window = OpenWindow(start=0)
    for position, turn in enumerate(turns):
        reason = window.cut_reason(turn, settings)
        if reason is not None:
            closed.append(window)
            window = OpenWindow(start=position, opened_by=reason)
        window.add(turn)
    return closed, window
