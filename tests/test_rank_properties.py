"""Invariants of the rank contract, checked on generated inputs (hypothesis)."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import BM25Reranker
from rerank_plus.results import RankedResult
from rerank_plus.selection.order import order_results, select_results

from tests.strategies import WORDS, document_lists, queries, thresholds, top_ns

# Forced language: generated word soup has no reliable language, and detection is tested apart.
RERANKER = BM25Reranker(language="en")
PROPERTY_SETTINGS = settings(max_examples=60, deadline=None)


@PROPERTY_SETTINGS
@given(queries, document_lists, top_ns, thresholds)
def test_results_are_a_bounded_subset_without_duplicates(query, documents, top_n, threshold):
    before = copy.deepcopy(documents)
    results = RERANKER.rank(query, documents, top_n=top_n, threshold=threshold)
    indices = [r.index for r in results]
    assert documents == before
    assert len(set(indices)) == len(indices)
    assert set(indices) <= set(range(len(documents)))
    if threshold is None:
        assert len(results) == min(top_n or len(documents), len(documents))
    assert all(0.0 <= r.relevance_score <= 1.0 for r in results)
    assert all(threshold is None or r.relevance_score >= threshold for r in results)


@PROPERTY_SETTINGS
@given(queries, document_lists)
def test_order_is_best_first_with_ties_in_input_order(query, documents):
    results = RERANKER.rank(query, documents)
    keys = [(-r.relevance_score, -r.score, r.index) for r in results]
    assert keys == sorted(keys)
    assert RERANKER.rank(query, documents) == results


@PROPERTY_SETTINGS
@given(queries, document_lists, st.data())
def test_a_query_term_never_lowers_the_score(query, documents, data):
    """Replacing a non-query word by a query term never makes a document score lower."""
    query_words = set(query.split())
    others = [w for w in WORDS if w not in query_words and w not in ("42",)]
    base = data.draw(st.lists(st.sampled_from(others), min_size=1, max_size=10))
    position = data.draw(st.integers(0, len(base) - 1))
    term = data.draw(st.sampled_from(sorted(query_words)))
    with_term = [*base[:position], term, *base[position + 1 :]]
    candidates = [*documents, " ".join(base), " ".join(with_term)]
    scores = {r.index: r.score for r in RERANKER.rank(query, candidates)}
    assert scores[len(candidates) - 1] >= scores[len(candidates) - 2]


@PROPERTY_SETTINGS
@given(queries, document_lists)
def test_scores_do_not_depend_on_input_order(query, documents):
    forward = {r.index: r.score for r in RERANKER.rank(query, documents)}
    backward = {
        len(documents) - 1 - r.index: r.score for r in RERANKER.rank(query, documents[::-1])
    }
    assert forward.keys() == backward.keys()
    for index, score in forward.items():
        assert abs(score - backward[index]) < 1e-9


def test_equal_relevance_falls_back_to_the_raw_score_then_the_input_order():
    results = [
        RankedResult(index=0, score=2.0, relevance_score=1.0),
        RankedResult(index=1, score=5.0, relevance_score=1.0),
        RankedResult(index=2, score=5.0, relevance_score=1.0),
        RankedResult(index=3, score=9.0, relevance_score=0.5),
    ]
    assert [r.index for r in order_results(results)] == [1, 2, 0, 3]


def test_a_threshold_keeps_a_relevance_equal_to_it():
    ordered = [
        RankedResult(index=0, score=3.0, relevance_score=0.75),
        RankedResult(index=1, score=2.0, relevance_score=0.5),
        RankedResult(index=2, score=1.0, relevance_score=0.25),
    ]
    assert [r.index for r in select_results(ordered, threshold=0.5)] == [0, 1]
    assert [r.index for r in select_results(ordered, top_n=1, threshold=0.5)] == [0]
    assert [r.index for r in select_results(ordered, top_n=2)] == [0, 1]
    assert select_results(ordered) == ordered
    ranked = RERANKER.rank("cat", ["cat cat", "cat dog", "dog"])
    kept = RERANKER.rank("cat", ["cat cat", "cat dog", "dog"], threshold=ranked[1].relevance_score)
    assert kept == ranked[:2]
