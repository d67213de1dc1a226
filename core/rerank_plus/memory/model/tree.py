"""A memory from any parent/child tree of texts: what the framework loaders translate into.

LlamaIndex's ``HierarchicalNodeParser`` (large chunks that contain smaller ones) and LangChain's
``ParentDocumentRetriever`` (parent documents split into child chunks) both store a tree whose
leaves are the finest pieces of text. Read from the bottom, that is a memory: a leaf is level 0,
a node's level is one more than its highest child's (so a node always sits above everything it
covers, however uneven the tree), and its children are what it ``covers``. The adapters only
turn framework objects into :class:`TreeNode`; the levels, the times and the checks live here.

A node with no time of its own takes the span of what it covers (first covered time, last
covered time), so recency works on summaries of timed messages.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.times import parse_time


@dataclass(frozen=True)
class TreeNode:
    """One piece of text in a parent/child tree, as a framework gave it.

    ``children`` are ids of other nodes; ``time`` is read with
    :func:`~rerank_plus.memory.model.times.parse_time`; a copy of ``metadata`` is kept under
    ``extras["metadata"]``; ``where`` names the node in errors (``nodes[3]``).
    """

    id: str
    text: str
    where: str
    children: tuple[str, ...] = ()
    time: Any = None
    speaker: str | None = None
    source: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    embedding: Sequence[float] | None = None


def _by_id(nodes: Sequence[TreeNode]) -> dict[str, TreeNode]:
    found: dict[str, TreeNode] = {}
    for node in nodes:
        if not isinstance(node.id, str) or not node.id:
            raise MemoryFormatError(
                f"{node.where}: the id must be a non-empty str, got {node.id!r}."
            )
        if not isinstance(node.text, str):
            raise MemoryFormatError(
                f"{node.where} (id {node.id!r}): the text is {type(node.text).__name__}, not str."
            )
        if node.id in found:
            raise MemoryFormatError(
                f"{node.where}: id {node.id!r} is also the id of {found[node.id].where}; every "
                "node needs its own id."
            )
        found[node.id] = node
    for node in nodes:
        for child in node.children:
            if child not in found:
                raise MemoryFormatError(
                    f"{node.where} (id {node.id!r}): child {child!r} is not among the nodes "
                    "given; pass every node of the tree (parents and children), not only some."
                )
    return found


def _levels(nodes: Sequence[TreeNode], by_id: Mapping[str, TreeNode]) -> dict[str, int]:
    """Each node's height (leaves 0), found depth-first without recursion; a cycle is an
    error naming a node on it."""
    level: dict[str, int] = {}
    on_path: set[str] = set()
    for start in nodes:
        stack: list[tuple[str, bool]] = [(start.id, False)]
        while stack:
            node_id, children_done = stack.pop()
            if children_done:
                on_path.discard(node_id)
                heights = [level[child] for child in by_id[node_id].children]
                level[node_id] = max(heights, default=-1) + 1
                continue
            if node_id in level:
                continue
            if node_id in on_path:
                node = by_id[node_id]
                raise MemoryFormatError(
                    f"{node.where} (id {node_id!r}) is its own descendant; a parent/child tree "
                    "cannot have cycles."
                )
            on_path.add(node_id)
            stack.append((node_id, True))
            stack.extend((child, False) for child in by_id[node_id].children)
    return level


def _span(node: TreeNode, covered: Sequence[MemoryItem]) -> tuple[datetime | None, datetime | None]:
    own = parse_time(node.time, f"{node.where} (id {node.id!r}).time")
    starts = [item.time for item in covered if item.time is not None]
    ends = [end for item in covered if (end := item.end_time or item.time) is not None]
    start = own if own is not None else min(starts, default=None)
    end = max(ends, default=None) if node.children else None
    return start, end if end != start else None


def memory_from_tree(nodes: Sequence[TreeNode]) -> Memory:
    """The memory whose levels are the tree's heights, each level in the order of ``nodes``.

    >>> memory = memory_from_tree([TreeNode("doc", "a b", "nodes[0]", children=("a", "b")),
    ...     TreeNode("a", "a", "nodes[1]"), TreeNode("b", "b", "nodes[2]")])
    >>> memory, [item.id for item in memory.children("doc")]
    (Memory(L0: 2, L1: 1), ['a', 'b'])
    """
    by_id = _by_id(nodes)
    level = _levels(nodes, by_id)
    rows: dict[int, list[TreeNode]] = {}
    for node in nodes:
        rows.setdefault(level[node.id], []).append(node)
    made: dict[str, MemoryItem] = {}
    for height in sorted(rows):
        for index, node in enumerate(rows[height]):
            time, end_time = _span(node, [made[child] for child in node.children])
            made[node.id] = MemoryItem(
                id=node.id,
                level=height,
                index=index,
                text=node.text,
                covers=tuple(dict.fromkeys(node.children)),
                time=time,
                end_time=end_time,
                speaker=node.speaker,
                source=node.source,
                extras=MappingProxyType(
                    {"metadata": copy.deepcopy(dict(node.metadata))} if node.metadata else {}
                ),
                embedding=None if node.embedding is None else tuple(map(float, node.embedding)),
            )
    return Memory(made.values())
