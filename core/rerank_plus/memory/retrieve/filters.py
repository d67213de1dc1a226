"""Which items a question lets through, per level: its explicit time window (a time of day
without a date read on the latest day with messages then), or, for a recent question over a
memory without times, the latest quarter of each level."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from rerank_plus.memory.index.memory_index import MemoryIndex
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.query import QueryAnalysis
from rerank_plus.memory.query.time_window import TimeWindow
from rerank_plus.memory.retrieve.clock_days import ClockDays, clock_days, guidance_notes
from rerank_plus.memory.retrieve.search import Allowed
from rerank_plus.memory.trace import Trace

Filter = Callable[[int], Allowed | None]


def allowed_items(
    analysis: QueryAnalysis,
    intent: str,
    index: MemoryIndex,
    notes: list[str],
    trace: Trace,
    *,
    now: datetime,
) -> Filter:
    """Per level, which items the query's explicit time window (or recency) allows; None
    lets everything through. A time of day without a date is read on the latest day before
    ``now`` with messages then (:mod:`.clock_days`)."""
    window = analysis.window
    if window is not None and window.explicit:
        if not index.timed:
            notes.append("The memory has no times: the time window was not applied.")
            trace.step("time_window", applied=False, reason="no times in the memory")
            return lambda level: None
        found = clock_days(window, index.memory.messages, now)
        if found is not None:
            return _on_clock_day(window, found, index.memory, notes, trace)
        start, end = window.start, window.end

        def inside(item: MemoryItem) -> bool:
            first = item.time
            last = item.end_time or item.time
            if first is None or last is None:
                return False
            # the window's end is excluded, as the query analysis defines it
            return (start is None or last >= start) and (end is None or first < end)

        trace.step("time_window", applied=True, start=start, end=end, levels=[0, 1])
        return lambda level: inside if level <= 1 else None
    if intent == "recent" and not index.timed:
        notes.append("The memory has no times: recency is read from the order of messages.")
        cut = latest_positions(index.memory)
        trace.step("recency", by="position", latest=cut)
        return lambda level: lambda item: item.index >= cut.get(item.level, 0)
    return lambda level: None


def _on_clock_day(
    window: TimeWindow, found: ClockDays, memory: Memory, notes: list[str], trace: Trace
) -> Filter:
    """The messages sent at the window's time of day on the day ``found`` reads, and the
    windows that hold one."""
    ids = found.ids
    windows = frozenset(w.id for w in memory.level(1) if not ids.isdisjoint(w.covers))
    notes.extend(guidance_notes(window, found))
    trace.step(
        "time_window",
        applied=True,
        any_day=True,
        day=found.day,
        other_days=[day for day, _ in found.other_days],
        messages=sorted(ids),
        levels=[0, 1],
    )
    allowed = {0: lambda item: item.id in ids, 1: lambda item: item.id in windows}
    return lambda level: allowed.get(level)


def latest_positions(memory: Memory) -> dict[int, int]:
    """The first index of the latest quarter of each level (at least one item)."""
    return {
        level: max(0, len(memory.level(level)) - max(1, len(memory.level(level)) // 4))
        for level in range(memory.depth)
    }
