"""``Pipeline.order_scored`` (candidates already scored by the pipeline's reranker) must order
and score exactly as ``Pipeline.rank`` does before its selection."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import BM25Reranker, FreshnessBoost, Pipeline, PriorBoost
from rerank_plus.combine import WeightedFusion

from tests.strategies import document_lists, queries

NOW = datetime(2025, 3, 31, 12, tzinfo=UTC)
BANDS = ("low", "mid", "top")


def fields(position: int) -> dict[str, object]:
    """Metadata that repeats every few documents (priors) with a time per document."""
    return {
        "band": BANDS[position % 3],
        "timestamp": NOW - timedelta(days=position % 5),
    }


def pipelines() -> list[Pipeline]:
    boosts = [PriorBoost("band", {"low": 0.7, "top": 1.6}), FreshnessBoost(now=NOW)]
    return [
        Pipeline(BM25Reranker()),
        Pipeline(BM25Reranker(), fusion=WeightedFusion(alpha=0.4)),
        Pipeline(BM25Reranker(), boosts=boosts),
        Pipeline(BM25Reranker(), fusion=WeightedFusion(alpha=0.6), boosts=boosts),
    ]


@settings(max_examples=60, deadline=None)
@given(
    query=queries,
    documents=document_lists.filter(bool),
    with_first_stage=st.booleans(),
    shared=st.booleans(),
    data=st.data(),
)
def test_order_scored_equals_rank(query, documents, with_first_stage, shared, data) -> None:
    first_stage = (
        data.draw(st.lists(st.floats(0, 1), min_size=len(documents), max_size=len(documents)))
        if with_first_stage
        else None
    )
    by_fields = {p: fields(p) for p in range(5)}  # shared: one mapping per distinct content
    metadata = [by_fields[p % 5] if shared else fields(p % 5) for p in range(len(documents))]
    for pipeline in pipelines():
        ranked = pipeline.rank(query, documents, first_stage_scores=first_stage, metadata=metadata)
        order, scores = pipeline.order_scored(
            query,
            pipeline.reranker.score(query, documents),
            first_stage_scores=first_stage,
            metadata=metadata,
        )
        assert order == [r.index for r in ranked]
        assert [scores.raw[i] for i in order] == [r.score for r in ranked]
        assert [scores.relevance[i] for i in order] == [r.relevance_score for r in ranked]


def test_one_product_per_shared_mapping() -> None:
    calls: list[object] = []

    class Counting(PriorBoost):
        def factor(self, metadata):  # type: ignore[no-untyped-def]
            calls.append(metadata)
            return super().factor(metadata)

    pipeline = Pipeline(BM25Reranker(), boosts=[Counting("band", {"top": 2.0})])
    top, low = {"band": "top"}, {"band": "low"}
    documents = ["a cat", "a river", "a river and a cat", "blue"]
    order, _ = pipeline.order_scored(
        "cat river", pipeline.reranker.score("cat river", documents), metadata=[low, top] * 2
    )
    assert len(calls) == 2  # two mappings, four candidates
    assert order == [1, 2, 0, 3]  # the boosted river first, "blue" (no match) last
