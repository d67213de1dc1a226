"""The memory as a Semantic Kernel function, invoked through a real kernel."""

from __future__ import annotations

import pytest

pytest.importorskip("semantic_kernel")

from rerank_plus.memory.retriever import MemoryRetriever
from semantic_kernel import Kernel
from semantic_kernel.exceptions import KernelInvokeException

from langchain_rerank_plus.memory import memory_from_parent_document_retriever
from semantic_kernel_rerank_plus.memory import MemoryPlugin
from tests.adapters.memory_chat import all_messages
from tests.adapters.memory_meeting import TURNS, turn_time
from tests.adapters.test_memory_langchain import meeting_retriever  # noqa: F401 (a fixture)

NOW = turn_time(len(TURNS))
PRICE = "What selling price did Ana set for the remote?"


@pytest.fixture
def memory(meeting_retriever):  # noqa: F811 (the imported fixture)
    return memory_from_parent_document_retriever(meeting_retriever)


async def recall(plugin: MemoryPlugin, **arguments):
    kernel = Kernel()
    kernel.add_plugin(plugin, plugin_name="memory")
    return await kernel.invoke(plugin_name="memory", function_name="recall", **arguments)


async def test_recall_returns_the_composed_context(memory):
    result = await recall(MemoryPlugin(memory, max_tokens=300, now=NOW), query=PRICE)
    expected = MemoryRetriever(memory).retrieve(PRICE, max_tokens=300, now=NOW)
    assert result.value == expected.text
    assert "twenty-five euros" in result.value and "Quotes" in result.value


async def test_a_call_may_set_its_budget_and_intent(memory):
    plugin = MemoryPlugin(memory, max_tokens=300, now=NOW)
    result = await recall(plugin, query=PRICE, max_tokens=120, intent="synthesis")
    expected = MemoryRetriever(memory).retrieve(PRICE, 120, intent="synthesis", now=NOW)
    assert result.value == expected.text and expected.tokens <= 120


def test_the_function_is_described_for_planners(memory):
    kernel = Kernel()
    plugin = kernel.add_plugin(MemoryPlugin(memory), plugin_name="memory")
    function = plugin["recall"]
    assert [p.name for p in function.metadata.parameters] == ["query", "max_tokens", "intent"]
    assert [p.is_required for p in function.metadata.parameters] == [True, False, False]
    assert "summaries" in function.description


async def test_bad_input_is_explained(memory):
    with pytest.raises(
        TypeError, match=r"memory must be a rerank_plus Memory or a MemoryRetriever"
    ):
        MemoryPlugin("memory.json")
    with pytest.raises(ValueError, match=r"max_tokens"):
        MemoryPlugin(memory, max_tokens="many")
    with pytest.raises(KernelInvokeException) as raised:
        await recall(MemoryPlugin(memory, now=NOW), query=PRICE, intent="gossip")
    assert "Unknown intent 'gossip'; choose one of" in str(raised.value.__cause__)


async def test_from_store_recalls_what_the_namespace_holds_at_each_call(memory_store):
    plugin = MemoryPlugin.from_store(memory_store, "ana", max_tokens=200)
    assert (await recall(plugin, query="What does Lea do?")).value == ""
    memory_store.add("ana", all_messages())
    result = await recall(plugin, query="What does Lea do?")
    expected = memory_store.retrieve("ana", "What does Lea do?", max_tokens=200)
    assert result.value == expected.text and "nurse" in result.value
    assert plugin.memory_retriever.namespace == "ana"
    with pytest.raises(TypeError, match=r"store must be a rerank_plus MemoryStore, got Kernel"):
        MemoryPlugin.from_store(Kernel(), "ana")
