"""The rank contract holds for the cross-encoder too: subset, no duplicates, bounded, ordered."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from rerank_plus import CrossEncoderReranker
from strategies import document_lists, queries, thresholds, top_ns

pytest.importorskip("sentence_transformers")


@pytest.fixture(scope="module")
def reranker(tiny_cross_encoder_path) -> CrossEncoderReranker:
    return CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu", batch_tokens=64)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=queries, documents=document_lists, top_n=top_ns, threshold=thresholds)
def test_rank_contract(reranker, query, documents, top_n, threshold) -> None:
    before = list(documents)
    results = reranker.rank(query, documents, top_n=top_n, threshold=threshold)
    assert documents == before
    indices = [r.index for r in results]
    assert len(set(indices)) == len(indices) <= len(documents)
    assert top_n is None or len(results) <= top_n
    for result in results:
        assert 0.0 <= result.relevance_score <= 1.0 and not math.isnan(result.score)
        assert threshold is None or result.relevance_score >= threshold
    keys = [(-r.relevance_score, -r.score, r.index) for r in results]
    assert keys == sorted(keys)
