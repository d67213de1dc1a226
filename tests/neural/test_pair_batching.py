"""Length batching and window splitting: pure functions, no model."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rerank_plus.scoring.batching import estimate_tokens, length_batches
from rerank_plus.scoring.passages import windows


@given(
    st.lists(st.integers(1, 600), max_size=60),
    st.integers(1, 40),
    st.integers(1, 20_000),
)
def test_batches_cover_every_pair_once_within_the_budget(lengths, max_pairs, max_tokens):
    batches = length_batches(lengths, max_pairs, max_tokens)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:
        assert len(batch) <= max_pairs
        assert len(batch) == 1 or len(batch) * max(lengths[i] for i in batch) <= max_tokens
    flat = [lengths[i] for batch in batches for i in batch]
    assert flat == sorted(lengths, reverse=True)


def test_short_pairs_are_not_padded_to_a_long_one() -> None:
    assert length_batches([500, 40, 45, 480, 50], max_pairs=32, max_tokens=1024) == [
        [0, 3],
        [4, 2, 1],
    ]


def test_token_estimate_stops_at_the_model_window() -> None:
    assert estimate_tokens("q", "word " * 1000, limit=512) == 512
    assert estimate_tokens("what", "a short text", limit=512) == 7
    assert estimate_tokens("what", "a short text.", limit=512) == 7  # 17 chars: whole tokens
    assert estimate_tokens("what", "a short text.", limit=7) == 7


def test_a_batch_may_fill_its_budget_exactly() -> None:
    assert length_batches([100, 100, 100], max_pairs=8, max_tokens=200) == [[0, 1], [2]]
    assert length_batches([100, 100, 100], max_pairs=2, max_tokens=1000) == [[0, 1], [2]]


def test_windows_overlap_and_reach_the_end() -> None:
    text = " ".join(str(i) for i in range(25))
    parts = windows(text, size=10, overlap=4)
    assert parts[0].split()[0] == "0" and parts[-1].split()[-1] == "24"
    for left, right in itertools.pairwise(parts):
        assert set(left.split()) & set(right.split())
    assert windows("short text", size=10, overlap=4) == ["short text"]
    with pytest.raises(ValueError, match="overlap < size"):
        windows(text, size=5, overlap=5)
