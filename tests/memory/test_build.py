"""build_memory with the offline extractive summarizer: windows, levels, verbatim summaries,
covers, signals, entities, bad input. Real analyzer, no model."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from rerank_plus.memory import Memory, MemoryFormatError, MemoryWriter
from rerank_plus.memory.ingest import BuildSettings, ExtractiveSummarizer, build_memory
from rerank_plus.memory.model.sentences import split_sentences, word_count

from tests.memory.build_chats import START, topic_chat


@pytest.fixture(scope="module")
def chat() -> list[dict]:
    return topic_chat()


@pytest.fixture(scope="module")
def chat_memory(chat: list[dict]) -> Memory:
    return build_memory(chat)


def source_sentences(messages: list[dict]) -> set[str]:
    return {sentence for message in messages for sentence in split_sentences(message["text"])}


def test_a_150_message_chat_gets_two_summary_levels(chat_memory: Memory) -> None:
    assert len(chat_memory.messages) == 150
    assert chat_memory.depth >= 3
    assert len(chat_memory.level(chat_memory.depth - 1)) <= 4


def test_every_summary_sentence_is_a_source_sentence(chat: list[dict], chat_memory: Memory) -> None:
    sources = source_sentences(chat)
    for item in chat_memory.items:
        if item.level:
            assert item.text
            assert set(split_sentences(item.text)) <= sources, item.id


def test_summaries_name_no_one_the_sources_do_not(chat: list[dict], chat_memory: Memory) -> None:
    said = {word for message in chat for word in re.findall(r"\w+", message["text"])}
    for item in chat_memory.items:
        assert set(re.findall(r"\w+", item.text)) <= said


def test_each_level_covers_the_level_below_once_in_order(chat_memory: Memory) -> None:
    for level in range(1, chat_memory.depth):
        covered = [cover for item in chat_memory.level(level) for cover in item.covers]
        assert covered == [item.id for item in chat_memory.level(level - 1)]
        assert [item.id for item in chat_memory.level(level)] == [
            f"L{level}.{index}" for index in range(len(chat_memory.level(level)))
        ]


def test_summaries_carry_times_anchors_speakers_themes_and_omissions(
    chat: list[dict], chat_memory: Memory
) -> None:
    for item in chat_memory.items:
        if not item.level:
            continue
        messages = chat_memory.descendants(item.id)
        signals = item.signals
        assert item.time == messages[0].time and item.end_time == messages[-1].time
        assert (signals["first_index"], signals["last_index"]) == (
            messages[0].index,
            messages[-1].index,
        )
        assert signals["messages"] == len(messages)
        assert signals["words"] == sum(word_count(m.text) for m in messages)
        assert signals["start"] == messages[0].time.isoformat()
        assert set(signals["speakers"]) <= {"Ann", "Bob", "Chloé"}
        assert signals["themes"] and item.tags[: len(signals["themes"])] == signals["themes"]
        extras = item.extras
        assert extras["summarizer"] == "extractive"
        assert extras["kept_sentences"] == len(split_sentences(item.text))
        assert extras["omitted_sentences"] == extras["source_sentences"] - extras["kept_sentences"]
    assert chat_memory.level(1)[0].signals["opened_by"] == "start"


def test_summaries_stay_within_their_word_budget(chat_memory: Memory) -> None:
    settings = BuildSettings()
    for item in chat_memory.items:
        if item.level and len(split_sentences(item.text)) > 1:
            assert word_count(item.text) <= settings.summary_budget(item.signals["words"])


def test_windows_cut_at_topic_shifts(chat: list[dict], chat_memory: Memory) -> None:
    starts = {
        item.signals["first_index"]: item.signals["opened_by"] for item in chat_memory.level(1)
    }
    assert starts[50] == "topic shift" and starts[100] == "topic shift"
    for window in chat_memory.level(1):
        topics = {chat[m.index]["topic"] for m in chat_memory.children(window.id)}
        assert len(topics) == 1, window.id


def test_windows_cut_at_time_gaps() -> None:
    chat = topic_chat(gap_after=20)
    memory = build_memory(chat, time_gap=timedelta(hours=1))
    gap = [item for item in memory.level(1) if item.signals["opened_by"] == "time gap"]
    assert [item.signals["first_index"] for item in gap] == [21]
    assert gap[0].time == START + timedelta(minutes=40, hours=3)


def test_windows_cut_at_the_size_limit(chat: list[dict]) -> None:
    memory = build_memory(chat, window_words=40, min_window_words=40, shift_ratio=0.0)
    for window in memory.level(1):
        assert window.signals["words"] <= 40
        assert window.signals["opened_by"] in ("start", "size")
    assert len(memory.level(1)) >= sum(word_count(m["text"]) for m in chat) // 40


def test_rule_entities_and_hashtags_fill_items_without_any(chat_memory: Memory) -> None:
    dana = next(m for m in chat_memory.messages if "Dana" in m.text)
    assert dana.entities["others"] == ("Dana Whitfield",)
    assert dana.entities["people"] == (dana.speaker,)
    budget = next(m for m in chat_memory.messages if "12,000" in m.text)
    assert budget.entities["numbers"] == ("12,000 euros",)
    window = chat_memory.parents(dana.id)[0]
    assert "Dana Whitfield" in window.entities["others"]
    assert set(window.entities["people"]) <= {"Ann", "Bob", "Chloé"}
    tagged = build_memory([{"text": "Ship it #release @bob", "tags": []}]).messages[0]
    assert tagged.tags == ("release",) and tagged.entities["people"] == ("bob",)
    given = build_memory([{"text": "Ship it #release", "entities": {"teams": ["web"]}}])
    assert dict(given.messages[0].entities) == {"teams": ("web",)}
    off = build_memory(["Ship it #release with Dana Whitfield"], extract_entities=False)
    assert not off.messages[0].entities and not off.messages[0].tags


def test_an_empty_list_gives_an_empty_memory() -> None:
    memory = build_memory([])
    assert memory.depth == 0 and len(memory) == 0


def test_one_message_gets_one_window() -> None:
    memory = build_memory(["We ship the release on Thursday after the QA pass."])
    assert memory.depth == 2
    assert memory.level(1)[0].text == "We ship the release on Thursday after the QA pass."


def test_emoji_only_messages_build_and_keep_their_text() -> None:
    memory = build_memory(["🎉🎉", "👍", "😀 😀 😀"])
    assert memory.depth == 2
    summary = memory.level(1)[0]
    assert set(split_sentences(summary.text)) <= {"🎉🎉", "👍", "😀 😀 😀"}
    assert summary.text


def test_mixed_languages_are_read_per_message_and_kept_verbatim() -> None:
    messages = [
        "Nous réservons la salle de Lyon pour le séminaire de mars.",
        "The Lyon venue confirmed the seminar dates in March.",
        "Le budget du séminaire est de 9000 euros pour deux jours.",
        "The seminar budget covers hotel rooms and catering.",
        "会议室已经预订好了。三月见。",
    ] * 6
    writer = MemoryWriter.build(messages, window_words=40, min_window_words=15)
    memory, builder = writer.memory, writer.builder
    assert builder.languages(messages[:2]) == ["fr", "en"]
    assert memory.depth >= 3
    sources = {s for text in messages for s in split_sentences(text)}
    for item in memory.items:
        assert set(split_sentences(item.text)) <= sources


def test_fillers_are_skipped_unless_nothing_else_is_said() -> None:
    memory = build_memory(
        ["ok", "Yeah , right .", "The venue in Lyon wants the deposit before Friday.", "👍"]
    )
    assert memory.level(1)[0].text == "The venue in Lyon wants the deposit before Friday."
    only_fillers = build_memory(["ok", "yes"]).level(1)[0].text
    assert only_fillers and set(split_sentences(only_fillers)) <= {"ok", "yes"}


def test_transcript_annotations_do_not_make_a_sentence() -> None:
    memory = build_memory(
        [
            "{vocalsound} So {disfmarker} um {gap} .",
            "We agreed the remote control costs twenty five Euros .",
        ]
    )
    assert memory.level(1)[0].text == "We agreed the remote control costs twenty five Euros ."


def test_extractive_summarizer_keeps_central_sentences_in_original_order() -> None:
    chat = topic_chat(per_topic=10)
    memory = build_memory(chat, summarizer=ExtractiveSummarizer(redundancy=0.0))
    for item in memory.level(1):
        orders = [
            next(m.index for m in memory.children(item.id) if sentence in m.text)
            for sentence in split_sentences(item.text)
        ]
        assert orders == sorted(orders)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"window_words": 0}, r"window_words must be an int >= 1, got 0"),
        ({"fan_out": 1}, r"fan_out must be at least 2 \(each level must shrink\)"),
        ({"min_window_words": 500}, r"min_window_words must be an int between 0 and"),
        ({"time_gap": 30}, r"time_gap must be a positive timedelta"),
        ({"summary_min_words": 200}, r"summary_min_words \(200\) is above summary_max_words"),
        ({"shift_ratio": -1}, r"shift_ratio must be a number >= 0"),
        ({"on_summary_error": "ignore"}, r"on_summary_error must be one of raise, extractive"),
    ],
)
def test_bad_settings_say_what_is_allowed(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_memory(["hello"], **options)


def test_bad_messages_and_summarizers_are_named() -> None:
    with pytest.raises(MemoryFormatError, match=r"messages\[1\]\.text must be a str, got int"):
        build_memory(["ok", {"text": 3}])
    with pytest.raises(MemoryFormatError, match=r"messages\[0\]\.id 'L1\.0' is an id the build"):
        build_memory([{"text": "ok", "id": "L1.0"}])
    with pytest.raises(MemoryFormatError, match=r"messages\[0\]\.time: 'soon' is not a time"):
        build_memory([{"text": "ok", "time": "soon"}])
    with pytest.raises(TypeError, match=r"cannot summarize with int; pass an Extractive"):
        build_memory(["ok"], summarizer=3)
    with pytest.raises(ValueError, match=r"redundancy must be between 0 and 1"):
        ExtractiveSummarizer(redundancy=2)


@pytest.mark.slow
def test_fifty_thousand_messages_build() -> None:
    chat = topic_chat(per_topic=16_667)[:50_000]
    memory = build_memory(chat)
    assert len(memory.messages) == 50_000
    assert len(memory.level(memory.depth - 1)) <= 4
    assert sum(len(item.covers) for item in memory.level(1)) == 50_000
