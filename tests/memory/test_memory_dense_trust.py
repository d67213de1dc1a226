"""An embedding model that does not tell a memory's messages apart: the lexical score leads."""

from __future__ import annotations

import hashlib
import textwrap
import zlib

import numpy as np
import pytest
from rerank_plus.memory import Memory, MemoryItem, MemoryRetriever
from rerank_plus.memory.index.dense_trust import (
    BLIND_LIKENESS,
    LEXICAL_WEIGHT,
    MIN_MESSAGES,
    leaning_lexical,
    message_likeness,
)

from tests.memory.eval_meetings import hashed_words

MESSAGES = [
    "The venue in Lyon costs 900 euros for two days.",
    "Marketing wants the launch moved to March.",
    "The audit found two security issues in the payment module.",
    "I can fix both payment issues by Friday.",
    "The logo will be green and white, like the old one.",
    "Deploy command is make release at midnight.",
    "Catering sends the menu tomorrow morning.",
    "The poster for the launch is nearly done.",
]


def blind(texts: list[str]) -> np.ndarray:
    """Every text near one direction, the small rest noise: a model that does not read them
    (and here, ranks the catering message above all for any question)."""
    rows = np.ones((len(texts), 16), dtype=np.float32)
    for row, text in enumerate(texts):
        seed = 7 if "Catering" in text or "?" in text else zlib.crc32(text.encode())
        rows[row] += 0.2 * np.random.default_rng(seed).standard_normal(16)
    return rows


#: Messages on other things, each in words of its own, so that a memory holds enough to judge a
#: model by (MIN_MESSAGES) and a model that reads them tells them apart.
FILLERS = [
    "Ticket {}: {}.".format(n, " ".join(textwrap.wrap(hashlib.sha256(bytes([n])).hexdigest(), 6)))
    for n in range(MIN_MESSAGES)
]


def memory(texts: list[str] = MESSAGES + FILLERS) -> Memory:
    return Memory([MemoryItem(f"m{i}", 0, i, text) for i, text in enumerate(texts)])


def test_likeness_is_the_mean_cosine_of_two_different_messages() -> None:
    rows = hashed_words(MESSAGES)
    unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    pairs = [unit[i] @ unit[j] for i in range(len(unit)) for j in range(len(unit)) if i != j]
    assert message_likeness(unit) == pytest.approx(np.mean(pairs))
    assert message_likeness(unit[:1]) is None and message_likeness(None) is None
    # a large memory is read on evenly spaced messages: about the same mean, at a bounded cost
    rows = np.random.default_rng(3).standard_normal((9000, 32)) + 0.5
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    total = rows.sum(axis=0)
    exact = (total @ total - len(rows)) / (len(rows) * (len(rows) - 1))
    assert message_likeness(rows) == pytest.approx(exact, abs=0.01)


def test_a_blind_model_lets_the_lexical_score_lead_and_says_so() -> None:
    question = "When is the launch?"
    context = MemoryRetriever(memory(), embedder=blind).retrieve(question, max_tokens=40)
    assert "launch" in context.items[0].text  # without the lean, the catering message led
    (note,) = [n for n in context.guidance.notes if "barely tells" in n]
    assert "the lexical score leads the ranking" in note
    step = next(s for s in context.trace.to_dict()["steps"] if s["step"] == "dense")
    assert step["likeness"] > BLIND_LIKENESS
    # a model that reads the messages keeps its weight, and says nothing
    reading = MemoryRetriever(memory(), embedder=hashed_words).retrieve(question, max_tokens=40)
    assert not any("barely tells" in n for n in reading.guidance.notes)
    assert all(s["step"] != "dense" for s in reading.trace.to_dict()["steps"])


def test_a_memory_too_small_to_judge_the_model_by_says_nothing() -> None:
    """A few messages on one subject are alike to any model: under MIN_MESSAGES the blind
    model keeps its weight, and no note says it barely tells them apart."""
    small = memory(MESSAGES[:3])
    assert len(small.messages) < MIN_MESSAGES
    context = MemoryRetriever(small, embedder=blind).retrieve("When is the launch?", 40)
    assert not any("barely tells" in note for note in context.guidance.notes)
    assert all(s["step"] != "dense" for s in context.trace.to_dict()["steps"])


def test_three_messages_on_one_subject_are_no_sign_of_a_blind_model(minilm_embedder) -> None:
    """all-MiniLM-L6-v2 reads English; three messages about the launch are alike to it (mean
    cosine far above BLIND_LIKENESS) because they share a subject, not because it is blind."""
    texts = [
        "Ana: the launch moves to March because of the audit.",
        "Ben: so the launch party moves to March too?",
        "Ana: yes, the launch and the party both move to March.",
    ]
    retriever = MemoryRetriever(memory(texts), embedder=minilm_embedder)
    assert retriever.index().message_likeness > BLIND_LIKENESS
    context = retriever.retrieve("When is the launch?", max_tokens=200)
    assert context.items and not any("barely tells" in n for n in context.guidance.notes)


@pytest.mark.parametrize(
    ("fusion", "expected"),
    [
        ("rrf", {"method": "rrf", "alpha": LEXICAL_WEIGHT}),
        (
            {"method": "weighted", "normalization": "minmax"},
            {"method": "weighted", "normalization": "minmax", "alpha": LEXICAL_WEIGHT},
        ),
        (
            {"method": "adaptive", "unread_script_alpha": 0.95},
            {
                "method": "adaptive",
                "alpha": LEXICAL_WEIGHT,
                "unread_alpha": LEXICAL_WEIGHT,
                "unknown_alpha": LEXICAL_WEIGHT,
                "unread_script_alpha": 0.95,
            },
        ),
    ],
)
def test_leaning_lexical_raises_the_lexical_weight_only(fusion, expected) -> None:
    assert leaning_lexical(fusion) == expected


def test_a_blind_model_does_not_reorder_the_lexical_best() -> None:
    """Among the few messages that match a question far better than the rest, the blind
    cosine must not decide the order (the sharpest match leads)."""
    fillers = [f"Item {n}: note {n * 7} about shelf {n * 3} and crate {n * 11}." for n in range(48)]
    sharp = "The launch date: the launch happens on March 3, launch confirmed."
    loose = "Catering asked about the launch."  # the blind model's favourite (see blind)
    items = [MemoryItem(f"m{i}", 0, i, text) for i, text in enumerate([*fillers, loose, sharp])]
    context = MemoryRetriever(Memory(items), embedder=blind).retrieve(
        "What is the launch date?", max_tokens=400, intent="detail"
    )
    best = max(context.items, key=lambda item: item.score)
    assert best.text == sharp
