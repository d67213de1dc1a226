"""What every context a retriever hands back holds, over many questions, budgets and intents:
no item both in the context and among the trace's rejected, and every item with a score above 0
beside its neighbours' (a similarity cutoff after the retriever must not drop a drilled stretch's
quiet messages)."""

from __future__ import annotations

import math

import pytest
from rerank_plus.memory import MemoryRetriever, build_memory
from rerank_plus.memory.context.compose import UNMATCHED, UNSCORED, context_items
from rerank_plus.memory.context.state import Placed
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.policy import INTENTS
from rerank_plus.memory.retrieve.search import Hit

from tests.memory.build_chats import topic_chat
from tests.memory.eval_meetings import hashed_words

QUESTIONS = [
    "venue deposit",
    "What did Bob say about the budget?",
    "Summarize the meeting",
    "checkout crash on mobile",
    "What's new?",
    "Who is Dana Whitfield?",
    "ok",
    "zebra giraffe",  # no message holds a word of it
    "Quel est le budget pour les licences ?",
    "hotel rooms near the venue for the offsite in Lyon in March",
]
BUDGETS = [25, 60, 150, 400, 1200]


@pytest.fixture(scope="module", params=["lexical", "embedded"])
def retriever(request: pytest.FixtureRequest) -> MemoryRetriever:
    """Three topics over 60 messages (fillers among them), three levels; with and without an
    embedder (a bag of hashed words: the dense path without a model)."""
    embedder = hashed_words if request.param == "embedded" else None
    memory = build_memory(topic_chat(20), embedder=embedder, window_words=60)
    assert memory.depth == 3
    return MemoryRetriever(memory, embedder=embedder)


def contexts(retriever: MemoryRetriever):
    for question in QUESTIONS:
        for budget in BUDGETS:
            for intent in (None, *INTENTS):
                yield retriever.retrieve(question, max_tokens=budget, intent=intent)


def test_no_item_is_both_in_the_context_and_rejected(retriever: MemoryRetriever) -> None:
    """An item that did not fit a block's quota, then fitted what the blocks left (or was a
    filler kept for want of anything else), is in the context, not among the rejected."""
    for context in contexts(retriever):
        rejected = {entry["id"] for entry in context.trace.to_dict()["rejected"]}
        assert rejected.isdisjoint(item.id for item in context.items), context.trace.query


def test_every_item_has_a_finite_score_above_0(
    retriever: MemoryRetriever,
) -> None:
    for context in contexts(retriever):
        scores = [item.score for item in context.items]
        assert all(math.isfinite(score) and score > 0 for score in scores), scores
        assert all(type(score) is float for score in scores)


def test_an_answers_quiet_neighbours_score_as_the_weakest_match_beside_them() -> None:
    """A drilled stretch around the answer holds messages that share no word with the
    question (the light stage scores them 0): each carries the weakest match's score, so a
    cutoff that keeps every match keeps the stretch whole, and none outranks the answer."""
    messages = [
        "Ana: the catering for the offsite is settled.",
        "Ben: good, and the chairs arrive on Monday.",
        "Ana: the venue deposit is 900 euros, due Friday.",
        "Ben: fine, I will tell finance today.",
        "Ana: and the projector comes from our office.",
    ] + [f"Cleo: note {n} about shelf {n * 3} and crate {n * 7}." for n in range(30)]
    memory = build_memory(messages, window_words=40)
    context = MemoryRetriever(memory).retrieve("venue deposit", max_tokens=200, intent="detail")
    quotes = [item for item in context.items if item.block == "quotes"]
    answer = next(item for item in quotes if "deposit" in item.text)
    quiet = [item for item in quotes if item.index in (answer.index - 1, answer.index + 1)]
    assert quiet, "the answer's neighbours are drilled into the context"
    matched = [item.score for item in quotes if "venue" in item.text or "deposit" in item.text]
    assert all(0 < item.score <= answer.score for item in quotes)
    assert all(item.score >= min(matched) for item in quiet)


def placed(scores: list[tuple[str, float]]) -> list[Placed]:
    return [
        Placed(Hit(MemoryItem(f"i{n}", 0 if block == "quotes" else 1, n, "x"), score), block, "x")
        for n, (block, score) in enumerate(scores)
    ]


@pytest.mark.parametrize(
    ("scores", "to_match", "expected"),
    [
        # the weakest scored item of the block
        ([("quotes", 0.8), ("quotes", 0.0), ("quotes", 0.3)], True, [0.8, 0.3, 0.3]),
        # none scored in its block: the context's weakest
        ([("extracts", 0.0), ("quotes", 0.5), ("quotes", 0.2)], True, [0.2, 0.5, 0.2]),
        # none scored anywhere: by whether the question had words to match
        ([("quotes", 0.0), ("extracts", 0.0)], False, [UNSCORED, UNSCORED]),
        ([("quotes", 0.0), ("extracts", 0.0)], True, [UNMATCHED, UNMATCHED]),
    ],
)
def test_an_item_without_a_score_of_its_own_takes_the_weakest_beside_it(
    scores: list[tuple[str, float]], to_match: bool, expected: list[float]
) -> None:
    items = context_items(placed(scores), to_match=to_match)
    assert [item.score for item in items] == expected
