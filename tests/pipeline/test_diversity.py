"""Maximal marginal relevance: near-duplicates do not fill the top-n."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import Analyzer, BM25Reranker, MaximalMarginalRelevance, Pipeline
from rerank_plus.selection import LexicalSimilarity
from rerank_plus.selection.diversity import EmbeddingSimilarity
from strategies import documents

NEAR_DUPLICATES = [
    "The marathon runners train for months before the big race.",
    "The marathon runners train for months before the big race!",
    "Marathon runners train for months before the big race.",
    "Runners eat pasta the night before a marathon.",
    "Marathon shoes wear out after 800 kilometres of running.",
]


@settings(deadline=None)  # the first example builds the analyzer (spaCy, lingua)
@given(st.lists(documents, min_size=0, max_size=12), st.data())
def test_lambda_one_is_the_relevance_order(texts: list[str], data) -> None:
    relevance = data.draw(st.lists(st.floats(0, 1), min_size=len(texts), max_size=len(texts)))
    relevance = sorted(relevance, reverse=True)
    assert MaximalMarginalRelevance(lambda_=1.0).order(relevance, texts) == list(range(len(texts)))


@settings(deadline=None)
@given(st.lists(documents, min_size=1, max_size=10), st.floats(0, 1))
def test_mmr_is_a_permutation(texts: list[str], lambda_: float) -> None:
    relevance = [1.0 - i / len(texts) for i in range(len(texts))]
    order = MaximalMarginalRelevance(lambda_=lambda_).order(relevance, texts, limit=3)
    assert sorted(order) == list(range(len(texts)))


def test_near_duplicates_do_not_fill_the_top_n(bm25: BM25Reranker) -> None:
    query = "how long do marathon runners train"
    plain = [r.index for r in bm25.rank(query, NEAR_DUPLICATES, top_n=3)]
    assert set(plain) == {0, 1, 2}  # without diversity, three copies of one passage
    diverse = Pipeline(bm25, diversity=MaximalMarginalRelevance(lambda_=0.5), top_n=3)
    results = diverse.rank(query, NEAR_DUPLICATES, explain=True)
    kept = [r.index for r in results]
    assert kept[0] == plain[0]
    assert len(set(kept) & {0, 1, 2}) == 1
    assert results[1].explanation["selection"]["mmr_lambda"] == 0.5
    assert results[1].explanation["selection"]["max_similarity_to_above"] < 0.5


def test_lexical_similarity_reads_analyzed_terms() -> None:
    # Texts this short have no reliable language: say which one, or they get the neutral analysis.
    similarity = LexicalSimilarity(Analyzer(default_language="en"))
    matrix = similarity.matrix(["The runners ran.", "A runner runs!", "Blue garden", ""])
    assert matrix[0][1] == pytest.approx(1.0)  # same lemmas, different surface forms
    assert matrix[0][2] == 0.0
    assert matrix[3][3] == 1.0 and matrix[3][0] == 0.0


def test_bad_lambda_and_encoder_are_refused() -> None:
    with pytest.raises(ValueError, match=r"lambda_ must be a number in \[0, 1\]"):
        MaximalMarginalRelevance(lambda_=2)
    with pytest.raises(TypeError, match="needs an object with embed"):
        EmbeddingSimilarity(object())


@pytest.mark.slow
def test_embedding_similarity_with_the_real_minilm(minilm_encoder, bm25: BM25Reranker) -> None:
    mmr = MaximalMarginalRelevance(lambda_=0.5, similarity=EmbeddingSimilarity(minilm_encoder))
    results = Pipeline(bm25, diversity=mmr, top_n=3).rank(
        "how long do marathon runners train", NEAR_DUPLICATES
    )
    assert len({r.index for r in results} & {0, 1, 2}) == 1
