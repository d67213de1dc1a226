"""A memory store as a LangGraph ``BaseStore``: its operations, a real agent, LangMem's tools."""

from __future__ import annotations

import asyncio
import doctest
import json
from datetime import timedelta
from typing import Any

import pytest

pytest.importorskip("langgraph")

from hypothesis import given
from hypothesis import strategies as st
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.store.base import GetOp, InvalidNamespaceError, ListNamespacesOp, PutOp, SearchOp
from pydantic import Field
from rerank_plus.memory import StoreError

from langchain_rerank_plus import HierarchicalMemoryStore, langgraph_store, langgraph_values
from langchain_rerank_plus.langgraph_store import (
    EPOCH,
    UnsupportedOperation,
    namespace_name,
    namespace_tuple,
)
from tests.adapters.memory_chat import FIRST_DAY, all_messages

NOW = FIRST_DAY + timedelta(days=30)
ANA = ("memories", "ana")


@pytest.fixture
def graph_store(memory_store) -> HierarchicalMemoryStore:
    return HierarchicalMemoryStore(memory_store, max_tokens=300, now=NOW)


# --- namespaces ---------------------------------------------------------------------------


labels = st.text(min_size=1, max_size=12).filter(lambda label: "\x00" not in label)


@given(st.lists(labels, min_size=1, max_size=4), st.lists(labels, min_size=1, max_size=4))
def test_every_tuple_has_its_own_name_and_reads_back(first, second):
    assert namespace_tuple(namespace_name(tuple(first))) == tuple(first)
    if first != second:
        assert namespace_name(tuple(first)) != namespace_name(tuple(second))


def test_names_join_labels_with_a_slash_and_escape_it():
    assert namespace_name(ANA) == "memories/ana"
    assert namespace_name(("a/b", "50%")) == "a%2Fb/50%25"
    for bad in [(), ("memories", ""), ("memories", 3)]:
        with pytest.raises(InvalidNamespaceError, match=r"give a non-empty tuple of non-empty"):
            namespace_name(bad)


def test_list_namespaces_reads_the_store_as_tuples(graph_store, memory_store):
    for name in ["memories/ana", "memories/ben", "memories/ana/work", "notes/ana", "a%2Fb/x"]:
        memory_store.add(name, ["hello"])
    assert graph_store.list_namespaces() == sorted(
        [ANA, ("memories", "ben"), ("memories", "ana", "work"), ("notes", "ana"), ("a/b", "x")]
    )
    assert graph_store.list_namespaces(prefix=("memories",)) == [
        ANA,
        ("memories", "ana", "work"),
        ("memories", "ben"),
    ]
    assert graph_store.list_namespaces(suffix=("ana",)) == [ANA, ("notes", "ana")]
    assert graph_store.list_namespaces(prefix=("*", "ana")) == [
        ANA,
        ("memories", "ana", "work"),
        ("notes", "ana"),
    ]
    assert graph_store.list_namespaces(max_depth=1) == [("a/b",), ("memories",), ("notes",)]
    assert graph_store.list_namespaces(limit=2, offset=1) == [ANA, ("memories", "ana", "work")]


# --- put and get --------------------------------------------------------------------------


def test_put_adds_a_message_and_get_gives_the_value_back(graph_store, memory_store):
    value = {"text": "Lea became a nurse.", "speaker": "Ben", "time": "2024-05-02T18:03:00Z"}
    graph_store.put(ANA, "fact-1", value)
    (stored,) = memory_store.messages("memories/ana")
    assert (stored.id, stored.text, stored.speaker) == ("fact-1", "Lea became a nurse.", "Ben")
    item = graph_store.get(ANA, "fact-1")
    assert (item.namespace, item.key, item.value) == (ANA, "fact-1", value)
    assert item.created_at == stored.time == item.updated_at


def test_a_value_without_text_is_stored_as_its_json(graph_store, memory_store):
    graph_store.put(ANA, "prefs", {"food": "pizza", "drink": "tea"})
    graph_store.put(ANA, "profile", {"content": {"name": "Ana", "age": 31}})
    texts = [item.text for item in memory_store.messages("memories/ana")]
    assert texts == ['{"drink": "tea", "food": "pizza"}', '{"name": "Ana", "age": 31}']
    assert graph_store.get(ANA, "profile").value == {"content": {"name": "Ana", "age": 31}}
    assert all(item.time is not None for item in memory_store.messages("memories/ana"))


def test_a_key_put_again_is_a_newer_version(graph_store, memory_store):
    graph_store.put(ANA, "launch", {"text": "The launch is in March.", "time": "2024-05-02T10:00Z"})
    graph_store.put(
        ANA, "launch", {"text": "The launch moves to April.", "time": "2024-05-20T10:00Z"}
    )
    graph_store.put(ANA, "launch", {"text": "It is May now.", "time": "2024-06-01T10:00Z"})
    assert [i.id for i in memory_store.messages("memories/ana")] == [
        "launch",
        "launch~2",
        "launch~3",
    ]
    assert graph_store.get(ANA, "launch").value["text"] == "It is May now."
    recent = graph_store.search(ANA)
    assert [(i.key, i.value["text"]) for i in recent] == [
        ("launch", "It is May now."),
        ("launch", "The launch moves to April."),
        ("launch", "The launch is in March."),
    ]


def test_get_of_a_missing_key_or_namespace_is_none(graph_store):
    assert graph_store.get(ANA, "nothing") is None
    graph_store.put(ANA, "fact-1", {"text": "hello"})
    assert graph_store.get(ANA, "nothing") is None


def test_delete_forgets_every_version_of_a_key(graph_store, memory_store):
    graph_store.put(ANA, "fact-1", {"text": "hello"})
    graph_store.put(ANA, "code", {"text": "The locker code is zebra-4471."})
    graph_store.put(ANA, "code", {"text": "The locker code is now zebra-9902."})
    graph_store.put(ANA, "fact-2", {"text": "Ana likes tea."})
    memory_store.flush("memories/ana")
    graph_store.delete(ANA, "code")
    assert graph_store.get(ANA, "code") is None
    assert [i.id for i in memory_store.messages("memories/ana")] == ["fact-1", "fact-2"]
    for query in ("what is the locker code?", "zebra"):
        assert all(
            "zebra" not in item.value["text"] for item in graph_store.search(ANA, query=query)
        )
    assert "zebra" not in memory_store.retrieve("memories/ana", "locker code", 4000).text
    graph_store.delete(ANA, "code")  # gone already: nothing to do, as LangGraph's stores
    graph_store.delete(("memories", "nobody"), "code")
    graph_store.put(ANA, "code", {"text": "A new code."})
    assert graph_store.get(ANA, "code").value == {"text": "A new code."}
    assert memory_store.message("memories/ana", "code").text == "A new code."


def test_deleting_a_summary_is_refused_with_what_to_do(graph_store, memory_store):
    memory_store.add("memories/ana", all_messages())
    with pytest.raises(
        UnsupportedOperation,
        match=r"cannot delete the summary 'L1\.0' in \('memories', 'ana'\): summaries are made "
        r"from the messages; delete the messages it covers, or call delete\('memories/ana'\)",
    ):
        graph_store.delete(ANA, "L1.0")


def test_puts_and_deletes_in_one_batch_run_in_order(graph_store, memory_store):
    graph_store.batch(
        [
            PutOp(ANA, "a", {"text": "first a"}),
            PutOp(ANA, "a", {"text": "second a"}),
            PutOp(ANA, "a", None),
            PutOp(ANA, "a", {"text": "third a"}),
        ]
    )
    assert [i.text for i in memory_store.messages("memories/ana")] == ["third a"]
    assert graph_store.get(ANA, "a").value == {"text": "third a"}


def test_bad_values_are_explained(graph_store):
    with pytest.raises(TypeError, match=r"The value put under key 'k' is a list; LangGraph"):
        graph_store.batch([PutOp(ANA, "k", ["not", "a", "dict"])])
    with pytest.raises(TypeError, match=r"store must be a rerank_plus MemoryStore, got str"):
        HierarchicalMemoryStore("memory://")


# --- search -------------------------------------------------------------------------------


def test_search_with_a_query_is_the_composed_context(graph_store, memory_store):
    memory_store.add("memories/ana", all_messages())
    found = graph_store.search(ANA, query="What does Lea do?")
    context = memory_store.retrieve("memories/ana", "What does Lea do?", max_tokens=300, now=NOW)
    assert [(i.key, i.score) for i in found] == [(e.id, e.score) for e in context.items][:10]
    assert any("nurse" in i.value["text"] for i in found)
    for item, entry in zip(found, context.items, strict=False):
        assert item.namespace == ANA
        assert (item.value["level"], item.value["block"]) == (entry.level, entry.block)
        assert item.value["time"] == entry.time.isoformat()
        assert None not in item.value.values()


def test_search_values_keep_what_was_put(graph_store):
    graph_store.put(ANA, "fact-1", {"content": "Lea is a nurse.", "topic": "family"})
    (item,) = graph_store.search(ANA, query="nurse")
    assert item.key == "fact-1" and item.value["content"] == "Lea is a nurse."
    assert item.value["topic"] == "family" and item.value["level"] == 0


def test_search_filters_and_pages(graph_store, memory_store):
    memory_store.add("memories/ana", all_messages())
    everything = graph_store.search(ANA, query="Lea Lisbon Acme", limit=50)
    bens = graph_store.search(ANA, query="Lea Lisbon Acme", filter={"speaker": "Ben"}, limit=50)
    assert bens == [i for i in everything if i.value.get("speaker") == "Ben"] and bens
    quotes = graph_store.search(ANA, query="Lea Lisbon Acme", filter={"level": {"$lte": 0}})
    assert quotes and all(i.value["level"] == 0 for i in quotes)
    assert graph_store.search(ANA, query="Lea Lisbon Acme", limit=2, offset=1) == everything[1:3]
    with pytest.raises(ValueError, match=r"Unsupported filter operator '\$near'; use one of"):
        graph_store.search(ANA, query="Lea", filter={"level": {"$near": 0}})


def test_search_without_a_query_gives_the_newest_messages_first(graph_store, memory_store):
    memory_store.add("memories/ana", all_messages())
    recent = graph_store.search(ANA, limit=3)
    assert [i.value["text"] for i in recent] == [m["text"] for m in all_messages()[::-1][:3]]
    assert all(i.score is None and i.created_at > EPOCH for i in recent)


def test_a_prefix_searches_its_namespaces_and_not_a_longer_name(graph_store, memory_store):
    memory_store.add("memories/ana", ["Ana: my sister is a nurse too."])
    memory_store.add("memories/ana/work", ["Ana: the nurse rota changed."])
    memory_store.add("memories/anabel", ["Anabel: I am a nurse."])
    found = graph_store.search(ANA, query="nurse")
    assert {i.namespace for i in found} == {ANA, ("memories", "ana", "work")}
    assert [i.score for i in found] == sorted((i.score for i in found), reverse=True)
    assert graph_store.search(("memories", "nobody"), query="nurse") == []


# --- batches, async -----------------------------------------------------------------------


def test_a_batch_runs_in_order_and_answers_each_op(graph_store):
    results = graph_store.batch(
        [
            GetOp(ANA, "k1"),
            PutOp(ANA, "k1", {"text": "one"}),
            PutOp(ANA, "k2", {"text": "two"}),
            GetOp(ANA, "k1"),
            SearchOp(ANA, limit=5),
            ListNamespacesOp(),
        ]
    )
    assert results[0] is None and results[1:3] == [None, None]
    assert results[3].value == {"text": "one"}
    assert [i.key for i in results[4]] == ["k2", "k1"]
    assert results[5] == [ANA]


async def test_the_async_methods_give_what_the_sync_ones_give(graph_store, memory_store):
    memory_store.add("memories/ana", all_messages())
    await graph_store.aput(ANA, "fact-1", {"text": "Lea is a nurse."})
    assert (await graph_store.aget(ANA, "fact-1")) == graph_store.get(ANA, "fact-1")
    assert await graph_store.asearch(ANA, query="nurse") == graph_store.search(ANA, query="nurse")
    assert await graph_store.alist_namespaces() == [ANA]


# --- a real agent with LangMem's tools ------------------------------------------------------


class ScriptedChatModel(GenericFakeChatModel):
    """A chat model that answers from a script (tool calls included) and keeps every prompt."""

    received: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any):
        self.received.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def call(name: str, **args: Any) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call-{name}"}])


def test_a_langgraph_agent_with_langmem_tools_remembers_across_threads(memory_store):
    langmem = pytest.importorskip("langmem")
    agents = pytest.importorskip("langchain.agents")
    store = HierarchicalMemoryStore(memory_store, max_tokens=300)
    namespace = ("memories", "{user_id}")
    tools = [
        langmem.create_manage_memory_tool(namespace=namespace),
        langmem.create_search_memory_tool(namespace=namespace),
    ]
    config = {"configurable": {"user_id": "ana"}}
    fact = "Ana's friend Ben has a sister, Lea, who is a nurse at the city hospital."

    writer = ScriptedChatModel(messages=iter([call("manage_memory", content=fact), "Noted."]))
    agent = agents.create_agent(writer, tools, store=store)
    agent.invoke({"messages": [{"role": "user", "content": "Remember: " + fact}]}, config)
    (stored,) = memory_store.messages("memories/ana")
    assert stored.text == fact and store.get(ANA, stored.id).value == {"content": fact}

    reader = ScriptedChatModel(
        messages=iter([call("search_memory", query="What does Lea do?"), "She is a nurse."])
    )
    agent = agents.create_agent(reader, tools, store=store)
    result = agent.invoke({"messages": [{"role": "user", "content": "What does Lea do?"}]}, config)
    assert result["messages"][-1].content == "She is a nurse."
    tool_reply = next(m for m in reader.received[-1] if isinstance(m, ToolMessage))
    (memory,) = json.loads(tool_reply.content)
    assert memory["key"] == stored.id and memory["namespace"] == list(ANA)
    assert memory["value"]["content"] == fact and memory["score"] > 0


def test_langmem_updates_add_a_version_and_deletes_forget_them(memory_store):
    langmem = pytest.importorskip("langmem")
    store = HierarchicalMemoryStore(memory_store)
    manage = langmem.create_manage_memory_tool(namespace=ANA, store=store)
    created = manage.invoke({"content": "The launch is in March."})
    key = created.split()[-1]
    assert manage.invoke({"content": "The launch moves to April.", "action": "update", "id": key})
    assert store.get(ANA, key).value == {"content": "The launch moves to April."}
    assert [i.text for i in memory_store.messages("memories/ana")] == [
        "The launch is in March.",
        "The launch moves to April.",
    ]
    manage.invoke({"action": "delete", "id": key})
    assert store.get(ANA, key) is None
    assert memory_store.messages("memories/ana") == []


def test_get_reads_a_summary_that_search_showed(graph_store, memory_store):
    memory_store.add("memories/ana", all_messages())
    memory_store.flush("memories/ana")
    found = graph_store.search(ANA, query="What did we talk about?", limit=50)
    summary = next(item for item in found if item.value["level"] > 0)
    got = graph_store.get(ANA, summary.key)
    assert got.key == summary.key and got.value["text"] == summary.value["text"]
    assert got.created_at == summary.created_at


@pytest.mark.parametrize("module", [langgraph_store, langgraph_values])
def test_the_docstring_examples_hold(module) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed


async def test_concurrent_puts_lose_nothing(graph_store, memory_store):
    await asyncio.gather(
        *(
            graph_store.aput(ANA, f"k{n}", {"text": f"Erinnerung {n}: 旅行 à Lisbonne"})
            for n in range(12)
        )
    )
    assert sorted(i.id for i in memory_store.messages("memories/ana")) == sorted(
        f"k{n}" for n in range(12)
    )
    assert graph_store.get(ANA, "k7").value == {"text": "Erinnerung 7: 旅行 à Lisbonne"}


def test_a_huge_value_and_an_overlong_namespace(graph_store):
    text = "Lea works night shifts. " * 5000
    graph_store.put(ANA, "long", {"text": text})
    assert graph_store.get(ANA, "long").value["text"] == text
    with pytest.raises(StoreError, match=r"keep it to 512"):
        graph_store.put(("memories", "x" * 600), "k", {"text": "hello"})
