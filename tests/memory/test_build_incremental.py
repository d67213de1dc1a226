"""MemoryWriter.add: the same windows and levels a rebuild gives, only the path to the top
re-summarized, untouched items kept as the same objects; loaded memories; bad messages."""

from __future__ import annotations

import operator
from datetime import timedelta

import pytest
from rerank_plus.memory import Memory, MemoryFormatError, MemoryItem
from rerank_plus.memory.ingest import MemoryWriter, build_memory
from rerank_plus.memory.model.sentences import split_sentences

from tests.memory.build_chats import topic_chat


@pytest.fixture(scope="module")
def chat() -> list[dict]:
    return topic_chat()


def shape(memory: Memory) -> list[list[tuple[str, tuple[str, ...]]]]:
    return [[(i.id, i.covers) for i in memory.level(k)] for k in range(memory.depth)]


def test_one_add_re_summarizes_only_the_path_to_the_top(chat: list[dict]) -> None:
    writer = MemoryWriter.build(chat[:120])
    memory = writer.memory
    before = {item.id: item for item in memory.items}
    stored = writer.add(chat[120])
    assert stored.id == "m120" and stored.index == 120 and memory.messages[-1] is stored
    changed = [item for item in memory.items if before.get(item.id) is not item]
    path = [stored]
    while memory.parents(path[-1].id):
        path.append(memory.parents(path[-1].id)[0])
    assert changed == path and len(path) == memory.depth
    rebuilt = build_memory(chat[:121])
    assert shape(memory) == shape(rebuilt)
    for item in changed:
        assert item.text == rebuilt.get(item.id).text
        assert item.signals == rebuilt.get(item.id).signals


def test_adding_one_by_one_gives_the_windows_and_levels_of_a_rebuild(chat: list[dict]) -> None:
    writer = MemoryWriter.build(chat[:10])
    memory = writer.memory
    assert memory.depth == 2
    for message in chat[10:]:
        writer.add(message)
    rebuilt = build_memory(chat)
    assert shape(memory) == shape(rebuilt)
    assert memory.depth >= 3
    sources = {s for message in chat for s in split_sentences(message["text"])}
    for item in memory.items:
        if item.level:
            assert set(split_sentences(item.text)) <= sources
            assert item.time == memory.descendants(item.id)[0].time
    top = memory.level(memory.depth - 1)[-1]
    assert top.text == rebuilt.get(top.id).text


def test_after_adds_the_memory_equals_one_validated_from_scratch(chat: list[dict]) -> None:
    """An add checks only what it changed; what it keeps (levels, links, item objects) is
    what a validation of the whole item list gives, one version per add."""
    writer = MemoryWriter.build(chat[:10])
    memory = writer.memory
    for message in chat[10:]:
        version = memory.version
        writer.add(message)
        assert memory.version == version + 1
        anew = Memory(memory.items)
        assert all(map(operator.is_, memory.items, anew.items))
        assert [memory.level(k) for k in range(memory.depth)] == [
            anew.level(k) for k in range(anew.depth)
        ]
        for item in memory.items:
            assert memory.parents(item.id) == anew.parents(item.id)
            assert memory.children(item.id) == anew.children(item.id)


def test_a_time_gap_opens_a_new_window_on_add(chat: list[dict]) -> None:
    writer = MemoryWriter.build(chat[:30])
    memory = writer.memory
    late = {"text": "Back from lunch: the Lyon venue confirmed.", "time": chat[29]["time"]}
    late["time"] += timedelta(hours=2)
    writer.add(late)
    window = memory.parents("m30")[0]
    assert window.covers == ("m30",) and window.signals["opened_by"] == "time gap"


def test_adding_to_an_empty_memory_and_to_a_messages_only_memory_builds_levels() -> None:
    writer = MemoryWriter.build([])
    memory = writer.memory
    writer.add("We book the Lyon venue for March.")
    assert memory.depth == 2 and memory.level(1)[0].covers == ("m0",)
    bare = Memory([MemoryItem("a", 0, 0, "We book the Lyon venue."), MemoryItem("b", 0, 1, "OK")])
    MemoryWriter(bare).add({"text": "Bob pays the deposit on Friday.", "speaker": "Bob"})
    assert bare.depth == 2 and bare.level(1)[0].covers == ("a", "b", "m2")


def test_a_memory_made_elsewhere_is_resumed_from_its_last_window(chat: list[dict]) -> None:
    built = build_memory(chat[:60])
    copy = Memory(built.items)  # a new writer: as loaded from a file
    MemoryWriter(copy).add(chat[60])
    writer = MemoryWriter.build(chat[:60])
    writer.add(chat[60])
    reference = writer.memory
    assert shape(copy) == shape(reference)
    assert copy.get("m60").entities == reference.get("m60").entities


def test_a_summary_without_coverage_signals_is_read_from_its_messages() -> None:
    items = [MemoryItem(f"m{i}", 0, i, f"Line {i} about the Lyon venue booking.") for i in range(3)]
    summary = MemoryItem("s", 1, 0, "Lyon venue.", covers=("m0", "m1", "m2"))
    memory = Memory([*items, summary])
    MemoryWriter(memory).add("Line 3 about the Lyon venue booking.")
    window = memory.parents("m3")[0]
    assert window.signals["first_index"] == 0 and window.signals["messages"] == 4


def test_a_writer_adds_with_its_own_settings() -> None:
    memory = Memory([MemoryItem("m0", 0, 0, "Hello there, we book Lyon.")])
    MemoryWriter(memory, window_words=5).add("Bob pays the deposit for the venue on Friday.")
    assert [item.covers for item in memory.level(1)] == [("m0",), ("m1",)]
    with pytest.raises(ValueError, match=r"window_words must be an int >= 1, got 0"):
        MemoryWriter(memory, window_words=0)


def test_two_writers_take_turns_on_one_memory(chat: list[dict]) -> None:
    first = MemoryWriter.build(chat[:40])
    second = MemoryWriter(first.memory)
    for n, message in enumerate(chat[40:60]):
        (first if n % 2 else second).add(message)
    assert shape(first.memory) == shape(build_memory(chat[:60]))


def test_bad_added_messages_are_named(chat: list[dict]) -> None:
    writer = MemoryWriter.build(chat[:5])
    memory = writer.memory
    with pytest.raises(MemoryFormatError, match=r"^the added message\.text must be a str"):
        writer.add({"text": 5})
    with pytest.raises(MemoryFormatError, match=r"the added message's id 'm1' is already in"):
        writer.add({"text": "again", "id": "m1"})
    with pytest.raises(MemoryFormatError, match=r"the added message\.time: 'later' is not a time"):
        writer.add({"text": "again", "time": "later"})
    with pytest.raises(MemoryFormatError, match=r"is a level-1 MemoryItem"):
        writer.add(memory.level(1)[0])
    assert len(memory.messages) == 5


def test_a_memory_with_embeddings_needs_an_embedder_to_add() -> None:
    items = [MemoryItem("m0", 0, 0, "Hello", embedding=(1.0, 0.0))]
    memory = Memory([*items, MemoryItem("s", 1, 0, "Hello", covers=("m0",), embedding=(1.0, 0.0))])
    with pytest.raises(MemoryFormatError, match=r"carry embeddings but its writer has no embedder"):
        MemoryWriter(memory).add("Hi again")
