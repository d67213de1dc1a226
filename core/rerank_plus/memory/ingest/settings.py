"""The knobs of a build, checked once; a ``MemoryWriter`` keeps them, so its adds cut windows
and size summaries the same way the build did."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

#: What ``build_memory`` does when a summarizer fails: raise, or keep the extractive summary.
SUMMARY_ERROR_MODES = ("raise", "extractive")


@dataclass(frozen=True, slots=True)
class BuildSettings:
    """How messages become windows and windows become levels.

    A pause longer than ``session_gap`` (four hours: longer than a lunch break or any pause
    inside one sitting, shorter than a night) starts a new *session*; windows never cross one,
    and each window's ``signals["session"]`` numbers its session (0 first; absent for a window
    whose messages have no times). Messages without times have no sessions; a message dated
    before the one before it does not start one (gaps are measured forward).

    Windows (level 1) close before ``window_words`` words of messages would be exceeded, at a
    time gap longer than ``time_gap``, at a new session, and, once they hold
    ``min_window_words`` (None: 48% of ``window_words``, 120 of the default 250), at a topic
    shift: an informative message whose similarity to the window so far falls below
    ``shift_ratio`` times the window's own mean similarity (a relative drop, so the same rule
    works for embeddings and for term vectors). Each higher level groups ``fan_out``
    consecutive items of the level below, until a level has at most ``top_items`` items.
    A summary gets ``summary_ratio`` of the words of the messages it covers, kept between
    ``summary_min_words`` and ``summary_max_words``.
    """

    window_words: int = 250
    min_window_words: int | None = None
    time_gap: timedelta = timedelta(minutes=30)
    session_gap: timedelta = timedelta(hours=4)
    shift_ratio: float = 0.5
    fan_out: int = 4
    top_items: int = 4
    summary_ratio: float = 0.3
    summary_min_words: int = 20
    summary_max_words: int = 100
    on_summary_error: str = "raise"
    extract_entities: bool = True

    def __post_init__(self) -> None:
        if self.min_window_words is None and isinstance(self.window_words, int):
            object.__setattr__(self, "min_window_words", self.window_words * 12 // 25)
        for name in (
            "window_words",
            "fan_out",
            "top_items",
            "summary_min_words",
            "summary_max_words",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an int >= 1, got {value!r}.")
        if self.fan_out < 2:
            raise ValueError(
                f"fan_out must be at least 2 (each level must shrink), got {self.fan_out}."
            )
        if not isinstance(self.min_window_words, int) or not (
            0 <= self.min_window_words <= self.window_words
        ):
            raise ValueError(
                f"min_window_words must be an int between 0 and window_words "
                f"({self.window_words}), got {self.min_window_words!r}."
            )
        if self.summary_min_words > self.summary_max_words:
            raise ValueError(
                f"summary_min_words ({self.summary_min_words}) is above summary_max_words "
                f"({self.summary_max_words})."
            )
        for name, example in (("time_gap", "minutes=30"), ("session_gap", "hours=4")):
            value = getattr(self, name)
            if not isinstance(value, timedelta) or value <= timedelta(0):
                raise ValueError(
                    f"{name} must be a positive timedelta, e.g. timedelta({example}), got "
                    f"{value!r}."
                )
        for name in ("shift_ratio", "summary_ratio"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{name} must be a number >= 0, got {value!r}.")
        if self.on_summary_error not in SUMMARY_ERROR_MODES:
            raise ValueError(
                f"on_summary_error must be one of {', '.join(SUMMARY_ERROR_MODES)}, got "
                f"{self.on_summary_error!r}."
            )

    @property
    def window_minimum(self) -> int:
        """``min_window_words`` as resolved (never None after construction)."""
        return self.min_window_words or 0

    def summary_budget(self, source_words: int) -> int:
        """Words a summary of ``source_words`` words of messages may take."""
        wanted = round(self.summary_ratio * source_words)
        return max(self.summary_min_words, min(self.summary_max_words, wanted))
