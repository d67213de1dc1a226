"""Regions: windows ranked by their own score, their best message's, and their neighbours'."""

from __future__ import annotations

from rerank_plus.memory import Memory, MemoryItem
from rerank_plus.memory.retrieve.locate import rank_regions
from rerank_plus.memory.retrieve.search import Hit


def memory(windows: int = 6, per_window: int = 2) -> Memory:
    messages = [MemoryItem(f"m{n}", 0, n, f"message {n}") for n in range(windows * per_window)]
    summaries = [
        MemoryItem(
            f"w{w}",
            1,
            w,
            f"window {w}",
            covers=tuple(f"m{w * per_window + k}" for k in range(per_window)),
        )
        for w in range(windows)
    ]
    return Memory([*messages, *summaries])


def hits(memory: Memory, scores: dict[str, float]) -> list[Hit]:
    """Hits in the light stage's order: best score first, ties in the given order."""
    ranked = sorted(scores.items(), key=lambda pair: -pair[1])
    return [Hit(memory.get(item_id), score) for item_id, score in ranked]


def window_of(memory: Memory) -> dict[str, MemoryItem]:
    return {cover: window for window in memory.level(1) for cover in window.covers}


def order(memory: Memory, windows: dict, messages: dict, weight: float = 0.0) -> list[str]:
    regions = rank_regions(hits(memory, windows), hits(memory, messages), window_of(memory), weight)
    return [hit.item.id for hit in regions]


def test_the_window_of_the_best_message_can_beat_a_better_summary() -> None:
    mem = memory()
    windows = {"w0": 0.9, "w1": 0.6, "w2": 0.5, "w3": 0.5, "w4": 0.5, "w5": 0.4}
    messages = {"m3": 0.95, "m0": 0.3, "m5": 0.3, "m7": 0.3, "m9": 0.3}  # m3 is under w1
    assert order(mem, windows, messages)[0] == "w1"
    # without message evidence the window's own score decides
    assert order(mem, windows, {})[0] == "w0"


def test_neighbours_lift_a_window_inside_a_relevant_stretch() -> None:
    mem = memory()
    windows = {"w0": 0.8, "w2": 0.7, "w3": 0.8, "w4": 0.7, "w5": 0.1, "w1": 0.1}
    assert order(mem, windows, {})[:2] == ["w0", "w3"]  # equal: the light stage's order
    assert order(mem, windows, {}, weight=0.25)[0] == "w3"  # between w2 and w4


def test_windows_only_messages_found_are_ranked_too_and_nothing_is_lost() -> None:
    mem = memory()
    windows = {"w0": 0.9, "w1": 0.5}
    messages = {"m9": 0.8, "m1": 0.2}  # w4 holds m9, and no window search found it
    found = order(mem, windows, messages)
    assert sorted(found) == ["w0", "w1", "w4"]
    assert order(mem, {}, {}) == []


def test_region_hits_keep_the_window_cosine() -> None:
    mem = memory()
    regions = rank_regions(
        [Hit(mem.get("w0"), 0.5, dense=0.42)], [Hit(mem.get("m11"), 0.9)], window_of(mem), 0.25
    )
    assert {hit.item.id: hit.dense for hit in regions} == {"w0": 0.42, "w5": None}


def test_the_window_with_the_sharpest_hit_outranks_the_middle_of_its_stretch() -> None:
    """The better neighbour lifts a window, not both: with both, the middle of a stretch on
    one subject outranked the window holding the best message, and the first window (one
    neighbour) lost to the second."""
    mem = memory()
    windows = {"w2": 0.9, "w3": 0.9, "w4": 0.9, "w1": 0.1, "w0": 0.1, "w5": 0.1}
    messages = {"m4": 0.9, "m6": 0.85, "m8": 0.5}  # m4 is under w2, m6 under w3
    assert order(mem, windows, messages, weight=0.25)[0] == "w2"
    edge = {"w0": 0.9, "w1": 0.8, "w2": 0.8, "w3": 0.2, "w4": 0.1, "w5": 0.1}
    assert order(mem, edge, {}, weight=0.25)[0] == "w0"
    last = {"w5": 0.9, "w4": 0.8, "w3": 0.8, "w2": 0.2, "w1": 0.1, "w0": 0.1}
    assert order(mem, last, {}, weight=0.25)[0] == "w5"
