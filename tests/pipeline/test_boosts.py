"""Metadata boosts: freshness and priors; bad metadata is reported, never fatal."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from rerank_plus import BM25Reranker, FreshnessBoost, Pipeline, PriorBoost
from rerank_plus.combine.boosts import build_boost

NOW = datetime(2025, 3, 31, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    "stamp",
    [
        "2025-03-01T12:00:00Z",
        "2025-03-01T12:00:00+00:00",
        datetime(2025, 3, 1, 12),
        NOW.timestamp() - 30 * 86400,
    ],
)
def test_one_half_life_gives_half_the_weight(stamp) -> None:
    factor, explanation = FreshnessBoost(half_life_days=30, weight=0.8, now=NOW).factor(
        {"timestamp": stamp}
    )
    assert factor == pytest.approx(1.4)
    assert explanation["age_days"] == pytest.approx(30)


def test_future_and_date_values() -> None:
    boost = FreshnessBoost(half_life_days=1, weight=1.0, now=NOW)
    assert boost.factor({"timestamp": "2030-01-01"})[0] == 2.0
    assert boost.factor({"timestamp": date(2025, 3, 31)})[0] == pytest.approx(
        1 + 0.5**0.5
    )  # half a day old


@pytest.mark.parametrize(
    ("metadata", "problem"),
    [
        ({}, "no 'timestamp' field"),
        ({"timestamp": "last tuesday"}, "malformed timestamp 'last tuesday'"),
        ({"timestamp": [2024]}, "malformed timestamp [2024]"),
        ({"timestamp": None}, "malformed timestamp None"),
    ],
)
def test_missing_or_malformed_timestamps_are_unboosted_and_reported(metadata, problem) -> None:
    factor, explanation = FreshnessBoost(now=NOW).factor(metadata)
    assert factor == 1.0
    assert explanation["problem"] == problem


def test_priors_per_value() -> None:
    prior = PriorBoost("level", {"L1": 0.9, "L3": 1.3})
    assert prior.factor({"level": "L3"})[0] == 1.3
    assert prior.factor({"level": "L2"}) == (
        1.0,
        {"boost": "prior", "field": "level", "factor": 1.0, "problem": "value 'L2' has no weight"},
    )
    assert prior.factor({"level": {"x": 1}})[1]["problem"] == "malformed 'level' value {'x': 1}"


def test_freshness_reorders_equal_documents_and_explains(bm25: BM25Reranker) -> None:
    docs = ["Release notes for the new version.", "Release notes for the new version."]
    metadata = [{"timestamp": "2024-01-01"}, {"timestamp": "2025-03-30"}]
    pipeline = Pipeline(bm25, boosts=[FreshnessBoost(half_life_days=7, weight=1.0, now=NOW)])
    results = pipeline.rank("new version release notes", docs, metadata=metadata, explain=True)
    assert [r.index for r in results] == [1, 0]
    assert results[0].explanation["boosts"][0]["boost"] == "freshness"
    assert results[0].relevance_score <= 1.0


def test_bad_metadata_never_crashes_a_query(bm25: BM25Reranker) -> None:
    docs = ["alpha report", "alpha summary", "alpha notes"]
    metadata = [{"level": "L3"}, None, {"level": ["L1"], "timestamp": "soon"}]
    pipeline = Pipeline(bm25, boosts=[PriorBoost("level", {"L3": 2.0}), FreshnessBoost(now=NOW)])
    results = pipeline.rank("alpha", docs, metadata=metadata, explain=True)
    assert results[0].index == 0
    problems = [b.get("problem") for r in results for b in r.explanation["boosts"]]
    assert "malformed timestamp 'soon'" in problems


@pytest.mark.parametrize(
    ("metadata", "error", "message"),
    [
        ({"level": "L1"}, TypeError, "metadata must be a sequence of mappings"),
        ([{}], ValueError, "metadata has 1 items for 2 documents"),
        ([{}, "L1"], TypeError, r"metadata\[1\] is str, not a mapping"),
    ],
)
def test_metadata_shape_is_checked(bm25: BM25Reranker, metadata, error, message) -> None:
    with pytest.raises(error, match=message):
        bm25.rank("alpha", ["alpha", "beta"], metadata=metadata)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"type": "popularity"}, "Unknown boost type 'popularity'; choose one of freshness, prior"),
        ({"half_life_days": 7}, "Unknown boost type None; choose one of freshness, prior"),
        ({"type": "freshness", "half_life_days": 0}, "half_life_days must be a finite number > 0"),
        ({"type": "prior", "field": "level", "weights": {}}, "weights must map field values"),
        ({"type": "freshness", "decay": 2}, "Bad options for boost 'freshness'"),
    ],
)
def test_bad_boost_options(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        build_boost(options)


def test_a_pipeline_rejects_a_boost_given_as_a_dict() -> None:
    with pytest.raises(TypeError, match=r"boosts\[0\] is dict, not a boost.*from_config"):
        Pipeline(BM25Reranker(language="en"), boosts=[{"type": "prior", "field": "level"}])
