"""Cascades: a cheap stage cuts, a precise stage orders the survivors."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from rerank_plus import (
    BM25Reranker,
    Cascade,
    GapCutoff,
    Pipeline,
    PriorBoost,
    Reranker,
    Scores,
    TokenBudget,
    WeightedFusion,
)

DOCS = [
    "Marathon runners train for months before the race.",
    "The cat sat on the mat.",
    "Runners need good shoes.",
    "A marathon is 42 kilometres long; runners pace themselves.",
    "Gardens need water in summer.",
]


def test_cascade_keeps_the_counts_and_returns_the_last_stage_order(bm25: BM25Reranker) -> None:
    cascade = Cascade([bm25, BM25Reranker(k1=0.5, b=0.0)], keep=[3, 2])
    results = cascade.rank("marathon runners", DOCS)
    survivors = [r.index for r in bm25.rank("marathon runners", DOCS, top_n=3)]
    assert len(results) == 2
    assert {r.index for r in results} <= set(survivors)
    second = BM25Reranker(k1=0.5, b=0.0).rank("marathon runners", [DOCS[i] for i in survivors])
    assert [r.index for r in results] == [survivors[r.index] for r in second[:2]]


class KeepsGivenOrder(Reranker):
    """Scores by position, best first: a listwise stage that finds nothing to change."""

    def __init__(self) -> None:
        self.seen: list[list[str]] = []

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        self.seen.append(list(documents))
        values = [1.0 - i / len(documents) for i in range(len(documents))]
        return Scores(values, values)


def test_a_later_stage_gets_the_survivors_best_first(bm25: BM25Reranker) -> None:
    listwise = KeepsGivenOrder()
    results = Cascade([bm25, listwise], keep=[3, None]).rank("marathon runners", DOCS)
    first = [r.index for r in bm25.rank("marathon runners", DOCS, top_n=3)]
    assert listwise.seen == [[DOCS[i] for i in first]]
    assert [r.index for r in results] == first


def test_every_stage_score_is_visible_in_the_explanation(bm25: BM25Reranker) -> None:
    results = Cascade([bm25, BM25Reranker(k1=0.5)], keep=[3, None]).rank(
        "marathon runners", DOCS, explain=True
    )
    for result in results:
        stages = result.explanation["stages"]
        assert [s["stage"] for s in stages] == [0, 1]
        assert all(s["kept"] for s in stages)
        assert stages[1]["relevance_score"] == result.relevance_score
        assert "matched_terms" in stages[0]["explanation"]


def test_rank_top_n_applies_after_the_cascade(bm25: BM25Reranker) -> None:
    assert len(Cascade([bm25], keep=[4]).rank("runners", DOCS, top_n=2)) == 2
    assert len(Cascade([bm25], keep=[None]).rank("runners", DOCS)) == len(DOCS)
    assert Cascade([bm25], keep=[2]).rank("runners", []) == []


def test_final_ties_fall_back_to_input_order() -> None:
    # BM25 puts "dogs dogs dogs" first; with k1=0 term frequency no longer counts, so the
    # second stage ties both survivors, and the results list ties in the caller's order.
    docs = ["dogs", "dogs dogs dogs", "cats"]
    assert [r.index for r in BM25Reranker().rank("dogs", docs, top_n=2)] == [1, 0]
    cascade = Cascade([BM25Reranker(), BM25Reranker(k1=0.0)], keep=[2, None])
    results = cascade.rank("dogs", docs)
    assert [r.index for r in results] == [0, 1]
    assert results[0].score == results[1].score


FIRST_STAGE = [0.9, 0.8, 0.1, 0.2, 0.0]
LEVELS = [{"level": "raw"}, {}, {"level": "summary"}, {"level": "raw"}, {}]


def test_a_pipeline_stage_sees_its_survivors_first_stage_scores_and_metadata(bm25) -> None:
    stage = Pipeline(
        bm25,
        fusion=WeightedFusion(alpha=0.5),
        boosts=[PriorBoost("level", {"summary": 3.0, "raw": 1.0})],
    )
    results = Cascade([bm25, stage], keep=[3, None]).rank(
        "marathon runners", DOCS, first_stage_scores=FIRST_STAGE, metadata=LEVELS, explain=True
    )
    survivors = sorted(r.index for r in bm25.rank("marathon runners", DOCS, top_n=3))
    assert sorted(r.index for r in results) == survivors
    for result in results:
        last = result.explanation["stages"][-1]["explanation"]
        # each survivor's own first-stage score and metadata, not its neighbour's
        assert last["fusion"]["first_stage_score"] == FIRST_STAGE[result.index]
        assert last["boosts"][0]["factor"] == {"summary": 3.0, "raw": 1.0}.get(
            LEVELS[result.index].get("level"), 1.0
        )
    # the same order as the pipeline alone on the survivors, with their share of the inputs
    alone = stage.rank(
        "marathon runners",
        [DOCS[i] for i in survivors],
        first_stage_scores=[FIRST_STAGE[i] for i in survivors],
        metadata=[LEVELS[i] for i in survivors],
    )
    assert [r.index for r in results] == [survivors[r.index] for r in alone]
    assert [r.score for r in results] == pytest.approx([r.score for r in alone])


def test_a_pipeline_stage_scores_but_does_not_select(bm25) -> None:
    """As a stage, a Pipeline contributes its scores (reranker, fusion, boosts) only: its own
    ``top_n``, threshold, cutoff, diversity and token budget do not apply; ``keep`` decides."""
    stage = Pipeline(
        bm25,
        fusion=WeightedFusion(alpha=0.5),
        cutoff=GapCutoff(min_gap=0.01),
        budget=TokenBudget(max_tokens=1),
        top_n=1,
        threshold=0.99,
    )
    assert len(stage.rank("runners", DOCS, first_stage_scores=FIRST_STAGE)) <= 1
    results = Cascade([stage, bm25], keep=[4, 3]).rank(
        "runners", DOCS, first_stage_scores=FIRST_STAGE
    )
    assert len(results) == 3


@pytest.mark.parametrize(
    ("stages", "keep", "error", "message"),
    [
        ([], [], ValueError, "needs at least one stage"),
        (["bm25"], [5], TypeError, r"stages\[0\] is str, not a Reranker"),
        ([BM25Reranker()], [5, 2], ValueError, "keep has 2 values for 1 stages"),
        ([BM25Reranker()], [0], ValueError, r"keep\[0\] must be a positive int or None"),
    ],
)
def test_bad_cascades_are_refused(stages, keep, error, message) -> None:
    with pytest.raises(error, match=message):
        Cascade(stages, keep)


@pytest.mark.slow
def test_bm25_then_real_minilm_bi_encoder(minilm_encoder, bm25: BM25Reranker) -> None:
    docs = [
        "The Eiffel Tower is a wrought-iron tower in Paris.",
        "Paris hosts many museums, such as the Louvre.",
        "Tower cranes lift heavy loads on building sites.",
        "Iron is a metal used since antiquity.",
        "Bananas are rich in potassium.",
    ]
    results = Cascade([bm25, minilm_encoder], keep=[3, 2]).rank(
        "Which tower stands in Paris?", docs, explain=True
    )
    assert results[0].index == 0
    assert [s["reranker"] for s in results[0].explanation["stages"]] == [
        "BM25Reranker",
        "BiEncoderReranker",
    ]
    assert results[0].explanation["stages"][1]["explanation"]["cosine"] == results[0].score
