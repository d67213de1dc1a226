"""``rerank-plus memory add``, ``memory query --store`` and ``memory namespaces`` on a real
SQLite store, run as a user runs them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rerank_plus.cli import main
from rerank_plus.memory.store import open_store

CHAT = [
    {"speaker": "Ana", "text": "I start the new job at the bakery on Monday.",
     "time": "2024-05-02T09:00:00Z"},
    {"speaker": "Ben", "text": "My sister works as a nurse in Lyon.",
     "time": "2024-05-02T09:01:00Z"},
    {"speaker": "Ana", "text": "We visited Porto and Seville last spring.",
     "time": "2024-05-03T18:30:00Z"},
]  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'memory.db'}"


@pytest.fixture
def chat_file(tmp_path: Path) -> str:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in CHAT) + "\n\n", encoding="utf-8")
    return str(path)


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    error = capsys.readouterr().err
    assert error.startswith("rerank-plus memory"), error
    assert error.count("\n") == 1 and "Traceback" not in error, error
    return error


def test_add_then_query_the_namespace(store, chat_file, capsys):
    assert main(["memory", "add", "--store", store, "--namespace", "ana/2024-05", chat_file]) == 0
    assert capsys.readouterr().out == "added 3 messages from chat.jsonl to 'ana/2024-05'\n"
    question = "What does Ben's sister do?"
    assert main(["memory", "query", "--store", store, "--namespace", "ana/2024-05", question]) == 0
    out = capsys.readouterr().out
    context, trace = out.split("\n\nintent: ")
    assert "nurse in Lyon" in context
    assert "- store: namespace=ana/2024-05, messages=3" in trace
    assert "summarized=3, pending=0" in trace  # add brought the summaries up to date


def test_the_added_messages_are_the_stored_ones_in_order(store, chat_file, tmp_path):
    listed = tmp_path / "more.json"
    listed.write_text(json.dumps(["Ben: see you Friday.", {"text": "Ana: sure."}]), "utf-8")
    for source in (chat_file, str(listed)):
        assert main(["memory", "add", "--store", store, "--namespace", "ana", source]) == 0
    with open_store(store, background=False) as opened:
        texts = [item.text for item in opened.messages("ana")]
    assert texts == [m["text"] for m in CHAT] + ["Ben: see you Friday.", "Ana: sure."]


def test_query_json_and_options_match_the_file_query(store, chat_file, tmp_path, capsys):
    main(["memory", "add", "--store", store, "--namespace", "ana", chat_file])
    memory_file = str(tmp_path / "memory.json")
    main(["memory", "build", chat_file, "-o", memory_file])
    capsys.readouterr()
    options = ["places visited?", "--json", "--max-tokens", "120", "--intent", "detail",
               "--now", "2024-05-10T12:00:00Z"]  # fmt: skip
    assert main(["memory", "query", "--store", store, "--namespace", "ana", *options]) == 0
    from_store = json.loads(capsys.readouterr().out)
    assert main(["memory", "query", memory_file, *options]) == 0
    from_file = json.loads(capsys.readouterr().out)
    assert set(from_store) == {"context", "intent", "tokens", "items", "guidance", "trace"}
    assert from_store["intent"] == "detail" and 0 < from_store["tokens"] <= 120
    assert from_store["context"] == from_file["context"]
    assert from_store["trace"]["steps"][0]["now"] == "2024-05-10T12:00:00+00:00"


def test_namespaces_lists_them_sorted_with_a_prefix(store, chat_file, capsys):
    for name in ("ben", "ana/2024-06", "ana/2024-05"):
        main(["memory", "add", "--store", store, "--namespace", name, chat_file])
    capsys.readouterr()
    assert main(["memory", "namespaces", "--store", store]) == 0
    assert capsys.readouterr().out.splitlines() == ["ana/2024-05", "ana/2024-06", "ben"]
    assert main(["memory", "namespaces", "--store", store, "--prefix", "ana/"]) == 0
    assert capsys.readouterr().out.splitlines() == ["ana/2024-05", "ana/2024-06"]


def test_an_unknown_namespace_reads_as_empty(store, capsys):
    assert main(["memory", "query", "--store", store, "--namespace", "nobody", "anything?"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("(empty context)") and "The memory is empty." in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["add", "--store", "mongodb://x", "--namespace", "a", "{chat}"],
         r"unknown store URL 'mongodb://x'; use one of sqlite:///path/memory\.db"),
        (["add", "--store", "{store}", "--namespace", "", "{chat}"], r"the namespace is empty"),
        (["add", "--store", "{store}", "--namespace", "a", "{bad}"],
         r"bad\.jsonl line 2: not JSON"),
        (["add", "--store", "{store}", "--namespace", "a", "{typo}"],
         r"messages\[0\] has the key 'speakr': did you mean 'speaker'\?"),
        (["query", "{chat}", "hi", "--store", "{store}", "--namespace", "a"],
         r"give a memory file or --store and --namespace, not both"),
        (["query", "hi", "--store", "{store}"], r"--namespace is missing"),
        (["query", "hi"], r"which memory\? give a memory file \(memory build -o\) before the"),
        (["namespaces", "--store", "{folder}"], r"is a folder; name a file inside it"),
    ],
)  # fmt: skip
def test_errors_are_one_line_with_exit_code_2(store, chat_file, tmp_path, capsys, arguments,
                                              message):  # fmt: skip
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "hi"}\n{"text": \n', encoding="utf-8")
    typo = tmp_path / "typo.jsonl"
    typo.write_text('{"text": "hi", "speakr": "Ana"}\n', encoding="utf-8")
    places = {"chat": chat_file, "store": store, "bad": str(bad), "typo": str(typo),
              "folder": f"sqlite:///{tmp_path}"}  # fmt: skip
    assert main(["memory", *(a.format(**places) for a in arguments)]) == 2
    assert re.search(message, one_line_error(capsys))
    with open_store(store, background=False) as opened:
        assert opened.namespaces() == []  # a refused add stores nothing


@pytest.mark.parametrize("command", [["add", "{chat}"], ["namespaces"]])
def test_the_store_is_required_where_it_is_the_only_source(chat_file, capsys, command):
    with pytest.raises(SystemExit) as exited:
        main(["memory", *(a.format(chat=chat_file) for a in command)])
    assert exited.value.code == 2
    assert "the following arguments are required: --store" in capsys.readouterr().err
