"""The hierarchy: every item level by level, with cover links both ways, validated once.

Validation names the item and the field at fault, so a hand-written or converted memory can be
fixed from the message alone: duplicate ids, unknown cover ids, a cover at the same or a higher
level (which is also what rules out cycles: covers always point strictly down), a level with a
gap (L2 without L1), indices that are not 0..n-1 in each level.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.items import MemoryItem


def _check_item(item: Any, position: int) -> MemoryItem:
    if not isinstance(item, MemoryItem):
        raise MemoryFormatError(
            f"items[{position}] is {type(item).__name__}, not MemoryItem; build items with "
            "MemoryItem(...) or load them with rerank_plus.memory.load_memory / from_messages."
        )
    if not isinstance(item.id, str) or not item.id:
        raise MemoryFormatError(f"items[{position}].id must be a non-empty str, got {item.id!r}.")
    if not isinstance(item.text, str):
        raise MemoryFormatError(
            f"item {item.id!r}: text must be a str, got {type(item.text).__name__}."
        )
    for name in ("level", "index"):
        value = getattr(item, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise MemoryFormatError(f"item {item.id!r}: {name} must be an int >= 0, got {value!r}.")
    if item.level == 0 and item.covers:
        raise MemoryFormatError(
            f"item {item.id!r}: a raw message (level 0) covers nothing, but covers={item.covers!r}."
        )
    for name in ("time", "end_time"):
        value = getattr(item, name)
        if value is not None and getattr(value, "tzinfo", None) is None:
            raise MemoryFormatError(
                f"item {item.id!r}: {name} must be a timezone-aware datetime, got {value!r}; "
                "read times with rerank_plus.memory.times.parse_time."
            )
    return item


class Memory:
    """Raw messages (level 0) and their summaries (levels 1..k), checked and linked.

    ``items`` lists every item level by level, each level in index order. ``children(id)`` are
    the items a summary covers, ``parents(id)`` the summaries that cover an item.
    :meth:`add` appends a message and updates only the summaries it touches.

    >>> memory = Memory([MemoryItem("m0", 0, 0, "Hi"), MemoryItem("s0", 1, 0, "Greeting",
    ...                  covers=("m0",))])
    >>> [item.id for item in memory.parents("m0")], memory.depth
    (['s0'], 2)
    """

    def __init__(self, items: Iterable[MemoryItem] = ()) -> None:
        self._set_items(list(items))
        self._builder: Any = None

    def _set_items(self, items: list[MemoryItem]) -> None:
        checked = [_check_item(item, position) for position, item in enumerate(items)]
        by_id: dict[str, MemoryItem] = {}
        for item in checked:
            if item.id in by_id:
                raise MemoryFormatError(
                    f"duplicate id {item.id!r} (levels {by_id[item.id].level} and {item.level}); "
                    "every item needs its own id."
                )
            by_id[item.id] = item
        levels: dict[int, list[MemoryItem]] = {}
        for item in checked:
            levels.setdefault(item.level, []).append(item)
        depth = max(levels, default=-1) + 1
        for level in range(depth):
            if level not in levels:
                raise MemoryFormatError(
                    f"level {level} is empty but level {depth - 1} is not; summaries must sit "
                    "one level above what they cover, with no level missing."
                )
        parents: dict[str, list[str]] = {}
        for item in checked:
            for covered in item.covers:
                child = by_id.get(covered)
                if child is None:
                    raise MemoryFormatError(
                        f"item {item.id!r} (level {item.level}): covers unknown id {covered!r}."
                    )
                if child.level >= item.level:
                    raise MemoryFormatError(
                        f"item {item.id!r} (level {item.level}): covers {covered!r} at level "
                        f"{child.level}; a summary covers only items of lower levels."
                    )
                parents.setdefault(covered, []).append(item.id)
        ordered: list[tuple[MemoryItem, ...]] = []
        for level in range(depth):
            row = sorted(levels[level], key=lambda item: item.index)
            for position, item in enumerate(row):
                if item.index != position:
                    raise MemoryFormatError(
                        f"item {item.id!r} (level {level}): index {item.index}, expected "
                        f"{position}; indices of a level run 0..n-1 without gaps or repeats."
                    )
            ordered.append(tuple(row))
        self._by_id = by_id
        self._levels = ordered
        self._parents = {key: tuple(value) for key, value in parents.items()}
        self._items = tuple(item for row in ordered for item in row)
        self.version = getattr(self, "version", -1) + 1

    @property
    def items(self) -> tuple[MemoryItem, ...]:
        return self._items

    @property
    def depth(self) -> int:
        """How many levels: 0 for an empty memory, 1 for messages alone."""
        return len(self._levels)

    def level(self, level: int) -> tuple[MemoryItem, ...]:
        """The items of one level in index order (empty past the top)."""
        return self._levels[level] if 0 <= level < len(self._levels) else ()

    @property
    def messages(self) -> tuple[MemoryItem, ...]:
        return self.level(0)

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[MemoryItem]:
        return iter(self._items)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._by_id

    def get(self, item_id: str) -> MemoryItem:
        try:
            return self._by_id[item_id]
        except KeyError:
            raise KeyError(f"no item with id {item_id!r} in this memory") from None

    def children(self, item_id: str) -> tuple[MemoryItem, ...]:
        """The items ``item_id`` covers, in index order."""
        return tuple(
            sorted((self._by_id[c] for c in self.get(item_id).covers), key=lambda i: i.index)
        )

    def parents(self, item_id: str) -> tuple[MemoryItem, ...]:
        """The summaries that cover ``item_id`` (usually one)."""
        self.get(item_id)
        return tuple(self._by_id[p] for p in self._parents.get(item_id, ()))

    def descendants(self, item_id: str, level: int = 0) -> tuple[MemoryItem, ...]:
        """The items at ``level`` below ``item_id`` (itself if it is at that level), in order."""
        frontier = [self.get(item_id)]
        found: dict[str, MemoryItem] = {}
        while frontier:  # covers may skip levels, so items above ``level`` go on, others stop
            found.update((item.id, item) for item in frontier if item.level == level)
            frontier = [
                c for item in frontier if item.level > level for c in self.children(item.id)
            ]
        return tuple(sorted(found.values(), key=lambda item: item.index))

    def replace(self, items: Iterable[MemoryItem]) -> None:
        """Swap in a new item list (validated whole); what incremental builders call."""
        self._set_items(list(items))

    def add(self, message: Any) -> MemoryItem:
        """Append one message (a str, a mapping, or a level-0 :class:`MemoryItem`) and update
        the summaries it touches; returns the stored message."""
        from rerank_plus.memory.build.incremental import append_message

        return append_message(self, message)

    def to_dict(self) -> dict[str, Any]:
        """The documented "unified artifacts" shape (see :mod:`rerank_plus.memory.artifacts`)."""
        from rerank_plus.memory.artifacts import memory_to_dict

        return memory_to_dict(self)

    def __repr__(self) -> str:
        sizes = ", ".join(f"L{level}: {len(row)}" for level, row in enumerate(self._levels))
        return f"Memory({sizes or 'empty'})"
