# ruff: noqa: RUF001  (chats in scripts written without spaces, with their own punctuation)
"""Memories of chats written without spaces between words (Chinese, Japanese, Thai): windows,
levels and token budgets measure them by letters, not by white-space words (one per message)."""

from __future__ import annotations

import pytest
from rerank_plus.memory import Memory, MemoryRetriever
from rerank_plus.memory.ingest import build_memory
from rerank_plus.memory.model.sentences import word_count
from rerank_plus.selection.budget import approximate_tokens

from tests.memory.build_chats import UNSPACED_TOPICS, topic_chat

#: A question about the budget in each language, and a word every budget line holds.
BUDGET_QUESTIONS = {
    "zh": ("云服务的预算增加了多少？", "预算"),
    "ja": ("クラウドの予算はどれくらい増えましたか？", "予算"),
    "th": ("งบประมาณค่าคลาวด์เพิ่มขึ้นเท่าไร", "งบประมาณ"),
}


@pytest.fixture(scope="module", params=sorted(UNSPACED_TOPICS))
def chat(request: pytest.FixtureRequest) -> tuple[str, list[dict], Memory]:
    messages = topic_chat(topics=UNSPACED_TOPICS[request.param])
    return request.param, messages, build_memory(messages)


def test_a_150_message_chat_gets_two_summary_levels(chat: tuple[str, list[dict], Memory]) -> None:
    _, messages, memory = chat
    assert len(memory.messages) == len(messages) == 150
    assert memory.depth >= 3
    assert len(memory.level(memory.depth - 1)) <= 4


def test_windows_hold_one_topic_each(chat: tuple[str, list[dict], Memory]) -> None:
    _, messages, memory = chat
    windows = memory.level(1)
    assert len(windows) >= 6  # a window is no longer the whole chat
    for window in windows:
        topics = {messages[int(cover.removeprefix("m"))]["topic"] for cover in window.covers}
        assert len(topics) == 1, (window.id, topics)


def test_letters_count_as_words_and_tokens(chat: tuple[str, list[dict], Memory]) -> None:
    _, messages, _ = chat
    line = messages[0]["text"]
    assert len(line.split()) <= 2
    assert word_count(line) >= 12
    assert approximate_tokens(line) >= word_count(line)
    assert word_count("Budget approved, 40k") == 3  # spaced scripts as before


def test_contexts_stay_within_the_budget_as_tokens_count_letters(
    chat: tuple[str, list[dict], Memory],
) -> None:
    language, _, memory = chat
    question, word = BUDGET_QUESTIONS[language]
    context = MemoryRetriever(memory).retrieve(question, max_tokens=200)
    assert 0 < context.tokens <= 200
    assert approximate_tokens(context.text) <= 200
    quotes = [item for item in context.items if item.block == "quotes"]
    assert quotes and word in quotes[0].text
