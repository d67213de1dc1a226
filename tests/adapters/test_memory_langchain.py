"""LangChain parent/child documents as a memory: a real ParentDocumentRetriever's docstore and
vector store."""

from __future__ import annotations

import copy
from dataclasses import replace
from datetime import timedelta

import pytest
from langchain_classic.retrievers import ParentDocumentRetriever
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models import FakeListLLM
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import PromptTemplate
from langchain_core.runnables import RunnablePassthrough
from langchain_core.stores import InMemoryStore
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter
from rerank_plus.memory import ContextItem, MemoryFormatError, MemoryItem, build_memory
from rerank_plus.memory.adapters_support import headed_text
from rerank_plus.memory.model.artifacts import load_memory, save_memory
from rerank_plus.memory.retriever import MemoryRetriever

from langchain_rerank_plus.memory import (
    MemoryDocumentRetriever,
    memory_from_parent_document_retriever,
    memory_from_parent_documents,
)
from tests.adapters.memory_chat import FIRST_DAY, all_messages
from tests.adapters.memory_meeting import TURNS, transcript, turn_time


def parent_document_retriever(**options) -> ParentDocumentRetriever:
    return ParentDocumentRetriever(
        vectorstore=InMemoryVectorStore(DeterministicFakeEmbedding(size=16)),
        docstore=InMemoryStore(),
        child_splitter=RecursiveCharacterTextSplitter(
            chunk_size=120, chunk_overlap=0, add_start_index=True
        ),
        **options,
    )


@pytest.fixture
def meeting_retriever() -> ParentDocumentRetriever:
    """Two meeting halves, each split into parents of ~400 characters, then into turns."""
    retriever = parent_document_retriever(
        parent_splitter=RecursiveCharacterTextSplitter(chunk_size=400, chunk_overlap=0)
    )
    halves = [TURNS[:8], TURNS[8:]]
    retriever.add_documents(
        [
            Document(transcript(half), metadata={"source": f"part-{n}"})
            for n, half in enumerate(halves)
        ]
    )
    return retriever


def vector_store_children(retriever: ParentDocumentRetriever) -> list[Document]:
    store = retriever.vectorstore
    return store.get_by_ids(list(store.store))


def test_parents_cover_their_children(meeting_retriever):
    memory = memory_from_parent_document_retriever(meeting_retriever)
    parent_ids = list(meeting_retriever.docstore.yield_keys())
    assert memory.depth == 2
    assert [item.id for item in memory.level(1)] == parent_ids
    assert [item.text for item in memory.level(1)] == [
        d.page_content for d in meeting_retriever.docstore.mget(parent_ids)
    ]
    for parent in memory.level(1):
        assert "\n".join(child.text for child in memory.children(parent.id)) == parent.text
    assert " ".join(item.text for item in memory.messages).split() == transcript().split()
    assert {item.source for item in memory} == {"part-0", "part-1"}


def test_split_again_matches_what_the_vector_store_holds(meeting_retriever):
    from_splitter = memory_from_parent_document_retriever(meeting_retriever)
    children = vector_store_children(meeting_retriever)
    from_store = memory_from_parent_document_retriever(meeting_retriever, children)
    assert [i.text for i in from_splitter.messages] == [i.text for i in from_store.messages]
    assert {item.id for item in from_store.messages} == set(meeting_retriever.vectorstore.store)
    for parent in from_store.level(1):
        covered = [c.id for c in children if c.metadata["doc_id"] == parent.id]
        assert set(parent.covers) == set(covered)


def test_children_are_ordered_by_parent_then_start_index(meeting_retriever):
    children = vector_store_children(meeting_retriever)[::-1]
    memory = memory_from_parent_document_retriever(meeting_retriever, children)
    assert [item.text for item in memory.messages] == [
        item.text for item in memory_from_parent_document_retriever(meeting_retriever).messages
    ]


def test_custom_id_key_and_child_metadata_fields():
    retriever = parent_document_retriever(id_key="parent", child_metadata_fields=["speaker"])
    retriever.add_documents(
        [
            Document(text, metadata={"speaker": speaker, "time": turn_time(n).isoformat()})
            for n, (speaker, text) in enumerate(TURNS)
        ]
    )
    memory = memory_from_parent_document_retriever(retriever)
    assert [item.speaker for item in memory.level(1)] == [speaker for speaker, _ in TURNS]
    assert [item.time for item in memory.level(1)] == [turn_time(n) for n in range(len(TURNS))]
    child = memory.messages[0]
    assert set(child.extras["metadata"]) == {"speaker", "parent"}
    assert child.time is None and child.speaker == "Ana"


def test_plain_mappings_and_pairs_with_times_on_the_children():
    parents = {"p0": Document("Ana: hello. Bob: hi.")}
    children = [
        Document("Bob: hi.", metadata={"doc_id": "p0", "time": turn_time(1).isoformat()}),
        Document("Ana: hello.", metadata={"doc_id": "p0", "time": turn_time(0).isoformat()}),
    ]
    before = copy.deepcopy(children)
    memory = memory_from_parent_documents(parents, children)
    assert [item.id for item in memory.messages] == ["p0/0", "p0/1"]
    assert (memory.get("p0").time, memory.get("p0").end_time) == (turn_time(0), turn_time(1))
    assert children == before
    assert memory_from_parent_documents(list(parents.items()), children).items == memory.items


def test_round_trips_through_the_artifacts_file(meeting_retriever, tmp_path):
    memory = memory_from_parent_document_retriever(meeting_retriever)
    assert load_memory(save_memory(memory, tmp_path / "memory.json")).items == memory.items


def test_children_that_point_nowhere_are_named():
    parents = {"p0": Document("text")}
    with pytest.raises(
        MemoryFormatError,
        match=r"children\[1\]: metadata\['doc_id'\] = 'p9' is "
        r"no parent's id among the 1 parents given",
    ):
        memory_from_parent_documents(
            parents,
            [Document("a", metadata={"doc_id": "p0"}), Document("b", metadata={"doc_id": "p9"})],
        )
    with pytest.raises(
        MemoryFormatError,
        match=r"children\[0\]: metadata\['doc_id'\] = None is "
        r"no parent among",
    ):
        memory_from_parent_documents(parents, [Document("a", metadata={"parent": "p0"})])
    with pytest.raises(MemoryFormatError, match=r"children\[0\] is str, not a Document"):
        memory_from_parent_documents(parents, ["a"])


def test_bad_parents_and_metadata_are_named():
    with pytest.raises(MemoryFormatError, match=r"parents\['p0'\] is str, not a Document"):
        memory_from_parent_documents({"p0": "text"}, [])
    with pytest.raises(MemoryFormatError, match=r"parents\['p0'\]\.metadata\['speaker'\] must be"):
        memory_from_parent_documents({"p0": Document("x", metadata={"speaker": ["Ana"]})}, [])
    with pytest.raises(
        MemoryFormatError, match=r"children\[0\] \(id 'p0/0'\)\.time: 'soon' is not"
    ):
        memory_from_parent_documents(
            {"p0": Document("x")}, [Document("x", metadata={"doc_id": "p0", "time": "soon"})]
        )


def test_parents_without_children_are_messages_and_nothing_is_empty():
    memory = memory_from_parent_documents({"a": Document("one"), "b": Document("two")}, [])
    assert memory.depth == 1 and [item.id for item in memory.messages] == ["a", "b"]
    assert len(memory_from_parent_documents(InMemoryStore(), [])) == 0
    mixed = memory_from_parent_documents(
        {"a": Document("one two"), "b": Document("three")},
        [Document("one", metadata={"doc_id": "a"}), Document("two", metadata={"doc_id": "a"})],
    )
    assert [item.id for item in mixed.messages] == ["a/0", "a/1", "b"]
    assert [item.id for item in mixed.level(1)] == ["a"]


# --- MemoryDocumentRetriever ----------------------------------------------------------------

NOW = turn_time(len(TURNS))
PRICE = "What selling price did Ana set for the remote?"


@pytest.fixture
def memory(meeting_retriever):
    return memory_from_parent_document_retriever(meeting_retriever)


def test_documents_are_the_context_items_in_order(memory):
    found = MemoryDocumentRetriever(memory, max_tokens=300, now=NOW).invoke(PRICE)
    context = MemoryRetriever(memory).retrieve(PRICE, max_tokens=300, now=NOW)
    assert [d.id for d in found] == [entry.id for entry in context.items]
    assert [d.page_content for d in found] == [headed_text(entry) for entry in context.items]
    assert all(
        d.page_content.endswith(entry.text) for d, entry in zip(found, context.items, strict=True)
    )
    assert any("twenty-five euros" in d.page_content for d in found)
    for document, entry in zip(found, context.items, strict=True):
        assert document.metadata["source"] in ("part-0", "part-1")  # the document's own
        assert document.metadata["level"] == entry.level
        assert document.metadata["index"] == entry.index
        assert (document.metadata["block"], document.metadata["score"]) == (
            entry.block,
            entry.score,
        )
    children = [d for d in found if d.metadata["level"] == 0]
    assert all(d.metadata["doc_id"] in memory for d in children)


async def test_ainvoke_gives_the_same_documents(memory):
    retriever = MemoryDocumentRetriever(memory, max_tokens=300, now=NOW)
    assert await retriever.ainvoke(PRICE) == retriever.invoke(PRICE)


def test_in_a_chain_with_a_fake_llm(memory):
    retriever = MemoryDocumentRetriever(memory, max_tokens=300, intent="detail", now=NOW)
    prompt = PromptTemplate.from_template("Context:\n{context}\n\nQuestion: {question}")

    def format_docs(documents):
        return "\n".join(f"[L{d.metadata['level']}] {d.page_content}" for d in documents)

    inputs = {"context": retriever | format_docs, "question": RunnablePassthrough()}
    shown = (inputs | prompt).invoke(PRICE).to_string()
    assert "twenty-five euros" in shown and shown.endswith(f"Question: {PRICE}")
    chain = inputs | prompt | FakeListLLM(responses=["Twenty-five euros."]) | StrOutputParser()
    assert chain.invoke(PRICE) == "Twenty-five euros."
    assert chain.batch([PRICE, PRICE]) == ["Twenty-five euros."] * 2


def test_runnable_config_and_options(memory):
    ready = MemoryRetriever(memory)
    retriever = MemoryDocumentRetriever(ready, max_tokens=150, tags=["memory"])
    assert retriever.memory_retriever is ready and retriever.tags == ["memory"]
    synthesis = MemoryDocumentRetriever(memory, max_tokens=200, intent="synthesis", now=NOW)
    context = ready.retrieve(PRICE, max_tokens=200, intent="synthesis", now=NOW)
    assert [d.id for d in synthesis.invoke(PRICE)] == [entry.id for entry in context.items]


def test_bad_memories_and_misplaced_options_are_explained(memory):
    with pytest.raises(
        TypeError, match=r"memory must be a rerank_plus Memory or a MemoryRetriever"
    ):
        MemoryDocumentRetriever({"messages": []})
    with pytest.raises(TypeError, match=r"reranker configure the MemoryRetriever built from a"):
        MemoryDocumentRetriever(MemoryRetriever(memory), reranker=None)


@pytest.mark.slow
def test_huggingface_embeddings_drive_the_dense_search(memory, minilm_path):
    from langchain_huggingface import HuggingFaceEmbeddings

    embeddings = HuggingFaceEmbeddings(model_name=minilm_path)
    retriever = MemoryDocumentRetriever(memory, max_tokens=300, now=NOW, embedder=embeddings)
    assert retriever.memory_retriever.embedder.model is embeddings
    query = "How much will shoppers pay for it?"
    context = MemoryRetriever(memory, embedder=embeddings).retrieve(query, 300, now=NOW)
    assert [d.id for d in retriever.invoke(query)] == [entry.id for entry in context.items]


# --- who said it, and when: the header in page_content (#48) ---------------------------------


def joined(documents) -> str:
    """What a chain that joins page_content hands its LLM."""
    return "\n\n".join(document.page_content for document in documents)


def test_a_chain_joining_page_content_reads_who_said_what_and_when():
    memory = build_memory(all_messages())
    found = MemoryDocumentRetriever(memory, max_tokens=200).invoke("What did Ben say about Lea?")
    text = joined(found)
    assert "Ben: My sister Lea just became a nurse at the city hospital." in text
    assert "[L0 #3 2024-05-02 18:03] Ben: My sister Lea" in text  # the message's own date
    quotes = [d for d in found if d.metadata["level"] == 0]
    assert quotes and all(d.page_content.startswith("[L0 #") for d in quotes)
    bare = MemoryDocumentRetriever(memory, max_tokens=200, header_in_content=False)
    assert [d.page_content for d in bare.invoke("What did Ben say about Lea?")] == [
        memory.get(d.id).text for d in found
    ]


def test_a_summary_header_gives_the_span_it_covers():
    memory = build_memory(all_messages())
    documents = MemoryDocumentRetriever(memory, max_tokens=400, intent="synthesis").invoke(
        "What did we talk about?"
    )
    headers = [d.page_content.split("] ")[0] + "]" for d in documents if d.metadata["level"]]
    assert headers == ["[L1 #0 2024-05-02 18:00-18:03]", "[L1 #1 2024-05-09 18:00-18:03]"]
    weeks = MemoryItem("s", 1, 4, "Two sessions.", covers=("a",), time=FIRST_DAY)
    weeks = replace(weeks, end_time=FIRST_DAY + timedelta(days=7, minutes=3))
    assert headed_text(ContextItem(weeks, 0.5, "extracts")) == (
        "[L1 #4 2024-05-02 18:00 to 2024-05-09 18:03] Two sessions."
    )
    untimed = MemoryItem("m", 0, 2, "Hello.", speaker="Ana")
    assert headed_text(ContextItem(untimed, 0.5, "quotes")) == "[L0 #2] Ana: Hello."


def test_from_store_reads_a_namespace_as_it_grows(memory_store):
    retriever = MemoryDocumentRetriever.from_store(memory_store, "ana", max_tokens=200)
    assert retriever.invoke("What does Lea do?") == []
    memory_store.add("ana", all_messages())
    context = memory_store.retrieve("ana", "What does Lea do?", max_tokens=200)
    assert [d.id for d in retriever.invoke("What does Lea do?")] == [e.id for e in context.items]
    with pytest.raises(ValueError, match=r"namespace must be a non-empty str, got ''"):
        MemoryDocumentRetriever.from_store(memory_store, "")
