"""Sessions: a pause longer than ``session_gap`` starts one; windows never cross one; a build
and one-by-one adds give the same memory; messages without times, out of order, alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from rerank_plus.memory import Memory, build_memory
from rerank_plus.memory.ingest import MemoryWriter

from tests.memory.build_chats import TOPICS

START = datetime(2024, 3, 4, 20, 0, tzinfo=UTC)
#: Pauses before each session after the first: a night, a long afternoon, two days.
SESSION_PAUSES = (timedelta(hours=14), timedelta(hours=5), timedelta(days=2))


def session_chat(per_session: int = 24) -> list[dict]:
    """Four sessions of ``per_session`` messages two minutes apart (one 2-hour pause inside
    the second: a new window, not a new session), the topics in turn."""
    lines = [line for topic in TOPICS.values() for line in topic]
    messages: list[dict] = []
    time = START
    for session in range(len(SESSION_PAUSES) + 1):
        if session:
            time += SESSION_PAUSES[session - 1]
        for position in range(per_session):
            if session == 1 and position == per_session // 2:
                time += timedelta(hours=2)
            index = len(messages)
            text = lines[index % len(lines)]
            messages.append({"text": text, "speaker": "AB"[index % 2], "time": time})
            time += timedelta(minutes=2)
    return messages


def sessions_of(memory: Memory) -> list[int | None]:
    """Each message's session, read from its window."""
    return [memory.parents(m.id)[0].signals.get("session") for m in memory.messages]


def snapshot(memory: Memory) -> list[tuple]:
    """Every item's place, text, times and signals, less its themes (and the tags they lead):
    a build weighs a summary's terms by the whole chat, an add by the chat up to it."""
    return [
        (
            item.id,
            item.covers,
            item.text,
            item.time,
            item.end_time,
            {key: value for key, value in item.signals.items() if key != "themes"},
        )
        for item in memory.items
    ]


@pytest.fixture(scope="module")
def chat() -> list[dict]:
    return session_chat()


def test_a_pause_longer_than_the_session_gap_starts_a_session(chat: list[dict]) -> None:
    memory = build_memory(chat)
    sessions = sessions_of(memory)
    expected = [index // 24 for index in range(len(chat))]
    assert sessions == expected
    opened = {w.signals["first_index"]: w.signals["opened_by"] for w in memory.level(1)}
    assert [opened[i] for i in (24, 48, 72)] == ["session"] * 3
    assert opened[36] == "time gap"  # two hours: a new window in the same session


def test_windows_never_cross_a_session_even_with_a_longer_time_gap(chat: list[dict]) -> None:
    memory = build_memory(chat, time_gap=timedelta(days=3), window_words=10_000)
    assert [len(memory.children(w.id)) for w in memory.level(1)] == [24, 24, 24, 24]
    assert [w.signals["session"] for w in memory.level(1)] == [0, 1, 2, 3]


def test_the_session_gap_is_a_setting(chat: list[dict]) -> None:
    memory = build_memory(chat, session_gap=timedelta(hours=1))
    assert sessions_of(memory)[-1] == 4  # the 2-hour pause is one too
    assert max(sessions_of(build_memory(chat, session_gap=timedelta(days=3)))) == 0
    with pytest.raises(ValueError, match=r"session_gap must be a positive timedelta"):
        build_memory(chat, session_gap=4)


def test_adding_one_by_one_gives_the_memory_a_build_gives(chat: list[dict]) -> None:
    writer = MemoryWriter.build(chat[:5])
    for message in chat[5:]:
        writer.add(message)
    assert snapshot(writer.memory) == snapshot(build_memory(chat))


def test_a_resumed_writer_continues_the_session_count(chat: list[dict]) -> None:
    loaded = Memory(build_memory(chat[:60]).items)  # a new writer: as loaded from a file
    writer = MemoryWriter(loaded)
    for message in chat[60:]:
        writer.add(message)
    assert sessions_of(loaded) == sessions_of(build_memory(chat))


def test_messages_without_times_have_no_sessions(chat: list[dict]) -> None:
    untimed = [{key: value for key, value in m.items() if key != "time"} for m in chat]
    memory = build_memory(untimed)
    assert all("session" not in window.signals for window in memory.level(1))


def test_times_out_of_order_do_not_start_a_session(chat: list[dict]) -> None:
    """Gaps are measured forward: a message dated a day before the one before it joins that
    session, and the next pause is measured from it."""
    shuffled = [dict(m) for m in chat[:30]]
    shuffled[10]["time"] = shuffled[9]["time"] - timedelta(days=1)
    memory = build_memory(shuffled)
    assert sessions_of(memory)[:11] == [0] * 11
    writer = MemoryWriter.build(shuffled[:3])
    writer.extend(shuffled[3:])
    assert snapshot(writer.memory) == snapshot(memory)


def test_a_session_of_one_message_is_a_window_of_its_own() -> None:
    times = [START, START + timedelta(days=1), START + timedelta(days=2)]
    memory = build_memory(
        [{"text": f"Message {i} about the venue.", "time": t} for i, t in enumerate(times)]
    )
    assert [w.covers for w in memory.level(1)] == [("m0",), ("m1",), ("m2",)]
    assert sessions_of(memory) == [0, 1, 2]
