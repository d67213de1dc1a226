"""One level of the index: its items, their embedding rows and term postings, and the band of
the hierarchy it is (what the light stage's boosts read)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory


def band(level: int, depth: int) -> str:
    """What part of the hierarchy a level is: ``messages`` (L0), ``windows`` (L1), ``top`` (the
    highest summary level above L1) or ``upper`` (in between)."""
    if level == 0:
        return "messages"
    if level == 1:
        return "windows"
    return "top" if level == depth - 1 else "upper"


@dataclass
class LevelIndex:
    """One level's items, embeddings (unit rows, or None), and term -> item positions."""

    items: tuple[MemoryItem, ...]
    vectors: np.ndarray | None
    postings: dict[str, np.ndarray]
    position: dict[str, int]


def level_tables(
    memory: Memory,
    vectors: np.ndarray | None,
    postings: Callable[[int, Sequence[MemoryItem]], dict[str, np.ndarray]],
) -> list[LevelIndex]:
    """Every level of ``memory``: its rows of ``vectors`` (one row per item, level by level;
    each level's block a view of it) and the ``postings`` given for the level and its items."""
    levels: list[LevelIndex] = []
    start = 0
    for level in range(memory.depth):
        row = memory.level(level)
        block = None if vectors is None else vectors[start : start + len(row)]
        levels.append(
            LevelIndex(row, block, postings(level, row), {item.id: i for i, item in enumerate(row)})
        )
        start += len(row)
    return levels
