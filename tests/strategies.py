"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

from hypothesis import strategies as st

#: A small vocabulary so that generated documents share words (and ties happen).
WORDS = ("marathon", "runner", "train", "speed", "cat", "house", "blue", "garden", "river", "42")

words = st.sampled_from(WORDS)
documents = st.lists(words, min_size=0, max_size=12).map(" ".join)
document_lists = st.lists(documents, min_size=0, max_size=25)
queries = st.lists(words, min_size=1, max_size=4).map(" ".join)
top_ns = st.none() | st.integers(min_value=1, max_value=30)
thresholds = st.none() | st.floats(min_value=0.0, max_value=1.0)
