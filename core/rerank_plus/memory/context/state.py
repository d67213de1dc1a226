"""What a composition has accepted so far, shared by the item fill and the coverage fill."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from rerank_plus.memory.context.coverage import Coverage
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.retrieve.search import Hit


@dataclass
class Placed:
    """An accepted item and the text shown for it (its sentences new to the context)."""

    hit: Hit
    block: str
    shown: str


@dataclass
class FillState:
    """What the fill has accepted so far, across blocks and passes."""

    accepted: list[Placed] = field(default_factory=list)
    placed_ids: set[str] = field(default_factory=set)
    shown: set[str] = field(default_factory=set)
    #: the accepted quotes by message index (what a new quote's stretch reads)
    quotes: dict[int, MemoryItem] = field(default_factory=dict)
    opened: set[str] = field(default_factory=set)
    #: the terms of what is shown (read by a coverage fill only)
    covered: set[str] = field(default_factory=set)
    sections: set[str] = field(default_factory=set)
    #: the timeline places of what a coverage fill showed
    places: list[float] = field(default_factory=list)
    #: per coverage block, the allowance its last fill left unused
    coverage_left: dict[str, float] = field(default_factory=dict)
    #: the dynamic cutoff (a share of the block's best score) and the ids it passes (what the
    #: drill-down kept)
    min_relevance: float = 0.0
    drilled: Collection[str] = frozenset()
    #: a coverage fill's reading of items (an item fill keeps the terms it shows)
    coverage: Coverage | None = None
