"""The unified artifacts file: exact round-trips, and errors that name the place in the file."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta, timezone
from types import MappingProxyType
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus.memory import Memory, MemoryFormatError, MemoryItem
from rerank_plus.memory.model.artifacts import (
    FORMAT,
    VERSION,
    load_memory,
    memory_from_dict,
    memory_to_dict,
    save_memory,
)

T0 = datetime(2024, 5, 1, 9, 30, tzinfo=timezone(timedelta(hours=2)))

texts = st.text(max_size=30)
names = st.text(min_size=1, max_size=8)
offsets = st.integers(min_value=-14 * 60, max_value=14 * 60).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)
times = st.none() | st.datetimes(
    min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=offsets
)
floats = st.floats(allow_nan=False, allow_infinity=False)
json_leaves = st.none() | st.booleans() | st.integers() | floats | texts
frozen_json = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(names, inner, max_size=3).map(MappingProxyType)
    ),
    max_leaves=8,
)
mappings = st.dictionaries(names, frozen_json, max_size=3).map(MappingProxyType)
entity_maps = st.dictionaries(names, st.lists(names, max_size=3).map(tuple), max_size=3).map(
    MappingProxyType
)


@st.composite
def fields(draw: st.DrawFn) -> dict:
    return {
        "text": draw(texts),
        "time": draw(times),
        "end_time": draw(times),
        "speaker": draw(st.none() | names),
        "source": draw(st.none() | names),
        "tags": tuple(draw(st.lists(names, max_size=3))),
        "entities": draw(entity_maps),
        "signals": draw(mappings),
        "extras": draw(mappings),
        "embedding": draw(st.none() | st.lists(floats, max_size=4).map(tuple)),
    }


@st.composite
def memories(draw: st.DrawFn) -> Memory:
    """A random hierarchy: messages, then levels that cover contiguous groups below them."""
    count = draw(st.integers(min_value=0, max_value=8))
    row = [MemoryItem(id=f"m{n}", level=0, index=n, **draw(fields())) for n in range(count)]
    items = list(row)
    level = 1
    while len(row) > 1 and draw(st.booleans()):
        cuts = sorted(draw(st.sets(st.integers(1, len(row) - 1), max_size=len(row) - 1)))
        groups = [row[a:b] for a, b in zip([0, *cuts], [*cuts, len(row)], strict=True)]
        row = [
            MemoryItem(
                id=f"L{level}-{n}",
                level=level,
                index=n,
                covers=tuple(child.id for child in group),
                **draw(fields()),
            )
            for n, group in enumerate(groups)
        ]
        items += row
        level += 1
    return Memory(items)


def assert_same(loaded: Memory, memory: Memory) -> None:
    assert loaded.items == memory.items
    assert [i.embedding for i in loaded.items] == [i.embedding for i in memory.items]
    assert [i.time and i.time.isoformat() for i in loaded] == [
        i.time and i.time.isoformat() for i in memory
    ]


@settings(max_examples=60, deadline=None)
@given(memories())
def test_dict_round_trip_is_exact(memory):
    assert_same(memory_from_dict(memory_to_dict(memory)), memory)


@settings(max_examples=30, deadline=None)
@given(memories())
def test_json_text_round_trip_is_exact(memory):
    text = json.dumps(memory_to_dict(memory), allow_nan=False)
    assert_same(memory_from_dict(json.loads(text)), memory)


def hierarchy() -> Memory:
    messages = [
        MemoryItem("m0", 0, 0, "Let's ship on Friday.", time=T0, speaker="Ana", tags=("release",)),
        MemoryItem(
            "m1",
            0,
            1,
            "Bob fixes the login bug 🐛 first.",
            time=T0 + timedelta(minutes=3),
            speaker="Bob",
            entities=MappingProxyType({"people": ("Bob",), "others": ("login",)}),
        ),
        MemoryItem("m2", 0, 2, "Le déploiement est prévu vendredi.", speaker="Chloé"),
    ]
    summary = MemoryItem(
        "s0",
        1,
        0,
        "Ana plans Friday's release; Bob fixes the login bug first.",
        covers=("m0", "m1", "m2"),
        time=T0,
        end_time=T0 + timedelta(minutes=3),
        signals=MappingProxyType({"themes": ("release", "bugs")}),
        extras=MappingProxyType({"omitted": ("m2",)}),
        embedding=(0.25, -1.5),
    )
    return Memory([*messages, summary])


def test_the_documented_shape():
    data = memory_to_dict(hierarchy())
    assert data["format"] == FORMAT == "rerank-plus-memory"
    assert data["version"] == VERSION == 1
    assert data["messages"][0] == {
        "id": "m0",
        "index": 0,
        "text": "Let's ship on Friday.",
        "time": "2024-05-01T09:30:00+02:00",
        "speaker": "Ana",
        "tags": ["release"],
    }
    assert data["levels"] == [
        [
            {
                "id": "s0",
                "index": 0,
                "text": "Ana plans Friday's release; Bob fixes the login bug first.",
                "covers": ["m0", "m1", "m2"],
                "time": "2024-05-01T09:30:00+02:00",
                "end_time": "2024-05-01T09:33:00+02:00",
                "signals": {"themes": ["release", "bugs"]},
                "extras": {"omitted": ["m2"]},
                "embedding": [0.25, -1.5],
            }
        ]
    ]
    assert memory_to_dict(hierarchy()) == data


def test_save_and_load_json_and_gzip(tmp_path):
    memory = hierarchy()
    for name in ("memory.json", "memory.json.gz"):
        path = save_memory(memory, tmp_path / name)
        assert_same(load_memory(path), memory)
        assert load_memory(str(path)).get("m1").text == "Bob fixes the login bug 🐛 first."
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory.json", "memory.json.gz"]
    raw = (tmp_path / "memory.json").read_text(encoding="utf-8")
    assert "🐛" in raw and "Chloé" in raw  # readable UTF-8, not \\u escapes


def test_embeddings_can_be_left_out(tmp_path):
    loaded = load_memory(save_memory(hierarchy(), tmp_path / "m.json", embeddings=False))
    assert loaded.items == hierarchy().items
    assert all(item.embedding is None for item in loaded)


def test_empty_memory_round_trips(tmp_path):
    assert memory_to_dict(Memory()) == {
        "format": FORMAT,
        "version": 1,
        "messages": [],
        "levels": [],
    }
    assert len(load_memory(save_memory(Memory(), tmp_path / "empty.json"))) == 0


def test_a_zone_keeps_the_instant_with_its_offset():
    moment = datetime(2024, 3, 31, 1, 30, tzinfo=ZoneInfo("Europe/Paris"))
    loaded = memory_from_dict(memory_to_dict(Memory([MemoryItem("m0", 0, 0, "x", time=moment)])))
    assert loaded.get("m0").time == moment
    assert loaded.get("m0").time.isoformat() == "2024-03-31T01:30:00+01:00"


def test_hand_written_minimal_file_with_naive_and_epoch_times():
    memory = memory_from_dict(
        {
            "format": FORMAT,
            "version": 1,
            "messages": [
                {"id": "a", "text": "one", "time": "2024-05-01T10:00:00"},
                {"id": "b", "text": "two", "time": 1714557600},
            ],
            "levels": [[{"id": "s", "level": 1, "index": 0, "text": "both", "covers": ["a", "b"]}]],
        }
    )
    assert memory.get("a").time == datetime(2024, 5, 1, 10, tzinfo=UTC)
    assert memory.get("b").time == datetime(2024, 5, 1, 10, tzinfo=UTC)
    assert [child.id for child in memory.children("s")] == ["a", "b"]


def document() -> dict:
    return copy.deepcopy(memory_to_dict(hierarchy()))


def broken(change) -> dict:
    data = document()
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["levels"][0][0]["covers"].append("m9"),
            r"levels\[0\]\[0\] \(id 's0'\)\.covers\[3\]: no item has the id 'm9'",
        ),
        (
            lambda d: d["levels"][0][0].update(covers=["m0", "s0"]),
            r"levels\[0\]\[0\] \(id 's0'\)\.covers\[1\]: 's0' is levels\[0\]\[0\], at level 1",
        ),
        (
            lambda d: d["messages"][1].update(covers=["m0"]),
            r"messages\[1\] \(id 'm1'\)\.covers: a message covers nothing",
        ),
        (
            lambda d: d["messages"][2].update(id="m0"),
            r"messages\[2\]\.id 'm0' is also the id of messages\[0\]",
        ),
        (
            lambda d: d["messages"][1].update(time="yesterday"),
            r"messages\[1\] \(id 'm1'\)\.time: 'yesterday' is not a time",
        ),
        (
            lambda d: d["levels"][0][0].update(end_time=True),
            r"levels\[0\]\[0\] \(id 's0'\)\.end_time: True is not a time",
        ),
        (
            lambda d: d["messages"][0].update(speakr="Ana"),
            r"messages\[0\] has unknown keys 'speakr'; an item's keys are 'id', 'level'",
        ),
        (
            lambda d: d["messages"][0].update(index=5),
            r"messages\[0\] \(id 'm0'\)\.index is 5, but where the item sits makes it 0",
        ),
        (
            lambda d: d["levels"][0][0].update(level=2),
            r"levels\[0\]\[0\] \(id 's0'\)\.level is 2, but where the item sits makes it 1",
        ),
        (lambda d: d["messages"][0].pop("text"), r"messages\[0\] has no 'text'"),
        (lambda d: d["messages"][0].update(id=""), r"messages\[0\]\.id is empty"),
        (lambda d: d["messages"][0].update(id=7), r"messages\[0\]\.id must be text, got 7"),
        (
            lambda d: d["messages"][0].update(text=None),
            r"messages\[0\] \(id 'm0'\)\.text must be text, got None",
        ),
        (
            lambda d: d["messages"][0].update(tags="release"),
            r"messages\[0\] \(id 'm0'\)\.tags must be a list of text, got 'release'",
        ),
        (
            lambda d: d["messages"][1]["entities"].update(people="Bob"),
            r"messages\[1\] \(id 'm1'\)\.entities\.people must be a list of text",
        ),
        (
            lambda d: d["messages"][1].update(entities=["Bob"]),
            r"\.entities must be an object of group -> list of names",
        ),
        (
            lambda d: d["messages"][0].update(speaker=3),
            r"messages\[0\] \(id 'm0'\)\.speaker must be text or null, got 3",
        ),
        (
            lambda d: d["levels"][0][0].update(embedding=[0.1, "x"]),
            r"levels\[0\]\[0\] \(id 's0'\)\.embedding\[1\] must be a number, got 'x'",
        ),
        (
            lambda d: d["levels"][0][0].update(signals=[1]),
            r"levels\[0\]\[0\] \(id 's0'\)\.signals must be an object, got \[1\]",
        ),
        (lambda d: d["messages"].__setitem__(1, "hello"), r"messages\[1\] is str, not an object"),
        (lambda d: d.update(levels=[[]]), r"levels\[0\] is empty"),
        (lambda d: d.update(messages=[]), r"messages is empty"),
        (lambda d: d.update(levels={"L1": []}), r"levels must be a list of lists of items"),
        (lambda d: d.update(messages="hi"), r"messages must be a list of items, got str"),
        (
            lambda d: d.update(version=2),
            r"version 2 is not supported \(this rerank-plus reads version 1\); it was written "
            r"by a newer rerank-plus; upgrade",
        ),
        (lambda d: d.pop("version"), r"version None is not supported.*set \"version\": 1"),
        (lambda d: d.update(format="other"), r"not a rerank-plus memory: .* found 'other'"),
        (
            lambda d: d.update(meta={}, notes=""),
            r"unknown top-level keys 'meta', 'notes'; a memory file has 'format'",
        ),
    ],
)
def test_errors_name_the_place(change, message):
    with pytest.raises(MemoryFormatError, match=message):
        memory_from_dict(broken(change))


def test_not_an_object():
    with pytest.raises(MemoryFormatError, match=r"not a rerank-plus memory: .* found 'list'"):
        memory_from_dict([])


def test_writing_rejects_what_json_cannot_hold():
    item = MemoryItem("m0", 0, 0, "x", signals=MappingProxyType({"when": {1, 2}}))
    with pytest.raises(MemoryFormatError, match=r"messages\[0\]\.signals\.when: a set cannot"):
        memory_to_dict(Memory([item]))
    nan = MemoryItem("m0", 0, 0, "x", extras=MappingProxyType({"score": (1.0, float("nan"))}))
    with pytest.raises(MemoryFormatError, match=r"messages\[0\]\.extras\.score\[1\]: nan cannot"):
        memory_to_dict(Memory([nan]))
    vector = MemoryItem("m0", 0, 0, "x", embedding=(0.5, float("inf")))
    with pytest.raises(MemoryFormatError, match=r"messages\[0\]\.embedding\[1\]: inf cannot"):
        memory_to_dict(Memory([vector]))
    keyed = MemoryItem("m0", 0, 0, "x", extras=MappingProxyType({"by": {3: "x"}}))
    with pytest.raises(MemoryFormatError, match=r"extras\.by: key 3 is int; JSON keys are text"):
        memory_to_dict(Memory([keyed]))


def test_numpy_numbers_are_written_as_plain_numbers():
    numpy = pytest.importorskip("numpy")
    vector = tuple(numpy.asarray([0.5, -0.25], dtype=numpy.float32))
    item = MemoryItem("m0", 0, 0, "x", embedding=vector, signals={"n": numpy.int64(3)})
    data = memory_to_dict(Memory([item]))
    assert json.dumps(data["messages"][0]["embedding"]) == "[0.5, -0.25]"
    assert type(data["messages"][0]["signals"]["n"]) is int


def test_load_errors_name_the_file(tmp_path):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(MemoryFormatError, match=r"bad\.json: not JSON \(Expecting value at line 1"):
        load_memory(bad_json)
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"x": "é"}'.encode("latin-1"))
    with pytest.raises(MemoryFormatError, match=r"latin\.json: not a UTF-8 JSON file"):
        load_memory(latin)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(broken(lambda d: d["messages"][0].update(x=1))), encoding="utf-8")
    with pytest.raises(MemoryFormatError, match=r"wrong\.json: messages\[0\] has unknown keys 'x'"):
        load_memory(wrong)
    with pytest.raises(FileNotFoundError):
        load_memory(tmp_path / "missing.json")


def test_a_failed_save_leaves_no_file(tmp_path):
    item = MemoryItem("m0", 0, 0, "x", signals=MappingProxyType({"bad": object()}))
    with pytest.raises(MemoryFormatError):
        save_memory(Memory([item]), tmp_path / "m.json")
    assert list(tmp_path.iterdir()) == []


def test_memory_validation_still_applies():
    data = broken(lambda d: d["levels"].append([{"id": "t0", "text": "top", "covers": ["m0"]}]))
    # A top summary may cover any lower level, as the memory allows.
    assert memory_from_dict(data).children("t0")[0].id == "m0"


def test_a_truncated_compressed_file_is_a_format_error(tmp_path):
    path = save_memory(hierarchy(), tmp_path / "m.json.gz")
    path.write_bytes(path.read_bytes()[:-20])
    with pytest.raises(MemoryFormatError, match=r"m\.json\.gz: the compressed file ends early"):
        load_memory(path)


def test_a_save_into_a_missing_folder_names_the_folder(tmp_path):
    target = tmp_path / "missing" / "m.json"
    with pytest.raises(FileNotFoundError, match=r"the folder .*missing does not exist"):
        save_memory(hierarchy(), target)
    assert not (tmp_path / "missing").exists()


def test_a_saved_file_keeps_the_permissions_of_the_one_it_replaces(tmp_path):
    path = save_memory(hierarchy(), tmp_path / "m.json")
    assert path.stat().st_mode & 0o777 == 0o644
    path.chmod(0o640)
    save_memory(hierarchy(), path)
    assert path.stat().st_mode & 0o777 == 0o640


SAVER = """
import sys
from rerank_plus.memory import MemoryWriter, load_memory, save_memory

path, name = sys.argv[1], sys.argv[2]
for n in range(15):
    memory = load_memory(path)
    MemoryWriter(memory).add({"text": f"{name} says {n}", "speaker": name})
    save_memory(memory, path)
"""


@pytest.mark.slow
def test_two_processes_saving_one_file_leave_it_whole(tmp_path):
    """Each load, add and save; the file is read between saves by both: it is always a whole
    memory (the last save's), never half a file or a missing temporary (one writer keeps all;
    several lose updates, as documented)."""
    import subprocess
    import sys

    from rerank_plus.memory import build_memory

    path = save_memory(build_memory(["Ana: we start.", "Ben: fine."]), tmp_path / "m.json")
    command = [sys.executable, "-c", SAVER, str(path)]
    workers = [subprocess.Popen([*command, name], stderr=subprocess.PIPE) for name in "AB"]
    errors = [worker.communicate(timeout=300)[1].decode() for worker in workers]
    assert [worker.returncode for worker in workers] == [0, 0], errors
    texts = [item.text for item in load_memory(path).messages]
    assert texts[:2] == ["Ana: we start.", "Ben: fine."]
    assert any(text.endswith("says 14") for text in texts)  # the last save is whole
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]  # no temporary left behind


KILLED_SAVER = """
import sys
from rerank_plus.memory import MemoryWriter, load_memory, save_memory

path, run = sys.argv[1], sys.argv[2]
print("ready", flush=True)
for n in range(10_000):
    memory = load_memory(path)
    MemoryWriter(memory).add({"text": f"note {run}.{n} about the venue", "speaker": "Ana"})
    save_memory(memory, path)
    print(n, flush=True)  # acknowledged: saved before this line
"""


@pytest.mark.slow
def test_a_saver_killed_at_random_moments_leaves_a_whole_file_with_every_acknowledged_save(
    tmp_path,
):
    """SIGKILL a process that loads, adds and saves in a loop, at 8 moments: the file always
    loads, and it holds at least every message of a save the process reported done."""
    import random
    import signal
    import subprocess
    import sys
    import time

    from rerank_plus.memory import build_memory

    path = save_memory(build_memory(["Ana: we book the venue."]), tmp_path / "m.json.gz")
    chance = random.Random(7)
    for run in range(8):
        saver = subprocess.Popen(
            [sys.executable, "-c", KILLED_SAVER, str(path), str(run)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert saver.stdout is not None and saver.stdout.readline().strip() == "ready"
        first = saver.stdout.readline().strip()  # one save done: the next are under way
        time.sleep(chance.uniform(0.0, 0.3))
        saver.send_signal(signal.SIGKILL)
        acknowledged = [first, *(line.strip() for line in saver.stdout)]
        saver.wait(timeout=60)
        texts = {item.text for item in load_memory(path).messages}
        assert f"note {run}.{acknowledged[-1]} about the venue" in texts
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "m.json.gz"]
    assert all(name.endswith(".partial") for name in leftovers)  # a killed save's own, never read
