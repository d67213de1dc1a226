"""A store namespace as LangChain's chat history, under a real RunnableWithMessageHistory."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables import RunnableLambda
from langchain_core.runnables.history import RunnableWithMessageHistory
from pydantic import Field

from langchain_rerank_plus import MemoryChatMessageHistory, MemoryDocumentRetriever
from tests.adapters.memory_chat import all_messages

pytestmark = pytest.mark.filterwarnings("ignore:.*RunnableWithMessageHistory is deprecated")


class RecordingChatModel(GenericFakeChatModel):
    """A fake chat model that keeps every prompt it was sent."""

    received: list[list[BaseMessage]] = Field(default_factory=list)

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any):
        self.received.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


TURN = [
    SystemMessage("You are Ana's assistant."),
    HumanMessage("I started at Acme Robotics on Monday.", name="Ana"),
    AIMessage(
        "",
        tool_calls=[{"name": "remember", "args": {"fact": "Acme"}, "id": "call-1"}],
    ),
    ToolMessage("remembered", tool_call_id="call-1"),
    AIMessage("Congratulations!", additional_kwargs={"time": "2024-05-02T18:01:00+00:00"}),
]


def test_messages_come_back_as_they_were_added(memory_store):
    history = MemoryChatMessageHistory(memory_store, "ana/s1")
    history.add_messages(TURN)
    assert history.messages == TURN
    stored = memory_store.messages("ana/s1")
    assert [item.speaker for item in stored] == ["system", "Ana", "assistant", "tool", "assistant"]
    assert [item.text for item in stored][1] == "I started at Acme Robotics on Monday."
    assert stored[-1].time.isoformat() == "2024-05-02T18:01:00+00:00"
    assert all(item.time is not None for item in stored)


def test_last_reads_only_the_newest_messages(memory_store):
    MemoryChatMessageHistory(memory_store, "ana/s1").add_messages(TURN)
    assert MemoryChatMessageHistory(memory_store, "ana/s1", last=2).messages == TURN[-2:]
    assert MemoryChatMessageHistory(memory_store, "ana/s1", last=99).messages == TURN


def test_messages_added_otherwise_read_as_human_and_ai(memory_store):
    memory_store.add(
        "ana",
        [
            {"text": "hello", "speaker": "user"},
            {"text": "hi, how can I help?", "speaker": "assistant"},
            {"text": "My sister Lea is a nurse.", "speaker": "Ben"},
            "a line without a speaker",
        ],
    )
    read = MemoryChatMessageHistory(memory_store, "ana").messages
    assert [type(m) for m in read] == [HumanMessage, AIMessage, HumanMessage, HumanMessage]
    assert [m.name for m in read] == [None, None, "Ben", None]
    assert [m.content for m in read][2] == "My sister Lea is a nurse."


async def test_the_async_methods_do_the_same(memory_store):
    history = MemoryChatMessageHistory(memory_store, "ana/s1")
    await history.aadd_messages(TURN[:2])
    await history.aadd_messages(TURN[2:])
    assert await history.aget_messages() == TURN
    await history.aclear()
    assert await history.aget_messages() == []


def test_clear_deletes_the_namespace_and_only_it(memory_store):
    MemoryChatMessageHistory(memory_store, "ana/s1").add_messages(TURN)
    MemoryChatMessageHistory(memory_store, "ana/s2").add_messages(TURN[:2])
    MemoryChatMessageHistory(memory_store, "ana/s1").clear()
    assert "ana/s1" not in memory_store.namespaces()
    assert MemoryChatMessageHistory(memory_store, "ana/s1").messages == []
    assert MemoryChatMessageHistory(memory_store, "ana/s2").messages == TURN[:2]


def test_an_empty_turn_adds_nothing(memory_store):
    MemoryChatMessageHistory(memory_store, "ana/s1").add_messages([])
    assert "ana/s1" not in memory_store.namespaces()


def chat_chain(model: RecordingChatModel):
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "You are Ana's assistant."),
            MessagesPlaceholder("history"),
            ("human", "{question}"),
        ]
    )
    return prompt | model


def test_runnable_with_message_history_keeps_the_session_in_the_store(memory_store):
    model = RecordingChatModel(messages=iter(["Congratulations!", "At Acme Robotics."]))
    chain = RunnableWithMessageHistory(
        chat_chain(model),
        lambda session_id: MemoryChatMessageHistory(memory_store, f"ana/{session_id}"),
        input_messages_key="question",
        history_messages_key="history",
    )
    config = {"configurable": {"session_id": "s1"}}
    chain.invoke({"question": "I started at Acme Robotics on Monday."}, config=config)
    answer = chain.invoke({"question": "Where do I work?"}, config=config)
    assert answer.content == "At Acme Robotics."
    second_prompt = [m.content for m in model.received[1]]
    assert second_prompt == [
        "You are Ana's assistant.",
        "I started at Acme Robotics on Monday.",
        "Congratulations!",
        "Where do I work?",
    ]
    stored = memory_store.messages("ana/s1")
    assert [(i.speaker, i.text) for i in stored][-1] == ("assistant", "At Acme Robotics.")
    assert len(stored) == 4


def test_a_later_session_recalls_what_fell_out_of_the_recent_history(memory_store):
    """One namespace per user: the prompt shows the last few messages, and a retriever over
    the same namespace brings back what an earlier session said."""
    memory_store.add("ana", all_messages())
    model = RecordingChatModel(messages=iter(["She is a nurse at the city hospital."]))
    recall = MemoryDocumentRetriever.from_store(memory_store, "ana", max_tokens=150)
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "What you remember:\n{memory}"),
            MessagesPlaceholder("history"),
            ("human", "{question}"),
        ]
    )
    remembered = RunnableLambda(
        lambda inputs: "\n".join(d.page_content for d in recall.invoke(inputs["question"]))
    )
    chain = RunnableWithMessageHistory(
        {
            "memory": remembered,
            "history": lambda inputs: inputs["history"],
            "question": lambda inputs: inputs["question"],
        }
        | prompt
        | model,
        lambda session_id: MemoryChatMessageHistory(memory_store, "ana", last=2),
        input_messages_key="question",
        history_messages_key="history",
    )
    chain.invoke({"question": "What does Lea do?"}, config={"configurable": {"session_id": "3"}})
    (sent,) = model.received
    assert "Ben: My sister Lea just became a nurse at the city hospital." in sent[0].content
    assert [m.content for m in sent[1:3]] == [m["text"] for m in all_messages()[-2:]]
    assert memory_store.messages("ana")[-1].text == "She is a nurse at the city hospital."


def test_bad_input_is_explained(memory_store):
    with pytest.raises(TypeError, match=r"store must be a rerank_plus MemoryStore, got dict"):
        MemoryChatMessageHistory({}, "ana")
    with pytest.raises(ValueError, match=r"namespace must be a non-empty str, got None"):
        MemoryChatMessageHistory(memory_store, None)
    with pytest.raises(ValueError, match=r"last must be a positive int or None, got 0"):
        MemoryChatMessageHistory(memory_store, "ana", last=0)
    with pytest.raises(TypeError, match=r"must be LangChain messages .*, got str"):
        MemoryChatMessageHistory(memory_store, "ana").add_messages(["hello"])
    assert "ana" not in memory_store.namespaces()  # nothing half-added


async def test_concurrent_turns_lose_no_message(memory_store):
    turns = [
        [HumanMessage(f"Frage {n}: ¿dónde está Lea?"), AIMessage(f"Réponse {n} : à Lyon.")]
        for n in range(10)
    ]
    history = MemoryChatMessageHistory(memory_store, "ana")
    await asyncio.gather(*(history.aadd_messages(turn) for turn in turns))
    read = await history.aget_messages()
    assert len(read) == 20
    for turn in turns:  # each turn whole and in order
        at = read.index(turn[0])
        assert read[at + 1] == turn[1]
