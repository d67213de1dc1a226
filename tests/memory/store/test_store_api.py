"""The store's API round trips, on every backend: add, retrieve, messages, memory, namespaces,
delete, import, flush; an unknown namespace reads as empty."""

from __future__ import annotations

from rerank_plus.memory import (
    Memory,
    MemoryRetriever,
    MemoryStore,
    MemoryWriter,
    build_memory,
    open_store,
)

from tests.memory.build_chats import TOPICS
from tests.memory.store.conftest import hashed_embedder

LINES = [line for topic in TOPICS.values() for line in topic]
QUERIES = ("when is the offsite in Lyon?", "summarize the budget discussion", "what broke in QA?")


def test_add_returns_ids_and_messages_are_retrievable_at_once(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        assert isinstance(store, MemoryStore)
        ids = store.add("ana", ["Ana: the launch moves to March.", {"text": "hi", "id": "x"}])
        assert ids == ["m0", "x"]
        assert store.add("ana", ["Ben: budget approved at 40k."]) == ["m2"]
        context = store.retrieve("ana", "when is the launch?", max_tokens=300)
        assert "March" in context.text
        step = context.trace.steps[-1]
        assert step["step"] == "store" and step["pending"] == 3 and step["summarized"] == 0
        assert [item.id for item in store.messages("ana")] == ["m0", "x", "m2"]
        assert [item.index for item in store.messages("ana")] == [0, 1, 2]


def test_flush_builds_what_a_writer_builds(store_url: str) -> None:
    writer = MemoryWriter(embedder=hashed_embedder)
    writer.extend(LINES)
    with open_store(store_url, embedder=hashed_embedder, background=False) as store:
        for start in range(0, len(LINES), 5):
            store.add("team", LINES[start : start + 5])
            store.flush("team")
        retriever = MemoryRetriever(writer.memory, hashed_embedder)
        for query in QUERIES:
            for budget in (120, 700):
                ours = store.retrieve("team", query, max_tokens=budget)
                theirs = retriever.retrieve(query, max_tokens=budget)
                assert ours.text == theirs.text
                assert [item.id for item in ours.items] == [item.id for item in theirs.items]
        stored = store.memory("team")
        assert [item.id for item in stored] == [item.id for item in writer.memory]
        assert list(stored) == list(writer.memory)


def test_unknown_namespace_reads_as_empty(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        assert store.messages("nobody") == []
        assert store.namespaces() == []
        assert len(store.memory("nobody")) == 0
        context = store.retrieve("nobody", "anything?")
        assert context.text == "" and context.guidance.notes == ("The memory is empty.",)
        store.flush("nobody")
        store.delete("nobody")


def test_namespaces_by_prefix_and_delete(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        for name in ("ana/2", "ana/1", "ben/1", "anabel"):
            store.add(name, [f"a message of {name}"])
        assert store.namespaces() == ["ana/1", "ana/2", "anabel", "ben/1"]
        assert store.namespaces(prefix="ana/") == ["ana/1", "ana/2"]
        assert store.namespaces(prefix="%") == []
        store.delete("ana/1")
        assert store.namespaces(prefix="ana") == ["ana/2", "anabel"]
        assert store.messages("ana/1") == []
        assert "ana/1" not in store.retrieve("ana/1", "message").text
        assert store.add("ana/1", ["again"]) == ["m0"]


def test_import_and_export_a_memory(store_url: str) -> None:
    memory = build_memory(LINES[:12], embedder=hashed_embedder)
    with open_store(store_url, embedder=hashed_embedder, background=False) as store:
        store.import_memory("old", memory)
        exported = store.memory("old")
        assert list(exported) == list(memory)
        assert [item.embedding for item in exported] == [item.embedding for item in memory]
        retriever = MemoryRetriever(memory, hashed_embedder)
        for query in QUERIES:
            assert store.retrieve("old", query).text == retriever.retrieve(query).text
        store.add("old", LINES[12:14])
        assert len(store.memory("old").messages) == 14


def test_an_empty_memory_imports_as_nothing(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        store.import_memory("empty", Memory())
        assert store.namespaces() == []


async def test_aretrieve_gives_what_retrieve_gives(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        store.add("ana", LINES[:8])
        ours = await store.aretrieve("ana", "offsite venue", max_tokens=300)
        assert ours.text == store.retrieve("ana", "offsite venue", max_tokens=300).text


def test_background_summaries_catch_up(store_url: str) -> None:
    with open_store(store_url) as store:
        store.add("ana", LINES)
        store.flush("ana", timeout=60)
        context = store.retrieve("ana", "budget")
        assert context.trace.steps[-1]["pending"] == 0
        assert store.memory("ana").depth >= 2


def test_reopened_store_keeps_everything(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'kept.db'}"
    with open_store(url, embedder=hashed_embedder, background=False) as store:
        ids = store.add("ana", LINES[:10])
    with open_store(url, embedder=hashed_embedder, background=False) as store:
        assert [item.id for item in store.messages("ana")] == ids
        assert store.messages("ana")[3].embedding is not None
        store.flush()
        assert store.memory("ana").depth >= 2
