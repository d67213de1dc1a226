"""The development chats in ``benchmarks/data/chats``: what their generator writes, loadable,
dated over weeks, in three languages, every question answered by messages of its chat."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from rerank_plus.evaluation.memory.chats import load_chats

ROOT = Path(__file__).resolve().parents[2] / "benchmarks"
FOLDER = ROOT / "data" / "chats"


def generator():
    spec = importlib.util.spec_from_file_location("make_dev_chats", ROOT / "make_dev_chats.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_chats_are_what_the_generator_writes():
    written = generator().chats()
    assert sorted(written) == sorted(path.stem for path in FOLDER.glob("*.json"))
    for name, chat in written.items():
        assert json.loads((FOLDER / f"{name}.json").read_text("utf-8")) == chat, name


@pytest.mark.parametrize("chat", load_chats(FOLDER), ids=lambda chat: chat.name)
def test_each_chat_spans_weeks_of_sessions_with_questions_of_every_category(chat):
    assert 150 <= len(chat.turns) <= 400
    assert len({turn.speaker for turn in chat.turns}) >= 2
    days = sorted({turn.time.date() for turn in chat.turns})
    assert len(days) >= 15 and (days[-1] - days[0]).days >= 42
    assert [turn.time for turn in chat.turns] == sorted(turn.time for turn in chat.turns)
    categories = {query.category for query in chat.queries}
    assert categories == {"time", "single-hop", "multi-hop", "open-domain", "current"}
    for query in chat.queries:
        assert query.gold_turns and query.text.strip()
        if query.category == "multi-hop":  # spread over sessions: answered on several days
            assert len({chat.turns[i].time.date() for i in query.gold_turns}) >= 2


def test_three_languages():
    languages = {json.loads(path.read_text("utf-8"))["language"] for path in FOLDER.glob("*.json")}
    assert languages >= {"en", "fr", "de"}
