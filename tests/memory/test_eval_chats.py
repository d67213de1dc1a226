"""Chats in the memory evaluation: the file formats, the date judge, per-category reports, and
``rerank-plus memory eval`` on a tiny chat."""

from __future__ import annotations

import json
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus.cli import main
from rerank_plus.evaluation.memory.chats import (
    is_chat_data,
    load_chats,
    locomo_time,
    parse_chat,
    parse_locomo,
)
from rerank_plus.evaluation.memory.contexts import join_pieces
from rerank_plus.evaluation.memory.dates import DatedContext, stated_date, without_annotations
from rerank_plus.evaluation.memory.folding import fold
from rerank_plus.evaluation.memory.judges import MeetingJudge, mean_metrics

TINY = {
    "messages": [
        {
            "id": "a1",
            "speaker": "Ana",
            "time": "2024-03-04T19:02:00+01:00",
            "text": "Guess what, I started my new job at the bakery on Rue Verte today!",
        },
        {
            "id": "b1",
            "speaker": "Ben",
            "time": "2024-03-04T19:05:00+01:00",
            "text": "Congratulations, that is great news for you and your family.",
        },
        {
            "id": "a2",
            "speaker": "Ana",
            "time": "2024-03-10T10:00:00+01:00",
            "text": "We spent the whole weekend in Lisbon and the tram rides were lovely.",
        },
        {
            "id": "b2",
            "speaker": "Ben",
            "time": "2024-03-10T10:04:00+01:00",
            "text": "My sister Clara works as a nurse in Bordeaux these days.",
        },
        {
            "id": "a3",
            "speaker": "Ana",
            "time": "2024-03-20T23:30:00-05:00",
            "text": "Back from a long weekend in Ghent, the canals were beautiful at night.",
        },
    ],
    "questions": [
        {"question": "When did Ana start her new job?", "answer_ids": ["a1"], "category": "time"},
        {
            "question": "Which cities has Ana visited?",
            "answer_ids": ["a3", "a2"],
            "category": "multi-hop",
            "answer": "Lisbon, Ghent",
        },
        {
            "question": "What does Ben's sister do?",
            "answer_ids": ["b2"],
            "category": "single-hop",
        },
    ],
}


def tiny():
    return parse_chat("tiny", TINY)


def test_a_chat_reads_times_gold_turns_and_categories():
    chat = tiny()
    assert [turn.speaker for turn in chat.turns] == ["Ana", "Ben", "Ana", "Ben", "Ana"]
    assert chat.turns[4].time.isoformat() == "2024-03-20T23:30:00-05:00"
    assert chat.turns[4].line.startswith("[2024-03-20 23:30] Ana: Back from")
    when, cities, sister = chat.queries
    assert (when.kind, when.category, when.gold_turns) == ("specific", "time", (0,))
    assert cities.gold_turns == (2, 4) and cities.answer == "Lisbon, Ghent"
    assert sister.id == "tiny/specific/2"
    assert chat.asked_at == chat.turns[4].time
    assert chat.messages()[0] == {
        "id": "turn-0",
        "speaker": "Ana",
        "text": TINY["messages"][0]["text"],
        "time": "2024-03-04T19:02:00+01:00",
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c["questions"][0].update(answer_ids=["zz"]), r"questions\[0\]: no message has"),
        (lambda c: c["questions"][0].update(answer_ids=[]), "non-empty list of message ids"),
        (lambda c: c["messages"][1].update(id="a1"), "the id 'a1' is used twice"),
        (lambda c: c["messages"][2].pop("time"), r"messages\[2\]: a message needs"),
        (lambda c: c["messages"][2].update(time="soon"), "is not a time"),
        (lambda c: c.pop("questions"), "not a chat"),
    ],
)
def test_a_malformed_chat_names_the_place_and_the_fix(change, message):
    chat = json.loads(json.dumps(TINY))
    change(chat)
    with pytest.raises(ValueError, match=message):
        parse_chat("tiny", chat)


LOCOMO = {
    "sample_id": "conv-1",
    "conversation": {
        "speaker_a": "Caroline",
        "speaker_b": "Melanie",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Caroline", "dia_id": "D1:1", "text": "I went to a support group."},
            {
                "speaker": "Melanie",
                "dia_id": "D1:2",
                "text": "I painted a sunrise last week.",
                "blip_caption": "a painting of a sunrise over a lake",
            },
        ],
        "session_2_date_time": "7:55 pm on 25 May, 2023",
        "session_2": [
            {"speaker": "Caroline", "dia_id": "D2:1", "text": "I am researching adoption."}
        ],
    },
    "qa": [
        {"question": "When did Melanie paint a sunrise?", "evidence": ["D1:2"], "category": 2},
        {"question": "What did both do?", "evidence": ["D1:1; D2:1"], "category": 1},
        {"question": "Did Caroline paint?", "evidence": ["D1:2"], "category": 5},
        {"question": "Lost evidence?", "evidence": ["D9:9"], "category": 4},
    ],
}


def test_locomo_chats_read_session_times_evidence_and_categories():
    chat = parse_locomo("conv-1", LOCOMO)
    assert [turn.time.isoformat() for turn in chat.turns] == [
        "2023-05-08T13:56:00+00:00",
        "2023-05-08T13:57:00+00:00",
        "2023-05-25T19:55:00+00:00",
    ]
    assert chat.turns[1].text.endswith("(shares a photo: a painting of a sunrise over a lake)")
    assert [(q.category, q.gold_turns) for q in chat.queries] == [
        ("time", (1,)),
        ("multi-hop", (0, 2)),
    ]
    with pytest.raises(ValueError, match="is not a time like"):
        locomo_time("yesterday", "conv-1 session_3_date_time")


def test_chat_files_and_folders_are_recognized_and_loaded(tmp_path):
    (tmp_path / "b.json").write_text(json.dumps(TINY))
    (tmp_path / "a.json").write_text(json.dumps([LOCOMO, LOCOMO]))
    assert is_chat_data(tmp_path) and is_chat_data(tmp_path / "b.json")
    assert [chat.name for chat in load_chats(tmp_path)] == ["conv-1", "conv-1", "b"]
    assert not is_chat_data(tmp_path / "missing.json")
    (tmp_path / "c.txt").write_text("{}")
    assert not is_chat_data(tmp_path / "c.txt")
    broken = tmp_path / "broken" / "x.json"
    broken.parent.mkdir()
    broken.write_text('{"messages": [')
    with pytest.raises(ValueError, match=r"x\.json: not JSON"):
        load_chats(broken)


def test_a_line_states_a_date_in_a_leading_bracket_or_at_its_start():
    assert stated_date("[L0 #3-9 2024-03-04 19:02]") == date(2024, 3, 4)
    assert stated_date("[2024-03-04 19:02] Ana: hi") == date(2024, 3, 4)
    assert stated_date("2024-03-04: the day Ana started") == date(2024, 3, 4)
    assert stated_date("Ana: see you on 2024-03-04") is None
    assert stated_date("[L1 #2 09:31] no date") is None
    assert stated_date("[2024-13-40] not a date") is None
    assert without_annotations("Ana: yesterday [2024-03-03] we met.") == "Ana: yesterday we met."
    assert without_annotations("in May [2024-05], since [since 2024-05-01]") == "in May, since"
    assert stated_date("[L1 #3 2024-03-04 09:31-10:12] a summary") == date(2024, 3, 4)
    assert stated_date("[L2 #1 2024-03-04 09:31 to 2024-03-09 18:00] one") is None


def test_the_date_in_force_is_the_last_stated_before_the_sentence():
    text = "[L0 #0-1 2024-03-04 19:02]\nAna: first message here today\nBen: second one is here"
    text += "\n[L0 #7 2024-03-10 10:00]\nAna: a much later message"
    context = DatedContext(text)
    assert context.date_of([fold("second one is here")]) == date(2024, 3, 4)
    assert context.date_of([fold("a much later message")]) == date(2024, 3, 10)
    assert context.date_of([fold("not in the context at all")]) is None
    assert DatedContext("Ana: no dates here").date_of([fold("no dates here")]) is None


def judged(context: str):
    chat = tiny()
    judge = MeetingJudge(chat)
    return [judge.judge(query, context, [context]) for query in chat.queries]


def test_gold_messages_under_their_own_dates_are_recalled_and_dated():
    chat = tiny()
    for query in chat.queries:
        context = join_pieces(chat.turns[i].line for i in query.gold_turns)
        metrics = MeetingJudge(chat).judge(query, context, context.split("\n\n"))
        assert metrics["gold_recall"] == metrics["hit"] == metrics["mrr"] == 1.0
        assert metrics["answers_dated"] == metrics["answers_recalled"] == len(query.gold_turns)


def test_a_stretch_that_crosses_a_day_under_one_header_misdates_the_later_day():
    chat = tiny()
    stretch = "[L0 #1-3 2024-03-04 19:05]\n" + "\n".join(
        f"{turn.speaker}: {turn.text}" for turn in chat.turns[1:4]
    )
    sister = judged(stretch)[2]
    assert sister["gold_recall"] == 1.0
    assert (sister["answers_recalled"], sister["answers_dated"]) == (1.0, 0.0)
    assert mean_metrics([sister], ("gold_recall",))["dated"] == 0.0


def test_an_annotated_quote_still_reads_as_said():
    text = TINY["messages"][3]["text"].replace("these days", "these days [2024-03-10]")
    sister = judged(f"[L0 #3 2024-03-10 10:04]\nBen: {text}")[2]
    assert sister["gold_recall"] == 1.0 and sister["answers_dated"] == 1.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(range(5)), max_size=8), st.booleans())
def test_metrics_stay_in_their_ranges_whatever_the_context(order, dated):
    chat = tiny()
    lines = [chat.turns[i].line if dated else chat.turns[i].text for i in order]
    for metrics in judged("\n".join(lines)):
        assert 0.0 <= metrics["gold_recall"] <= 1.0 and 0.0 <= metrics["mrr_words"] <= 1.0
        assert 0.0 <= metrics["answers_dated"] <= metrics["answers_recalled"]
        if not dated:
            assert metrics["answers_dated"] == 0.0


def test_the_eval_cli_reports_chats_per_category(tmp_path, capsys):
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(TINY))
    out = tmp_path / "out"
    code = main(
        [
            "memory",
            "eval",
            "--data",
            str(data),
            "--budget",
            "60,400",
            "--lexical-only",
            "--output",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "Budget 60: gold recall by question category" in printed
    assert "| method | multi-hop (1) | single-hop (1) | time (1) | overall (3) |" in printed
    assert "policy against the best baseline per category" in printed
    results = json.loads((out / "results.json").read_text())
    rows = results["by_category"]
    assert {row["category"] for row in rows} == {"multi-hop", "single-hop", "time", "overall"}
    for row in rows:
        for name, value in row["metrics"].items():
            assert 0.0 <= value <= 1.0, (row, name)
    oracle = [r for r in rows if r["method"] == "gold-turns" and r["budget"] == 400]
    assert all(r["metrics"]["gold_recall"] == r["metrics"]["dated"] == 1.0 for r in oracle)
    assert {r["method"] for r in rows} >= {"policy", "bm25-turns", "bm25-windows"}


def test_a_bad_chat_file_is_one_line(tmp_path, capsys):
    data = tmp_path / "bad.json"
    chat = json.loads(json.dumps(TINY))
    chat["questions"][1]["answer_ids"] = ["a2", "nope"]
    data.write_text(json.dumps(chat))
    assert main(["memory", "eval", "--data", str(data), "--lexical-only", "--quiet"]) == 2
    error = capsys.readouterr().err
    assert "error: bad questions[1]: no message has the id(s) nope." in error
    assert "Traceback" not in error
