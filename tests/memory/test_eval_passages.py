"""A BEIR passage collection read as one conversation: turns, gold turns, the eval run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rerank_plus.cli import main
from rerank_plus.evaluation.memory.passages import is_passage_collection, load_passages

from tests.memory.eval_meetings import hashed_words

SHARED = Path(__file__).resolve().parents[3] / "shared" / "eval"

PASSAGES = {
    "a0p0": "The venue in Lyon costs 900 euros. It has two hundred seats for the launch.",
    "a0p1": "Marketing moved the launch to March. The audit found two issues.",
    "a1p0": "预算已批准。价格是二十五欧元。",
}
QUERIES = {
    "q1": "How much does the venue in Lyon cost?",
    "q2": "预算批准了吗",
    "q3": "Who moved the launch?",
    "q4": "A question nobody judged",
}
QRELS = [("q1", "a0p0", 1), ("q2", "a1p0", 1), ("q3", "a0p1", 1), ("q4", "a0p1", 0)]


def write_collection(folder: Path, qrels=QRELS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "corpus.jsonl").write_text(
        "".join(
            json.dumps({"_id": key, "title": "", "text": text}, ensure_ascii=False) + "\n"
            for key, text in PASSAGES.items()
        ),
        encoding="utf-8",
    )
    (folder / "queries.jsonl").write_text(
        "".join(
            json.dumps({"_id": key, "text": text}, ensure_ascii=False) + "\n"
            for key, text in QUERIES.items()
        ),
        encoding="utf-8",
    )
    rows = ["query-id\tcorpus-id\tscore", *(f"{q}\t{d}\t{s}" for q, d, s in qrels)]
    (folder / "qrels.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def test_passages_become_one_conversation_of_sentences(tmp_path: Path) -> None:
    folder = write_collection(tmp_path / "mini")
    assert is_passage_collection(folder) and not is_passage_collection(tmp_path)
    (meeting,) = load_passages(folder)
    assert meeting.name == "mini" and meeting.topics == ()
    assert [turn.text for turn in meeting.turns] == [
        "The venue in Lyon costs 900 euros.",
        "It has two hundred seats for the launch.",
        "Marketing moved the launch to March.",
        "The audit found two issues.",
        "预算已批准。",
        "价格是二十五欧元。",
    ]
    assert all(turn.speaker == "" for turn in meeting.turns)
    # every judged query is specific; its gold turns are its passage's sentences
    assert [(q.text, q.kind, q.gold_turns) for q in meeting.queries] == [
        ("How much does the venue in Lyon cost?", "specific", (0, 1)),
        ("预算批准了吗", "specific", (4, 5)),
        ("Who moved the launch?", "specific", (2, 3)),
    ]
    assert [q.id for q in load_passages(folder, limit=1)[0].queries] == ["mini/specific/0"]


def test_a_judgment_of_an_unknown_passage_is_an_error(tmp_path: Path) -> None:
    folder = write_collection(tmp_path / "bad", qrels=[*QRELS, ("q1", "nowhere", 1)])
    with pytest.raises(ValueError, match="bad: 1 judgment\\(s\\) point to no query or passage"):
        load_passages(folder)


def test_the_eval_command_reads_a_passage_collection(tmp_path, capsys, monkeypatch) -> None:
    folder = write_collection(tmp_path / "mini")
    import rerank_plus.evaluation.memory.suite as suite

    monkeypatch.setattr(suite, "default_embedder", lambda: hashed_words)
    out = tmp_path / "out"
    methods = "policy,hybrid-windows,dense-turns,gold-turns"
    arguments = ["--data", str(folder), "--budget", "60", "--methods", methods]
    code = main(["memory", "eval", *arguments, "--output", str(out), "--quiet"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "3 specific, 0 general queries" in printed
    records = json.loads((out / "results.json").read_text())["records"]
    assert {r["method"] for r in records} == {
        "policy",
        "hybrid-windows",
        "dense-turns",
        "gold-turns",
    }
    gold = [r for r in records if r["method"] == "gold-turns"]
    assert all(r["metrics"]["hit"] == 1.0 for r in gold)
    policy = [r for r in records if r["method"] == "policy"]
    assert all(r["intent"] == "detail" for r in policy)
    assert policy[0]["metrics"]["hit"] == 1.0  # the Lyon venue's price is found


@pytest.mark.parametrize("name", ["xquad-de", "xquad-zh", "piaf-fr"])
def test_the_shared_collections_load_as_conversations(name: str) -> None:
    folder = SHARED / name
    if not folder.is_dir():
        pytest.skip(f"the shared evaluation sets are not beside the repo ({folder} is absent)")
    (meeting,) = load_passages(folder)
    assert len(meeting.turns) > 1000
    assert meeting.queries and all(query.gold_turns for query in meeting.queries)
    turns = {turn.index: turn.text for turn in meeting.turns}
    assert all(turns[index].strip() for query in meeting.queries for index in query.gold_turns)
