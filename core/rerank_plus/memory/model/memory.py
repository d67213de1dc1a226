"""The hierarchy: every item level by level, with cover links both ways, validated once.

Validation names the item and the field at fault, so a hand-written or converted memory can be
fixed from the message alone: duplicate ids, unknown cover ids, a cover at the same or a higher
level (which is also what rules out cycles: covers always point strictly down), a level with a
gap (L2 without L1), indices that are not 0..n-1 in each level.

A change that keeps most items (an append replaces the path to the top and adds one
message) is validated by what it changed: the items that are not the very objects stored, and
the stored items that cover a replaced one. Whatever that cannot vouch for is validated whole,
so an invalid list gets the same message either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain
from operator import is_
from typing import Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.model.items import MemoryItem


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
                "read times with rerank_plus.memory.model.times.parse_time."
            )
    return item


def _changed_levels(
    levels: list[tuple[MemoryItem, ...]],
    replaced: Iterable[MemoryItem],
    changed: Iterable[MemoryItem],
) -> list[tuple[MemoryItem, ...]] | None:
    """Each level after ``changed`` items took the place of the ``replaced`` stored ones (or
    came new): None unless the indices of every level still run 0..n-1 and no level is empty
    below a filled one."""
    freed: dict[int, set[int]] = {}
    for item in replaced:
        freed.setdefault(item.level, set()).add(item.index)
    placed: dict[int, list[MemoryItem]] = {}
    for item in changed:
        placed.setdefault(item.level, []).append(item)
    rows: list[tuple[MemoryItem, ...]] = []
    for level in range(max(len(levels), max(placed, default=-1) + 1)):
        row: list[Any] = list(levels[level]) if level < len(levels) else []
        gone, new = freed.get(level, set()), placed.get(level, [])
        size = len(row) - len(gone) + len(new)
        if {item.index for item in new} != gone | set(range(len(row), size)):
            return None
        row.extend([None] * (size - len(row)))
        for item in new:
            row[item.index] = item
        rows.append(tuple(row))
    while rows and not rows[-1]:
        rows.pop()
    return None if not all(rows) else rows


def _changed_parents(
    parents: dict[str, tuple[str, ...]],
    stored: dict[str, MemoryItem],
    by_id: dict[str, MemoryItem],
    replaced: Iterable[MemoryItem],
    changed: Iterable[MemoryItem],
) -> dict[str, tuple[str, ...]] | None:
    """The parents of each item after ``changed`` items replaced the ``replaced`` ones (the
    rest kept), each child's in level-then-index order: None where a changed item covers an
    unknown id or one not below it, or a kept item now covers a replaced item not below it."""
    found = dict(parents)
    touched: set[str] = set()
    for item in replaced:
        for covered in item.covers:
            found[covered] = tuple(key for key in found.get(covered, ()) if key != item.id)
            touched.add(covered)
        for key in parents.get(item.id, ()):
            parent = by_id[key]
            if parent is stored[key] and parent.level <= by_id[item.id].level:
                return None  # a kept parent (a changed one is checked below)
    for item in changed:
        for covered in item.covers:
            child = by_id.get(covered)
            if child is None or child.level >= item.level:
                return None
            found[covered] = (*found.get(covered, ()), item.id)
            touched.add(covered)
    for covered in touched:
        if found[covered]:
            found[covered] = tuple(
                sorted(found[covered], key=lambda key: (by_id[key].level, by_id[key].index))
            )
        else:
            del found[covered]
    return found


class Memory:
    """Raw messages (level 0) and their summaries (levels 1..k), checked and linked.

    ``items`` lists every item level by level, each level in index order. ``children(id)`` are
    the items a summary covers, ``parents(id)`` the summaries that cover an item.
    A :class:`~rerank_plus.memory.MemoryWriter` appends messages and updates the summaries.

    >>> memory = Memory([MemoryItem("m0", 0, 0, "Hi"), MemoryItem("s0", 1, 0, "Greeting",
    ...                  covers=("m0",))])
    >>> [item.id for item in memory.parents("m0")], memory.depth
    (['s0'], 2)
    """

    def __init__(self, items: Iterable[MemoryItem] = ()) -> None:
        #: the items were last given level by level in index order, so each child's parents
        #: are listed in that order too (what :meth:`_set_changed` keeps)
        self._in_order = False
        self._set_items(list(items))

    def _set_items(self, items: list[MemoryItem]) -> None:
        if not self._set_changed(items):
            self._set_all(items)

    def _set_all(self, items: list[MemoryItem]) -> None:
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
        self._in_order = all(map(is_, checked, self._items))
        self.version = getattr(self, "version", -1) + 1

    def _set_changed(self, items: list[Any]) -> bool:
        """Take ``items`` checking only what differs from the stored items, when they come
        level by level in index order and every stored item is still there or replaced by an
        item of its id; False (nothing set) where that does not hold or something is wrong,
        for :meth:`_set_all` to validate the whole list and say what."""
        if not self._in_order:
            return False
        stored = self._by_id
        kept: set[str] = set()
        changed: list[MemoryItem] = []
        level, index = -1, -1
        try:
            for item in items:
                if (item.level, item.index) <= (level, index):
                    return False
                level, index = item.level, item.index
                key = item.id
                if stored.get(key) is item:
                    kept.add(key)
                else:
                    changed.append(_check_item(item, 0))
        except (AttributeError, TypeError, MemoryFormatError):
            return False
        ids = {item.id for item in changed}
        replaced = [stored[key] for key in ids if key in stored]
        if len(ids) < len(changed) or kept & ids or len(kept) + len(replaced) < len(stored):
            return False  # a repeated id, or a stored item gone
        by_id = {**stored, **{item.id: item for item in changed}}
        levels = _changed_levels(self._levels, replaced, changed)
        parents = _changed_parents(self._parents, stored, by_id, replaced, changed)
        if levels is None or parents is None:
            return False
        self._by_id = by_id
        self._levels = levels
        self._parents = parents
        self._items = tuple(chain.from_iterable(levels))
        self.version += 1
        return True

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
        """Swap in a new item list; what incremental builders call. Validated as a whole,
        though items that are the very objects already stored are not checked again (see
        the module docstring)."""
        self._set_items(list(items))

    def __repr__(self) -> str:
        sizes = ", ".join(f"L{level}: {len(row)}" for level, row in enumerate(self._levels))
        return f"Memory({sizes or 'empty'})"
