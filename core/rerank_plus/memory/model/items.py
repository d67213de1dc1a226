"""One entry of a hierarchical memory: a raw message (level 0) or a summary of lower items.

A memory is a tree read from the bottom: level 0 holds the raw messages in order, level 1 the
summaries of windows of messages, level 2 the summaries of level-1 summaries, and so on. Each
summary names the ids of the items it ``covers`` (one level down), which is what lets a retriever
start from a summary and drill down into exactly the messages behind it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

#: The entity group for names no extractor could type (people, places, products, ...).
OTHER_ENTITIES = "others"

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """A raw message or a summary, as a retriever and a context read it.

    ``index`` is the item's position in its level (0, 1, 2, ... in time order); ``covers`` the
    ids of the items one level down that it summarizes (empty for a raw message). ``time`` is
    when the message was said (for a summary: its first covered message), ``end_time`` the last
    covered message's time. ``entities`` maps a group ("people", "places", ...,
    :data:`OTHER_ENTITIES`) to names; ``signals`` holds what builders derived (timeline
    anchors, themes); ``extras`` what they want kept (e.g. what a summary omitted).

    >>> MemoryItem(id="m0", level=0, index=0, text="Let's meet at 10.").char_count
    17
    """

    id: str
    level: int
    index: int
    text: str
    covers: tuple[str, ...] = ()
    time: datetime | None = None
    end_time: datetime | None = None
    speaker: str | None = None
    source: str | None = None
    tags: tuple[str, ...] = ()
    entities: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: _EMPTY)
    signals: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    extras: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    embedding: tuple[float, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def char_count(self) -> int:
        return len(self.text)

    @property
    def is_summary(self) -> bool:
        return self.level > 0

    @property
    def entity_names(self) -> tuple[str, ...]:
        """Every entity name of every group, in group order, without repeats."""
        return tuple(dict.fromkeys(name for names in self.entities.values() for name in names))

    def label(self) -> str:
        """``L0`` for raw messages, ``L1``, ``L2``, ... for summaries: what profiles and
        headers call a level."""
        return f"L{self.level}"
