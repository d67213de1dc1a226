"""LlamaIndex nodes as a memory: a real HierarchicalNodeParser's tree, read from the leaves up."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from llama_index.core import Document
from llama_index.core.llms import MockLLM
from llama_index.core.node_parser import (
    HierarchicalNodeParser,
    get_child_nodes,
    get_leaf_nodes,
    get_root_nodes,
)
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import (
    MetadataMode,
    NodeRelationship,
    NodeWithScore,
    RelatedNodeInfo,
    TextNode,
)
from rerank_plus.memory import MemoryFormatError, build_memory
from rerank_plus.memory.model.artifacts import load_memory, save_memory
from rerank_plus.memory.retriever import MemoryRetriever

from llamaindex_rerank_plus.memory import MemoryNodeRetriever, memory_from_nodes
from tests.adapters.memory_chat import all_messages
from tests.adapters.memory_meeting import START, TURNS, transcript, turn_time


def parse(*documents: Document, sizes=(128, 64, 32)):
    parser = HierarchicalNodeParser.from_defaults(chunk_sizes=list(sizes), chunk_overlap=0)
    return parser.get_nodes_from_documents(list(documents))


@pytest.fixture(scope="module")
def nodes():
    return parse(Document(text=transcript(), metadata={"source": "meeting-1", "room": "B2"}))


def test_leaves_are_level_0_and_roots_the_top(nodes):
    memory = memory_from_nodes(nodes)
    assert memory.depth == 3
    assert [item.id for item in memory.messages] == [n.node_id for n in get_leaf_nodes(nodes)]
    assert [item.id for item in memory.level(2)] == [n.node_id for n in get_root_nodes(nodes)]
    middle = get_child_nodes(get_root_nodes(nodes), nodes)
    assert [item.id for item in memory.level(1)] == [n.node_id for n in middle]


def test_covers_are_the_child_relationships(nodes):
    memory = memory_from_nodes(nodes)
    for node in nodes:
        children = [child.node_id for child in node.child_nodes or ()]
        assert list(memory.get(node.node_id).covers) == children
        if node.parent_node is not None:
            assert [p.id for p in memory.parents(node.node_id)] == [node.parent_node.node_id]


def test_every_word_of_a_root_is_in_its_leaves_in_order(nodes):
    memory = memory_from_nodes(nodes)
    for root in memory.level(memory.depth - 1):
        leaves = " ".join(leaf.text for leaf in memory.descendants(root.id)).split()
        assert leaves == root.text.split()
    words = " ".join(item.text for item in memory.messages).split()
    assert words == transcript().split()


def test_metadata_is_kept_as_a_copy_and_source_mapped(nodes):
    before = copy.deepcopy([n.metadata for n in nodes])
    memory = memory_from_nodes(nodes)
    assert [n.metadata for n in nodes] == before
    leaf = memory.messages[0]
    assert leaf.source == "meeting-1"
    assert dict(leaf.extras["metadata"]) == {"source": "meeting-1", "room": "B2"}
    assert leaf.extras["metadata"] is not nodes[0].metadata


def test_times_and_speakers_from_metadata():
    documents = [
        Document(text=text, metadata={"speaker": speaker, "time": turn_time(n).isoformat()})
        for n, (speaker, text) in enumerate(TURNS)
    ]
    memory = memory_from_nodes(parse(*documents, sizes=(512, 256, 128)))
    assert len(memory.level(memory.depth - 1)) == len(TURNS)  # a root per document
    assert [item.speaker for item in memory.messages] == [speaker for speaker, _ in TURNS]
    assert [item.time for item in memory.messages] == [turn_time(n) for n in range(len(TURNS))]
    for item in memory:
        assert item.time.isoformat() == item.extras["metadata"]["time"]


def test_parent_without_time_spans_what_it_covers():
    leaves = [
        TextNode(id_=f"leaf{n}", text=text, metadata={"time": turn_time(n).isoformat()})
        for n, (_, text) in enumerate(TURNS[:3])
    ]
    parent = TextNode(id_="parent", text=" ".join(leaf.text for leaf in leaves))
    parent.relationships[NodeRelationship.CHILD] = [leaf.as_related_node_info() for leaf in leaves]
    for leaf in leaves:
        leaf.relationships[NodeRelationship.PARENT] = parent.as_related_node_info()
    memory = memory_from_nodes([parent, *leaves])
    summary = memory.get("parent")
    assert (summary.level, summary.time, summary.end_time) == (1, START, turn_time(2))
    assert summary.end_time - summary.time == timedelta(minutes=4)


def test_scored_nodes_and_embeddings_are_read():
    node = TextNode(id_="a", text="hello", embedding=[0.5, 0.25])
    memory = memory_from_nodes([NodeWithScore(node=node, score=0.9)])
    assert memory.get("a").embedding == (0.5, 0.25)


def test_round_trips_through_the_artifacts_file(nodes, tmp_path):
    memory = memory_from_nodes(nodes)
    loaded = load_memory(save_memory(memory, tmp_path / "memory.json"))
    assert loaded.items == memory.items


def test_leaves_alone_are_refused_with_the_fix(nodes):
    with pytest.raises(
        MemoryFormatError,
        match=r"nodes\[0\] \(id '.+'\): its parent '.+' is not "
        r"among the nodes given; pass all the nodes the parser returned",
    ):
        memory_from_nodes(get_leaf_nodes(nodes))


def test_a_missing_child_is_named(nodes):
    without_last_leaf = [n for n in nodes if n.node_id != get_leaf_nodes(nodes)[-1].node_id]
    with pytest.raises(MemoryFormatError, match=r"child '.+' is not among the nodes given"):
        memory_from_nodes(without_last_leaf)


def test_duplicates_and_cycles_are_refused(nodes):
    with pytest.raises(
        MemoryFormatError, match=r"nodes\[1\]: id '.+' is also the id of nodes\[0\]"
    ):
        memory_from_nodes([nodes[0], nodes[0]])
    a, b = TextNode(id_="a", text="A"), TextNode(id_="b", text="B")
    a.relationships[NodeRelationship.CHILD] = [RelatedNodeInfo(node_id="b")]
    b.relationships[NodeRelationship.CHILD] = [RelatedNodeInfo(node_id="a")]
    with pytest.raises(MemoryFormatError, match=r"\(id '[ab]'\) is its own descendant"):
        memory_from_nodes([a, b])


def test_a_speaker_that_is_not_text_is_named():
    node = TextNode(id_="a", text="hi", metadata={"speaker": 7})
    with pytest.raises(MemoryFormatError, match=r"nodes\[0\]\.metadata\['speaker'\] must be text"):
        memory_from_nodes([node])
    late = TextNode(id_="a", text="hi", metadata={"time": "tomorrow"})
    with pytest.raises(MemoryFormatError, match=r"nodes\[0\] \(id 'a'\)\.time: 'tomorrow' is not"):
        memory_from_nodes([late])


def test_no_nodes_give_an_empty_memory():
    assert len(memory_from_nodes([])) == 0


# --- MemoryNodeRetriever --------------------------------------------------------------------

NOW = turn_time(len(TURNS))
PRICE = "What selling price did Ana set for the remote?"


@pytest.fixture(scope="module")
def memory(nodes):
    return memory_from_nodes(nodes)


def expected_context(memory, query=PRICE, **settings):
    return MemoryRetriever(memory).retrieve(query, now=NOW, **settings)


def test_nodes_are_the_context_items_in_order(memory):
    found = MemoryNodeRetriever(memory, max_tokens=300, now=NOW).retrieve(PRICE)
    context = expected_context(memory, max_tokens=300)
    assert [n.node.node_id for n in found] == [entry.id for entry in context.items]
    assert [n.node.get_content() for n in found] == [entry.text for entry in context.items]
    assert [n.score for n in found] == [entry.score for entry in context.items]
    assert any("twenty-five euros" in n.node.get_content() for n in found)
    for node, entry in zip(found, context.items, strict=True):
        metadata = node.node.metadata
        assert metadata["source"] == "meeting-1" and metadata["room"] == "B2"  # the node's own
        assert metadata["level"] == entry.level and metadata["index"] == entry.index
        assert (metadata["block"], metadata["score"]) == (entry.block, entry.score)
        assert metadata["label"] == f"L{entry.level}" and metadata["memory_id"] == entry.id


async def test_aretrieve_gives_the_same_nodes(memory):
    retriever = MemoryNodeRetriever(memory, max_tokens=300, now=NOW)
    sync = retriever.retrieve(PRICE)
    asynchronous = await retriever.aretrieve(PRICE)
    assert [(n.node.node_id, n.score) for n in asynchronous] == [
        (n.node.node_id, n.score) for n in sync
    ]


def test_options_reach_the_memory_retriever(memory):
    synthesis = MemoryNodeRetriever(memory, max_tokens=200, intent="synthesis", now=NOW)
    context = expected_context(memory, max_tokens=200, intent="synthesis")
    assert [n.node.node_id for n in synthesis.retrieve(PRICE)] == [e.id for e in context.items]
    assert context.tokens <= 200
    ready = MemoryRetriever(memory)
    assert MemoryNodeRetriever(ready).memory_retriever is ready


def test_in_a_query_engine(memory):
    retriever = MemoryNodeRetriever(memory, max_tokens=300, now=NOW)
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
    response = engine.query(PRICE)
    assert [n.node.node_id for n in response.source_nodes] == [
        n.node.node_id for n in retriever.retrieve(PRICE)
    ]
    assert "twenty-five euros" in str(response)  # MockLLM echoes the prompt it was given


def test_bad_memories_and_misplaced_options_are_explained(memory):
    with pytest.raises(
        TypeError, match=r"memory must be a rerank_plus Memory or a MemoryRetriever, got list"
    ):
        MemoryNodeRetriever([item.id for item in memory])
    with pytest.raises(TypeError, match=r"embedder configure the MemoryRetriever built from a"):
        MemoryNodeRetriever(MemoryRetriever(memory), embedder="minilm")


@pytest.mark.slow
def test_a_llamaindex_embedding_drives_the_dense_search(memory, minilm_path):
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    embedding = HuggingFaceEmbedding(model_name=minilm_path, device="cpu")
    retriever = MemoryNodeRetriever(memory, max_tokens=300, now=NOW, embedder=embedding)
    assert retriever.memory_retriever.embedder.model is embedding
    query = "How much will shoppers pay for it?"
    context = MemoryRetriever(memory, embedder=embedding).retrieve(query, 300, now=NOW)
    assert [(n.node.node_id, n.score) for n in retriever.retrieve(query)] == [
        (entry.id, entry.score) for entry in context.items
    ]


# --- what the LLM reads, and a store's namespace ----------------------------------------------


def test_the_llm_reads_no_empty_or_bookkeeping_metadata(memory):
    """A node's text for the LLM carries what it can use (level, block, source...), never
    ``source: None``, ``speaker: None`` or ``elided: False``; code still reads every field."""
    chat = build_memory(all_messages())  # speakers and times, no source
    for found in (
        MemoryNodeRetriever(memory, max_tokens=300, now=NOW).retrieve(PRICE),
        MemoryNodeRetriever(chat, max_tokens=300).retrieve("What does Lea do?"),
    ):
        assert found
        for node in found:
            shown = node.node.get_content(metadata_mode=MetadataMode.LLM)
            assert "None" not in shown and "elided" not in shown and "memory_id" not in shown
            assert f"level: {node.node.metadata['level']}" in shown
            assert {"source", "speaker", "elided"} <= set(node.node.metadata)
    spoken = MemoryNodeRetriever(chat, max_tokens=300).retrieve("What does Lea do?")
    assert any("speaker: Ben" in n.node.get_content(metadata_mode=MetadataMode.LLM) for n in spoken)
    engine = RetrieverQueryEngine.from_args(
        MemoryNodeRetriever(chat, max_tokens=300), llm=MockLLM()
    )
    assert "None" not in str(engine.query("What does Lea do?"))  # MockLLM echoes its prompt


def test_from_store_reads_a_namespace_as_it_grows(memory_store):
    retriever = MemoryNodeRetriever.from_store(memory_store, "ana", max_tokens=200)
    assert retriever.retrieve("What does Lea do?") == []
    memory_store.add("ana", all_messages())
    found = retriever.retrieve("What does Lea do?")
    context = memory_store.retrieve("ana", "What does Lea do?", max_tokens=200)
    assert [n.node.node_id for n in found] == [entry.id for entry in context.items]
    assert any("nurse" in n.node.get_content() for n in found)
    with pytest.raises(TypeError, match=r"store must be a rerank_plus MemoryStore, got str"):
        MemoryNodeRetriever.from_store("sqlite:///memory.db", "ana")
