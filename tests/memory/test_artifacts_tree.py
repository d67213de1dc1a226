"""Parent/child trees as memories (what the framework loaders translate into): levels are
heights, covers are children, times span what a node covers."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rerank_plus.memory import MemoryFormatError
from rerank_plus.memory.model.tree import TreeNode, memory_from_tree

T = [datetime(2024, 1, 1, hour, tzinfo=UTC) for hour in range(6)]


def node(node_id: str, *children: str, **fields) -> TreeNode:
    return TreeNode(node_id, node_id.upper(), f"nodes[{node_id}]", children, **fields)


def test_an_uneven_tree_puts_each_node_above_all_it_covers():
    memory = memory_from_tree(
        [
            node("root", "short", "deep"),
            node("deep", "x", "y"),
            node("short"),
            node("x"),
            node("y"),
        ]
    )
    assert [[item.id for item in memory.level(k)] for k in range(memory.depth)] == [
        ["short", "x", "y"],
        ["deep"],
        ["root"],
    ]
    assert [item.index for item in memory.messages] == [0, 1, 2]
    assert [item.id for item in memory.descendants("root")] == ["short", "x", "y"]


def test_times_span_the_covered_items_unless_given():
    memory = memory_from_tree(
        [
            node("a", time=T[1]),
            node("b", time=T[3]),
            node("c", time="2024-01-01T05:00:00Z"),
            node("ab", "a", "b"),
            node("top", "ab", "c", time=T[0]),
        ]
    )
    assert (memory.get("ab").time, memory.get("ab").end_time) == (T[1], T[3])
    assert (memory.get("top").time, memory.get("top").end_time) == (T[0], T[5])
    assert memory.get("a").end_time is None


def test_metadata_and_embeddings_are_copied():
    metadata = {"tags": ["x"]}
    memory = memory_from_tree([node("a", metadata=metadata, embedding=[1, 2])])
    metadata["tags"].append("y")
    assert memory.get("a").extras["metadata"] == {"tags": ["x"]}
    assert memory.get("a").embedding == (1.0, 2.0)


@pytest.mark.parametrize(
    ("nodes", "message"),
    [
        ([node("a", "z")], r"nodes\[a\] \(id 'a'\): child 'z' is not among the nodes given"),
        ([node("a"), node("a")], r"nodes\[a\]: id 'a' is also the id of nodes\[a\]"),
        ([node("a", "b"), node("b", "c"), node("c", "a")], r"is its own descendant"),
        ([node("a", "a")], r"nodes\[a\] \(id 'a'\) is its own descendant"),
        ([TreeNode("", "x", "nodes[0]")], r"nodes\[0\]: the id must be a non-empty str"),
        ([TreeNode("a", None, "nodes[0]")], r"nodes\[0\] \(id 'a'\): the text is NoneType"),
        ([node("a", time="noon")], r"nodes\[a\] \(id 'a'\)\.time: 'noon' is not a time"),
    ],
)
def test_bad_trees_are_named(nodes, message):
    with pytest.raises(MemoryFormatError, match=message):
        memory_from_tree(nodes)


def test_a_deep_chain_needs_no_recursion():
    chain = [node(f"n{k}", f"n{k + 1}") for k in range(3000)] + [node("n3000")]
    memory = memory_from_tree(chain)
    assert memory.depth == 3001 and memory.level(3000)[0].id == "n0"
