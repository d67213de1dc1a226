"""The memory's data model: items, levels, cover links, and validation errors that name the item."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus.memory import Embedder, Memory, MemoryFormatError, MemoryItem
from rerank_plus.memory.model.sentences import split_sentences, word_count
from rerank_plus.memory.model.times import parse_time


def hierarchy() -> list[MemoryItem]:
    messages = [MemoryItem(f"m{i}", 0, i, f"message {i}") for i in range(4)]
    windows = [
        MemoryItem("w0", 1, 0, "first half", covers=("m0", "m1")),
        MemoryItem("w1", 1, 1, "second half", covers=("m2", "m3")),
    ]
    top = [MemoryItem("t0", 2, 0, "everything", covers=("w0", "w1"))]
    return messages + windows + top


def test_levels_links_and_descendants() -> None:
    memory = Memory(reversed(hierarchy()))
    assert [item.id for item in memory.items] == ["m0", "m1", "m2", "m3", "w0", "w1", "t0"]
    assert memory.depth == 3 and len(memory) == 7 and "w1" in memory
    assert [item.id for item in memory.children("t0")] == ["w0", "w1"]
    assert [item.id for item in memory.parents("m2")] == ["w1"]
    assert memory.parents("t0") == ()
    assert [item.id for item in memory.descendants("t0")] == ["m0", "m1", "m2", "m3"]
    assert [item.id for item in memory.descendants("t0", level=1)] == ["w0", "w1"]
    assert [item.id for item in memory.descendants("m1")] == ["m1"]
    assert repr(memory) == "Memory(L0: 4, L1: 2, L2: 1)"


def test_an_empty_memory_has_no_levels() -> None:
    memory = Memory()
    assert memory.depth == 0 and memory.items == () and memory.level(0) == ()
    assert repr(memory) == "Memory(empty)"


def test_replace_revalidates_and_bumps_the_version() -> None:
    memory = Memory(hierarchy())
    before = memory.version
    memory.replace([*hierarchy(), MemoryItem("m4", 0, 4, "late message")])
    assert memory.version == before + 1 and len(memory.messages) == 5


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (
            [MemoryItem("m0", 0, 0, "a"), MemoryItem("m0", 1, 0, "b")],
            "duplicate id 'm0' (levels 0 and 1); every item needs its own id.",
        ),
        (
            [MemoryItem("m0", 0, 0, "a"), MemoryItem("s0", 1, 0, "b", covers=("zz",))],
            "item 's0' (level 1): covers unknown id 'zz'.",
        ),
        (
            [
                MemoryItem("m0", 0, 0, "a"),
                MemoryItem("s0", 1, 0, "b", covers=("m0",)),
                MemoryItem("s1", 1, 1, "c", covers=("s0",)),
            ],
            "item 's1' (level 1): covers 's0' at level 1; a summary covers only items of lower",
        ),
        (
            [MemoryItem("m0", 0, 0, "a"), MemoryItem("t0", 2, 0, "b", covers=("m0",))],
            "level 1 is empty but level 2 is not",
        ),
        (
            [MemoryItem("m0", 0, 0, "a"), MemoryItem("m1", 0, 2, "b")],
            "item 'm1' (level 0): index 2, expected 1",
        ),
        (
            [MemoryItem("m0", 0, 0, "a", covers=("m1",)), MemoryItem("m1", 0, 1, "b")],
            "a raw message (level 0) covers nothing",
        ),
        (
            [MemoryItem("m0", 0, 0, "a", time=datetime(2024, 1, 1))],
            "item 'm0': time must be a timezone-aware datetime",
        ),
        ([MemoryItem("", 0, 0, "a")], "items[0].id must be a non-empty str"),
        ([MemoryItem("m0", -1, 0, "a")], "item 'm0': level must be an int >= 0, got -1."),
        ([MemoryItem("m0", 0, 0, 42)], "item 'm0': text must be a str, got int."),  # type: ignore[arg-type]
        (["just text"], "items[0] is str, not MemoryItem"),
    ],
)
def test_validation_names_the_item_and_the_field(items: list, message: str) -> None:
    with pytest.raises(MemoryFormatError, match=re.escape(message)):
        Memory(items)


def test_cycles_cannot_be_built_since_covers_point_strictly_down() -> None:
    items = [
        MemoryItem("m0", 0, 0, "a"),
        MemoryItem("a", 1, 0, "x", covers=("m0",)),
        MemoryItem("b", 2, 0, "y", covers=("a",)),
        MemoryItem("c", 1, 1, "z", covers=("b",)),
    ]
    with pytest.raises(MemoryFormatError, match="item 'c' \\(level 1\\): covers 'b' at level 2"):
        Memory(items)


def test_unknown_ids_say_so() -> None:
    with pytest.raises(KeyError, match="no item with id 'nope'"):
        Memory(hierarchy()).get("nope")


def test_item_helpers() -> None:
    item = MemoryItem(
        "s0",
        1,
        0,
        "Ana and Ben agreed.",
        covers=("m0",),
        entities={"people": ("Ana", "Ben"), "others": ("Ben", "ACME")},
    )
    assert item.label() == "L1" and item.is_summary and item.char_count == 19
    assert item.entity_names == ("Ana", "Ben", "ACME")


def test_times_parse_to_aware_datetimes_or_name_the_field() -> None:
    assert parse_time(0, "m0.time") == datetime(1970, 1, 1, tzinfo=UTC)
    assert parse_time("2024-05-01T10:00:00", "m0.time").tzinfo == UTC
    paris = timezone(timedelta(hours=2))
    assert parse_time(datetime(2024, 5, 1, 10, tzinfo=paris), "x").utcoffset() == timedelta(hours=2)
    assert parse_time(None, "x") is None
    with pytest.raises(MemoryFormatError, match=r"messages\[3\].time: 'soon' is not a time"):
        parse_time("soon", "messages[3].time")


def test_sentences_split_on_marks_cjk_and_line_breaks() -> None:
    assert split_sentences("We agreed . Price is 25 Euros! OK?  Fine") == [
        "We agreed .",
        "Price is 25 Euros!",
        "OK?",
        "Fine",
    ]
    assert split_sentences("\u4f60\u597d\u3002\u6211\u4eec\u5f00\u4f1a\uff01") == [
        "\u4f60\u597d\u3002",
        "\u6211\u4eec\u5f00\u4f1a\uff01",
    ]
    assert split_sentences("line one\nline two") == ["line one", "line two"]
    assert split_sentences("   ") == [] and split_sentences("\U0001f600\U0001f389") == [
        "\U0001f600\U0001f389"
    ]
    assert word_count("  two  words ") == 2


class LangChainLike:
    """The two methods of LangChain's ``Embeddings`` (queries embedded their own way)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[float(len(text)), 1.0] for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return [0.0, 1.0]


class LlamaIndexLike:
    def get_text_embedding_batch(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, float(len(text))] for text in texts]

    def get_query_embedding(self, text: str) -> list[float]:
        return [1.0, 0.0]


def test_the_embedder_accepts_framework_shapes_and_callables() -> None:
    langchain = Embedder(LangChainLike())
    np.testing.assert_allclose(langchain.embed_query("q"), [0.0, 1.0])
    rows = langchain.embed(["abc", ""])
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), [1.0, 1.0], rtol=1e-6)
    np.testing.assert_allclose(Embedder(LlamaIndexLike()).embed_query("q"), [1.0, 0.0])
    plain = Embedder(lambda texts: np.ones((len(texts), 3)))
    assert plain.embed(["a", "b"]).shape == (2, 3) and plain.embed([]).shape == (0, 0)
    assert Embedder(plain).model is plain.model


def test_the_embedder_rejects_what_it_cannot_use() -> None:
    with pytest.raises(TypeError, match="cannot embed with int; pass a sentence-transformers"):
        Embedder(3)
    with pytest.raises(ValueError, match=r"returned an array of shape \(1, 2\) for 2 texts"):
        Embedder(lambda texts: [[1.0, 2.0]]).embed(["a", "b"])
    with pytest.raises(ValueError, match="NaN or infinite"):
        Embedder(lambda texts: [[float("nan")] for _ in texts]).embed(["a"])


@pytest.mark.slow
def test_the_embedder_loads_a_real_sentence_transformer(minilm_path: str) -> None:
    sentence_transformers = pytest.importorskip("sentence_transformers")
    model = sentence_transformers.SentenceTransformer(minilm_path, device="cpu")
    by_model = Embedder(model)
    by_name = Embedder(minilm_path)
    texts = ["The budget was approved.", "Le budget a été approuvé.", "\U0001f600"]
    a, b = by_model.embed(texts), by_name.embed(texts)
    assert a.shape == (3, 384)
    np.testing.assert_allclose(a, b, atol=1e-5)
    assert float(a[0] @ by_model.embed_query("Was the budget approved?")) > 0.5


def linked(memory: Memory) -> tuple:
    """What validation derives of a memory: its items (the objects), levels and links."""
    return (
        [id(item) for item in memory.items],
        [[item.id for item in memory.level(k)] for k in range(memory.depth)],
        {item.id: [p.id for p in memory.parents(item.id)] for item in memory.items},
        {item.id: [c.id for c in memory.children(item.id)] for item in memory.items},
    )


def replaced_as_anew(stored: list[MemoryItem], items: list) -> None:
    """``replace`` of a memory holding ``stored`` (checking only what differs) takes ``items``
    as a memory validated from scratch does, or fails with the same message."""
    memory = Memory(stored)
    version = memory.version
    try:
        expected = linked(Memory(items))
    except MemoryFormatError as error:
        with pytest.raises(MemoryFormatError) as raised:
            memory.replace(items)
        assert str(raised.value) == str(error)
        assert memory.version == version and linked(memory) == linked(Memory(stored))
        return
    memory.replace(items)
    assert linked(memory) == expected and memory.version == version + 1


def test_replace_checks_what_changed_and_says_what_full_validation_says() -> None:
    stored = hierarchy()
    m1, w0, w1, t0 = stored[1], stored[4], stored[5], stored[6]
    appended = [
        *stored[:4],
        MemoryItem("m4", 0, 4, "late message"),
        w0,
        MemoryItem("w1", 1, 1, "second half", covers=("m2", "m3", "m4")),
        MemoryItem("t0", 2, 0, "everything", covers=("w0", "w1")),
    ]
    replaced_as_anew(stored, appended)  # what MemoryWriter.add does
    assert Memory(stored)._set_changed(appended)  # checked by what changed
    cases = [
        # a child of a kept summary replaced by an item at the summary's level
        [*stored[:3], w0, w1, MemoryItem("m3", 1, 2, "up"), t0],
        # a child of a kept summary replaced at a higher level than the summary
        [*stored[:3], w0, w1, t0, MemoryItem("m3", 3, 0, "far up")],
        [*stored, MemoryItem("w0", 1, 2, "again", covers=("m0",))],  # a duplicate id
        [*stored, stored[0]],  # a stored item twice
        [*stored[:1], *stored[2:]],  # a covered item removed
        [*stored[:6]],  # a top summary removed: valid
        [*stored, MemoryItem("m9", 0, 5, "gap")],  # an index gap
        [*stored, MemoryItem("u0", 4, 0, "gap", covers=("t0",))],  # a level gap
        [*stored, MemoryItem("u0", 3, 0, "up", covers=("t0", "zz"))],  # an unknown cover
        [*stored[:4], w0, MemoryItem("w1", 1, 1, "loop", covers=("t0",)), t0],  # a cycle
        [*stored, "just text"],
        [*stored, MemoryItem("m4", 0, 4, "a", covers=("m0",))],
        [*stored[:6], m1],  # out of order: validated whole
        list(reversed(stored)),
    ]
    for items in cases:
        replaced_as_anew(stored, items)


item_changes = st.lists(
    st.tuples(
        st.sampled_from(["text", "covers", "level", "index", "drop", "insert", "copy", "swap"]),
        st.integers(0, 60),
        st.integers(0, 3),
        st.integers(0, 13),
        st.lists(st.integers(0, 60), max_size=3),
    ),
    max_size=3,
)


@settings(max_examples=400, deadline=None)
@given(item_changes)
def test_replace_after_any_change_equals_a_validation_from_scratch(changes: list) -> None:
    """Items changed in place (most keep the order the fast check needs), dropped, inserted
    anywhere, repeated or swapped: valid or not, as a validation from scratch says."""
    stored = [
        *(MemoryItem(f"m{i}", 0, i, f"message {i}") for i in range(12)),
        *(MemoryItem(f"w{i}", 1, i, "w", covers=(f"m{3 * i}", f"m{3 * i + 1}")) for i in range(4)),
        MemoryItem("t0", 2, 0, "top", covers=("w0", "w1")),
        MemoryItem("t1", 2, 1, "top", covers=("w2", "w3", "m2")),
    ]
    items: list = list(stored)
    for kind, at, level, index, covers in changes:
        at %= len(items)
        ids = tuple(stored[c % len(stored)].id for c in covers)
        if kind == "text":
            items[at] = replace(items[at], text="changed")
        elif kind == "covers":
            items[at] = replace(items[at], covers=ids if items[at].level else ())
        elif kind == "level":
            items[at] = replace(items[at], level=level, covers=ids if level else ())
        elif kind == "index":
            items[at] = replace(items[at], index=index)
        elif kind == "drop":
            del items[at]
        elif kind == "insert":
            items.insert(at, MemoryItem(f"n{at}", level, index, "new", covers=ids * (level > 0)))
        elif kind == "copy":
            items.append(items[at])
        elif at > 0:
            items[at - 1], items[at] = items[at], items[at - 1]
    replaced_as_anew(stored, items)
