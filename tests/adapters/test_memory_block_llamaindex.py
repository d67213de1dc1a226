"""A memory store as a block of LlamaIndex's real ``Memory``, and in a real ``FunctionAgent``."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ImageBlock
from llama_index.core.llms import ChatMessage, MockFunctionCallingLLM
from llama_index.core.memory import Memory, StaticMemoryBlock
from rerank_plus.memory.context.pieces import context_pieces
from rerank_plus.selection.budget import approximate_tokens

from llamaindex_rerank_plus import HierarchicalMemoryBlock, aflush_session
from tests.adapters.memory_chat import FIRST_DAY, all_messages, session_messages
from tests.adapters.memory_meeting import TURNS, turn_time

NOW = FIRST_DAY + timedelta(days=30)
SISTER = "What does Ben's sister do?"


class ScriptedLLM:
    """The replies an agent's LLM gives, in order, and every message list it was sent."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.received: list[list[ChatMessage]] = []

    def __call__(self, messages: Sequence[ChatMessage], **kwargs) -> ChatMessage:
        self.received.append(list(messages))
        return ChatMessage(role="assistant", content=self.replies.pop(0))

    def llm(self) -> MockFunctionCallingLLM:
        return MockFunctionCallingLLM(response_generator=self)


def prompt_text(messages: Sequence[ChatMessage]) -> str:
    return "\n".join(message.content or "" for message in messages)


def test_the_block_is_a_real_memory_block_with_its_settings(memory_store):
    block = HierarchicalMemoryBlock(memory_store, namespace="ana", max_tokens=300)
    memory = Memory.from_defaults(session_id="s1", memory_blocks=[block])
    assert memory.memory_blocks == [block]
    assert (block.name, block.priority, block.max_tokens) == ("HierarchicalMemory", 1, 300)
    assert "store" not in block.model_dump()  # a connection does not serialize


async def test_flushed_messages_are_added_to_the_namespace(memory_store):
    block = HierarchicalMemoryBlock(memory_store, namespace="ana")
    memory = Memory.from_defaults(
        session_id="session-1",
        token_limit=60,
        chat_history_token_ratio=0.5,
        token_flush_size=20,
        memory_blocks=[block],
    )
    for message in session_messages(0):
        role = "user" if message["speaker"] == "Ana" else "assistant"
        await memory.aput(ChatMessage(role=role, content=message["text"]))
    await memory.aput(ChatMessage(role="system", content="You are a friendly assistant."))
    stored = memory_store.messages("ana")
    flushed = [m for m in await memory.aget_all() if m.role.value in ("user", "assistant")]
    assert stored, "the Memory flushed nothing: raise the chat or lower token_limit"
    assert [item.text for item in stored] == [m.content for m in flushed][: len(stored)]
    assert {item.speaker for item in stored} <= {"user", "assistant"}
    assert {item.source for item in stored} == {"session-1"}
    assert all(item.time is not None for item in stored)


async def test_aget_composes_the_context_for_the_last_user_message(memory_store):
    memory_store.add("ana", all_messages())
    block = HierarchicalMemoryBlock(memory_store, namespace="ana", max_tokens=200, now=NOW)
    messages = [
        ChatMessage(role="user", content="Hi again"),
        ChatMessage(role="assistant", content="Hello!"),
        ChatMessage(role="user", content=SISTER),
    ]
    content = await block.aget(messages, session_id="session-3")
    expected = memory_store.retrieve("ana", SISTER, max_tokens=200, now=NOW)
    assert content == expected.text and "nurse" in content
    assert approximate_tokens(content) <= 200


async def test_without_a_namespace_the_session_is_the_namespace(memory_store):
    memory_store.add("session-9", all_messages())
    block = HierarchicalMemoryBlock(memory_store, now=NOW)
    assert "nurse" in await block.aget(
        [ChatMessage(role="user", content=SISTER)], session_id="session-9"
    )
    await block.aput([ChatMessage(role="user", content="Lea moved to Lyon.")], session_id="s2")
    assert [item.text for item in memory_store.messages("s2")] == ["Lea moved to Lyon."]


async def test_nothing_to_ask_or_nothing_stored_gives_no_block(memory_store):
    block = HierarchicalMemoryBlock(memory_store, namespace="nobody", now=NOW)
    assert await block.aget([ChatMessage(role="user", content=SISTER)]) == ""
    memory_store.add("ana", all_messages())
    ana = HierarchicalMemoryBlock(memory_store, namespace="ana", now=NOW)
    assert await ana.aget([]) == ""
    assert await ana.aget([ChatMessage(role="assistant", content="Anything else?")]) == ""
    assert await ana.aget([ChatMessage(role="user", content="   ")]) == ""


def long_meeting() -> list[dict[str, str]]:
    """60 turns: a memory deep enough for an overview (level 2) above its extracts."""
    turns = TURNS * 4
    return [
        {"speaker": speaker, "text": text, "time": turn_time(n).isoformat()}
        for n, (speaker, text) in enumerate(turns)
    ]


SUMMARY = "Summarize the meeting"


async def test_atruncate_sheds_quotes_then_extracts_then_the_overview(memory_store):
    memory_store.add("team", long_meeting())
    memory_store.flush("team")  # the overview and extracts
    block = HierarchicalMemoryBlock(
        memory_store, namespace="team", max_tokens=400, intent="synthesis"
    )
    content = await block.aget([ChatMessage(role="user", content=SUMMARY)])
    context = memory_store.retrieve("team", SUMMARY, max_tokens=400, intent="synthesis")
    pieces = context_pieces(context)
    assert content == context.text
    assert [p.block for p in pieces][:2] == ["overview", "extracts"] and pieces[
        -1
    ].block == "quotes"
    total = approximate_tokens(content)
    for asked in range(0, total + 1, 7):
        shorter = await block.atruncate(content, asked)
        if shorter is None:
            assert asked > 0
            continue
        assert total - approximate_tokens(shorter) >= asked
        kept = {
            p.block: [q for q in pieces if q.block == p.block and q.text in shorter] for p in pieces
        }
        if len(kept["extracts"]) < sum(p.block == "extracts" for p in pieces):
            assert not kept["quotes"]  # extracts go only once every quote is gone
        if not kept["overview"]:
            assert not kept["extracts"] and not kept["quotes"]
    assert await block.atruncate(content, total + 1) is None
    assert await block.atruncate("a text this block never composed", 5) is None


async def test_memory_truncates_the_block_when_the_chat_needs_the_room(memory_store):
    memory_store.add("team", long_meeting())
    memory_store.flush("team")  # the overview and extracts
    block = HierarchicalMemoryBlock(
        memory_store, namespace="team", max_tokens=400, intent="synthesis"
    )
    whole = await block.aget([ChatMessage(role="user", content=SUMMARY)])
    memory = Memory.from_defaults(session_id="s", token_limit=10_000, memory_blocks=[block])
    await memory.aput(ChatMessage(role="user", content=SUMMARY))
    roomy = prompt_text(await memory.aget())
    needed = len(memory.tokenizer_fn(whole)) + len(memory.tokenizer_fn(SUMMARY))
    memory.token_limit = needed - 40
    tight = prompt_text(await memory.aget())
    assert whole in roomy and whole not in tight
    assert "Overview (summaries):" in tight and len(tight) < len(roomy)
    assert SUMMARY in tight  # the chat kept its room


async def test_a_function_agent_recalls_an_earlier_session(memory_store):
    """Session 1 runs through a real agent (its oldest turns flush into the store, the rest at
    its end); session 2, a new Memory on the same user namespace, sends the LLM what
    session 1 said."""
    block = HierarchicalMemoryBlock(memory_store, namespace="ana", max_tokens=300)

    def session(session_id: str) -> Memory:
        return Memory.from_defaults(
            session_id=session_id,
            token_limit=80,
            chat_history_token_ratio=0.5,
            token_flush_size=30,
            memory_blocks=[block, StaticMemoryBlock(static_content="The user is Ana.")],
        )

    said = [
        "I started the new job at Acme Robotics on Monday.",
        "I calibrate the welding arms on the assembly line.",
        "Ben's sister Lea just became a nurse at the city hospital.",
    ]
    first = ScriptedLLM("Congratulations!", "Sounds precise.", "Good news for Lea!")
    agent = FunctionAgent(llm=first.llm(), tools=[], system_prompt="You are Ana's assistant.")
    earlier = session("ana-1")
    for text in said:
        await agent.run(text, memory=earlier)
    flushed_during = [item.text for item in memory_store.messages("ana")]
    assert said[0] in flushed_during and said[-1] not in flushed_during  # still in the Memory
    assert await aflush_session(earlier) > 0
    assert await aflush_session(earlier) == 0  # handed over once
    stored = memory_store.messages("ana")
    assert [item.text for item in stored if item.speaker == "user"] == said
    assert {item.source for item in stored} == {"ana-1"}

    second = ScriptedLLM("She is a nurse at the city hospital.")
    agent = FunctionAgent(llm=second.llm(), tools=[], system_prompt="You are Ana's assistant.")
    answer = await agent.run("What does Lea do?", memory=session("ana-2"))
    assert str(answer) == "She is a nurse at the city hospital."
    (sent,) = second.received
    memory_text = next(m.content for m in sent if "<HierarchicalMemory>" in (m.content or ""))
    assert said[-1] in memory_text and "The user is Ana." in memory_text
    assert sent[-1].content == "What does Lea do?"


def test_bad_settings_are_explained(memory_store):
    with pytest.raises(ValueError, match=r"store must be a rerank_plus MemoryStore, got str"):
        HierarchicalMemoryBlock("sqlite:///memory.db")
    with pytest.raises(ValueError, match=r"max_tokens"):
        HierarchicalMemoryBlock(memory_store, max_tokens=0)


async def test_a_block_without_namespace_or_session_says_what_to_pass(memory_store):
    block = HierarchicalMemoryBlock(memory_store)
    with pytest.raises(ValueError, match=r"has no namespace and the Memory gave no session_id"):
        await block.aget([ChatMessage(role="user", content=SISTER)])


async def test_concurrent_sessions_lose_no_turn(memory_store):
    """Eight sessions of one user flushing at once: every turn stored, each batch in order."""
    block = HierarchicalMemoryBlock(memory_store, namespace="ana")
    batches = [
        [
            ChatMessage(role="user", content=f"Session {s}, turn {t}: bonjour, día {t}, 日本語")
            for t in range(5)
        ]
        for s in range(8)
    ]
    await asyncio.gather(
        *(block.aput(batch, session_id=f"s{n}") for n, batch in enumerate(batches))
    )
    stored = memory_store.messages("ana")
    assert len(stored) == 40
    for n in range(8):
        mine = [item.text for item in stored if item.source == f"s{n}"]
        assert mine == [message.content for message in batches[n]]
    answer = await block.aget([ChatMessage(role="user", content="Que s'est-il dit en session 3 ?")])
    assert "Session 3" in answer


async def test_messages_without_text_are_not_stored(memory_store):
    block = HierarchicalMemoryBlock(memory_store, namespace="ana")
    await block.aput(
        [
            ChatMessage(role="user", blocks=[ImageBlock(url="https://example.org/cat.png")]),
            ChatMessage(role="assistant", content=""),
            ChatMessage(role="tool", content="{'result': 42}"),
            ChatMessage(role="system", content="Be brief."),
        ]
    )
    assert memory_store.messages("ana") == []
