"""The store's API round trips, on every backend: add, retrieve, messages, memory, namespaces,
delete, import, flush; an unknown namespace reads as empty."""

from __future__ import annotations

import pytest
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


def _same_contexts(store, namespace: str, retriever: MemoryRetriever) -> None:
    for query in QUERIES:
        for budget in (120, 700):
            ours = store.retrieve(namespace, query, max_tokens=budget)
            theirs = retriever.retrieve(query, max_tokens=budget)
            assert ours.text == theirs.text
            assert [item.id for item in ours.items] == [item.id for item in theirs.items]


def test_flush_builds_what_a_writer_builds(store_url: str) -> None:
    """The first flush builds at once (MemoryWriter.build); later ones, with fewer messages
    waiting than summarized, add them one by one (MemoryWriter.add): the same memory, so the
    same contexts as MemoryRetriever's."""
    writer = MemoryWriter.build(LINES[:12], embedder=hashed_embedder)
    with open_store(store_url, embedder=hashed_embedder, background=False) as store:
        store.add("team", LINES[:6])
        store.add("team", LINES[6:12])
        store.flush("team")
        assert list(store.memory("team")) == list(writer.memory)
        _same_contexts(store, "team", MemoryRetriever(writer.memory, hashed_embedder))
        for start in range(12, len(LINES), 3):
            store.add("team", LINES[start : start + 3])
            writer.extend(LINES[start : start + 3])
            store.flush("team")
        stored = store.memory("team")
        assert list(stored) == list(writer.memory)
        assert [item.embedding for item in stored] == [item.embedding for item in writer.memory]
        _same_contexts(store, "team", MemoryRetriever(writer.memory, hashed_embedder))


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


def test_a_profile_per_call_and_per_store(store_url: str) -> None:
    custom = {"memory": {"tiers": {"small": 100, "medium": 200}}}
    with open_store(store_url, background=False, profile=custom) as store:
        store.add("team", LINES)
        store.flush("team")
        memory = store.memory("team")
        for profile in (None, {"memory": {"detail": {"drill_m": {"medium": 2}}}}):
            expected = MemoryRetriever(memory, profile=custom if profile is None else profile)
            for query in QUERIES:
                ours = store.retrieve("team", query, max_tokens=150, profile=profile)
                assert ours.text == expected.retrieve(query, max_tokens=150).text
        with pytest.raises(ValueError, match=r"memory\.tiers"):
            store.retrieve("team", "budget", profile={"memory": {"tiers": {"huge": 1}}})


def test_a_store_sees_what_another_one_writes(durable_url: str) -> None:
    """Two stores on one database (what two processes are): each call of one reads what the
    other committed, through its cached retriever."""
    with (
        open_store(durable_url, background=False) as writer,
        open_store(durable_url, background=False) as reader,
    ):
        writer.add("team", LINES[:4])
        assert reader.retrieve("team", "venue").trace.steps[-1]["messages"] == 4
        writer.add("team", ["Dana: the Lyon venue burnt down, we need another one."])
        context = reader.retrieve("team", "what happened to the Lyon venue?")
        assert "burnt down" in context.text
        writer.flush("team")
        step = reader.retrieve("team", "venue").trace.steps[-1]
        assert step["pending"] == 0 and step["summarized"] == 5
        assert reader.memory("team").depth >= 2
        writer.delete("team")
        assert reader.retrieve("team", "venue").text == ""
        writer.add("team", ["a new team namespace"])
        assert "new team" in reader.retrieve("team", "new team namespace").text


def test_threads_add_and_retrieve_at_once(store_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with open_store(store_url) as store:

        def work(n: int) -> list[str]:
            ids = store.add(f"t/{n % 3}", [f"thread message {n} about the {LINES[n]}"])
            store.retrieve(f"t/{n % 3}", "the venue")
            return ids

        with ThreadPoolExecutor(8) as pool:
            ids = [key for found in pool.map(work, range(24)) for key in found]
        store.flush(timeout=60)
        assert len(ids) == 24
        assert sum(len(store.messages(f"t/{n}")) for n in range(3)) == 24
        for n in range(3):
            assert [item.id for item in store.messages(f"t/{n}")] == [f"m{k}" for k in range(8)]
