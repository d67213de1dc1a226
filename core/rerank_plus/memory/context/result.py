"""What a memory retrieval hands back: the composed context, its items, and why.

A :class:`MemoryContext` is meant to be pasted into a prompt as is (``text``), read by code
(``items``, each with its block and score), and audited (``trace``, ``guidance``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.trace import Trace


@dataclass(frozen=True, slots=True)
class ContextItem:
    """One memory item placed in a context: which block holds it, the score that earned it, and
    what the context shows of it (``shown``: its text, less the sentences an item before it
    already showed, or that a coverage fill did not pick, elided as ``…``)."""

    item: MemoryItem
    score: float
    block: str
    shown: str = ""

    @property
    def id(self) -> str:
        return self.item.id

    @property
    def text(self) -> str:
        return self.item.text

    @property
    def level(self) -> int:
        return self.item.level

    @property
    def index(self) -> int:
        return self.item.index

    @property
    def time(self) -> datetime | None:
        return self.item.time

    @property
    def speaker(self) -> str | None:
        return self.item.speaker

    def metadata(self) -> dict[str, Any]:
        """Flat, JSON-safe fields for framework nodes and documents."""
        return {
            "memory_id": self.item.id,
            "level": self.item.level,
            "index": self.item.index,
            "time": self.item.time.isoformat() if self.item.time else None,
            "speaker": self.item.speaker,
            "source": self.item.source,
            "block": self.block,
            "score": self.score,
            "elided": self.shown != self.item.text.strip(),
        }


@dataclass(frozen=True, slots=True)
class Guidance:
    """What an answer built on this context rests on, for the prompt or the caller.

    ``basis`` is "summaries", "verbatim quotes" or "summaries and verbatim quotes";
    ``drillable`` lists summary ids whose covered messages were not shown (ask again with a
    more precise question, or a larger budget, to see them); ``notes`` says what was missing
    (no times for a recent question, a failed summarizer, an empty memory).
    """

    basis: str
    summaries: int
    quotes: int
    drillable: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "basis": self.basis,
            "summaries": self.summaries,
            "quotes": self.quotes,
            "drillable": list(self.drillable),
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        parts = [f"Answer from {self.basis} ({self.summaries} summaries, {self.quotes} quotes)."]
        if self.drillable:
            parts.append(
                f"Summaries {', '.join(self.drillable[:5])} cover messages not shown: "
                "quote them only after a more precise question."
            )
        parts.extend(self.notes)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class MemoryContext:
    """The composed context for one query (see :class:`~rerank_plus.memory.MemoryRetriever`)."""

    text: str
    items: tuple[ContextItem, ...]
    intent: str
    tokens: int
    trace: Trace
    guidance: Guidance
    blocks: Mapping[str, tuple[ContextItem, ...]] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text
