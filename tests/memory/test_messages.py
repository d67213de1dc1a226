"""Plain message lists -> level-0 items: shapes accepted, ids, times, metadata, errors."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from rerank_plus.memory import MemoryFormatError, MemoryItem, build_memory
from rerank_plus.memory.model.messages import message_to_item, messages_to_items


def test_strings_and_mappings_become_level_zero_items_in_order() -> None:
    items = messages_to_items(
        [
            "Hello all",
            {"text": "Budget is 25 Euros", "speaker": "Ann", "id": "x1"},
            {"content": "OK for me", "role": "user"},
        ]
    )
    assert [(i.id, i.level, i.index, i.text, i.speaker) for i in items] == [
        ("m0", 0, 0, "Hello all", None),
        ("x1", 0, 1, "Budget is 25 Euros", "Ann"),
        ("m2", 0, 2, "OK for me", "user"),
    ]


def test_times_from_iso_text_datetime_date_and_epoch_are_aware() -> None:
    paris = timezone(timedelta(hours=2))
    items = messages_to_items(
        [
            {"text": "a", "time": "2024-05-01T09:30:00+02:00"},
            {"text": "b", "time": datetime(2024, 5, 1, 9, 30)},
            {"text": "c", "time": date(2024, 5, 2)},
            {"text": "d", "time": 1714550400},
        ]
    )
    assert items[0].time == datetime(2024, 5, 1, 9, 30, tzinfo=paris)
    assert items[1].time == datetime(2024, 5, 1, 9, 30, tzinfo=UTC)
    assert items[2].time == datetime(2024, 5, 2, tzinfo=UTC)
    assert items[3].time == datetime(2024, 5, 1, 8, 0, tzinfo=UTC)


def test_tags_entities_source_and_unknown_keys_are_kept() -> None:
    (item,) = messages_to_items(
        [
            {
                "text": "see the deck",
                "tags": "deck",
                "entities": {"people": ["Ann", "Bob"], "places": "Lyon"},
                "source": "slack",
                "channel": "#general",
            }
        ]
    )
    assert item.tags == ("deck",)
    assert dict(item.entities) == {"people": ("Ann", "Bob"), "places": ("Lyon",)}
    assert item.source == "slack"
    assert dict(item.extras) == {"channel": "#general"}
    (listed,) = messages_to_items([{"text": "x", "entities": ["Lyon", "Lyon", "Acme"]}])
    assert dict(listed.entities) == {"others": ("Lyon", "Acme")}


def test_integer_ids_become_text_and_memory_items_are_reindexed() -> None:
    given = MemoryItem("keep", 0, 7, "already an item")
    items = messages_to_items([{"text": "a", "id": 12}, given])
    assert [item.id for item in items] == ["12", "keep"]
    assert items[1].index == 1 and items[1].text == "already an item"


def test_empty_list_gives_no_items() -> None:
    assert messages_to_items([]) == []


@pytest.mark.parametrize(
    ("messages", "message"),
    [
        ([{"text": 42}], r"messages\[0\]\.text must be a str, got int; convert it first"),
        ([{"content": None}], r"messages\[0\]\.content must be a str, got NoneType"),
        (["ok", {"speaker": "Ann"}], r"messages\[1\] has no 'text' \(or 'content'\) key"),
        (["ok", 3.5], r"messages\[1\] is a float; give a str or a mapping with 'text'"),
        ([{"text": "a", "time": "yesterday"}], r"messages\[0\]\.time: 'yesterday' is not a time"),
        ([{"text": "a", "time": [1]}], r"messages\[0\]\.time: \[1\] is not a time"),
        ([{"text": "a", "speaker": 7}], r"messages\[0\]\.speaker must be a str or None, got int"),
        ([{"text": "a", "tags": [1]}], r"messages\[0\]\.tags\[0\] must be a str, got int"),
        ([{"text": "a", "id": ""}], r"messages\[0\]\.id must be a non-empty str"),
        (
            [{"text": "a", "id": "m1"}, "b"],
            r"messages\[1\]\.id 'm1' repeats messages\[0\]'s id",
        ),
        ([MemoryItem("s", 1, 0, "summary")], r"messages\[0\] is a level-1 MemoryItem"),
    ],
)
def test_bad_messages_are_named_with_their_field(messages: list, message: str) -> None:
    with pytest.raises(MemoryFormatError, match=message):
        messages_to_items(messages)


def test_a_single_string_or_mapping_is_not_a_list() -> None:
    with pytest.raises(MemoryFormatError, match="got one str; wrap it in a list"):
        messages_to_items("hello")
    with pytest.raises(MemoryFormatError, match="got one dict; wrap it in a list"):
        messages_to_items({"text": "hello"})


def test_message_to_item_names_the_place_it_is_given() -> None:
    with pytest.raises(MemoryFormatError, match=r"^added message\.text must be a str"):
        message_to_item({"text": b"x"}, 5, where="added message")


def test_emoji_only_and_mixed_scripts_are_plain_text() -> None:
    items = messages_to_items(["🎉🎉", "Réunion à Paris — 会议 в Москве"])
    assert [item.text for item in items] == ["🎉🎉", "Réunion à Paris — 会议 в Москве"]


@pytest.mark.parametrize(
    ("message", "message_pattern"),
    [
        (
            {"text": "Hi", "speakr": "Ana"},
            r"messages\[0\] has the key 'speakr': did you mean 'speaker'",
        ),
        ({"text": "Hi", "tiem": "2024-03-01"}, r"did you mean 'time'"),
        ({"text": "Hi", "Speaker": "Ana"}, r"has the key 'Speaker': write it 'speaker'"),
    ],
)
def test_a_misspelt_field_is_refused_not_kept_as_an_extra(
    message: dict, message_pattern: str
) -> None:
    with pytest.raises(MemoryFormatError, match=message_pattern):
        messages_to_items([message])
    with pytest.raises(MemoryFormatError, match=message_pattern):
        build_memory([message])
