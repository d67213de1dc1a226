"""Metadata boosts: freshness and priors; bad metadata is reported, never fatal."""

from __future__ import annotations

import re
import time
from datetime import UTC, date, datetime

import pytest
from rerank_plus import BM25Reranker, FreshnessBoost, Pipeline, PriorBoost
from rerank_plus.combine.boosts import build_boost, parse_timestamp

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
        # ISO 8601 writes UTC as an upper-case Z only
        ({"timestamp": "2025-03-30T12:00:00z"}, "malformed timestamp '2025-03-30T12:00:00z'"),
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


def test_freshness_explains_age_decay_and_factor_exactly() -> None:
    boost = FreshnessBoost(field="published", half_life_days=10, weight=0.5, now=NOW)
    assert boost.factor({"published": "2025-03-21T12:00:00Z"}) == (
        1.25,
        {
            "boost": "freshness",
            "field": "published",
            "age_days": 10.0,
            "decay": 0.5,
            "factor": 1.25,
        },
    )
    assert boost.factor({"timestamp": "2025-03-21"}) == (
        1.0,
        {
            "boost": "freshness",
            "field": "published",
            "factor": 1.0,
            "problem": "no 'published' field",
        },
    )
    assert boost.factor({"published": "soon"}) == (
        1.0,
        {
            "boost": "freshness",
            "field": "published",
            "factor": 1.0,
            "problem": "malformed timestamp 'soon'",
        },
    )


def test_freshness_with_zero_weight_is_unboosted_and_without_now_reads_the_clock() -> None:
    assert FreshnessBoost(weight=0, now=NOW).factor({"timestamp": "2025-03-31"})[0] == 1.0
    week_old = datetime.now(UTC).timestamp() - 7 * 86400
    factor, explanation = FreshnessBoost(half_life_days=7, weight=1.0).factor(
        {"timestamp": week_old}
    )
    assert factor == pytest.approx(1.5, abs=1e-4)
    assert explanation["age_days"] == pytest.approx(7.0, abs=1e-3)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (" 2024-05-01T12:00:00Z ", "2024-05-01T12:00:00+00:00"),
        ("2024-05-01T12:00:00+02:00", "2024-05-01T12:00:00+02:00"),
        ("2024-05-01", "2024-05-01T00:00:00+00:00"),
        (date(2024, 5, 1), "2024-05-01T00:00:00+00:00"),
        (datetime(2024, 5, 1, 8, 30), "2024-05-01T08:30:00+00:00"),
        (0, "1970-01-01T00:00:00+00:00"),
        (86400.5, "1970-01-02T00:00:00.500000+00:00"),
    ],
)
def test_timestamps_of_every_kind_become_aware_datetimes(value, expected) -> None:
    assert parse_timestamp(value).isoformat() == expected


@pytest.mark.parametrize("value", [True, None, [2024], b"2024-05-01"])
def test_a_timestamp_of_another_type_is_refused_by_name(value) -> None:
    message = f"a timestamp must be a datetime, date, number or ISO string, not {value!r}"
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        parse_timestamp(value)


def test_prior_explanations_name_the_value_or_the_problem() -> None:
    prior = PriorBoost("level", {"L3": 1.3, 2: 0}, default=0.5)
    head = {"boost": "prior", "field": "level"}
    assert prior.weights == {"L3": 1.3, "2": 0.0}
    assert prior.factor({"level": "L3"}) == (1.3, {**head, "value": "L3", "factor": 1.3})
    assert prior.factor({"level": 2}) == (0.0, {**head, "value": 2, "factor": 0.0})
    assert prior.factor({}) == (0.5, {**head, "factor": 0.5, "problem": "no 'level' field"})
    assert prior.factor({"level": True}) == (
        0.5,
        {**head, "factor": 0.5, "problem": "malformed 'level' value True"},
    )
    assert prior.factor({"level": "L9"}) == (
        0.5,
        {**head, "factor": 0.5, "problem": "value 'L9' has no weight"},
    )
    assert PriorBoost("level", {"L3": 2}, default=0).default == 0.0


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: PriorBoost("", {"a": 1}),
            "field must be a metadata key (a non-empty str), got ''.",
        ),
        (lambda: PriorBoost(3, {"a": 1}), "field must be a metadata key (a non-empty str), got 3."),
        (
            lambda: PriorBoost("level", ["a"]),
            "weights must map field values to factors, got ['a'].",
        ),
        (
            lambda: PriorBoost("level", {"a": -1}),
            "weights['a'] must be a finite number >= 0, got -1.",
        ),
        (
            lambda: PriorBoost("level", {"a": True}),
            "weights['a'] must be a finite number >= 0, got True.",
        ),
        (
            lambda: PriorBoost("level", {"a": 1}, default=-0.5),
            "default must be a finite number >= 0, got -0.5.",
        ),
        (
            lambda: FreshnessBoost(field=""),
            "field must be a metadata key (a non-empty str), got ''.",
        ),
        (lambda: FreshnessBoost(field=7), "field must be a metadata key (a non-empty str), got 7."),
        (
            lambda: FreshnessBoost(half_life_days=0),
            "half_life_days must be a finite number > 0, got 0.",
        ),
        (
            lambda: FreshnessBoost(half_life_days=float("inf")),
            "half_life_days must be a finite number > 0, got inf.",
        ),
        (lambda: FreshnessBoost(weight=-1), "weight must be a finite number >= 0, got -1."),
        (lambda: FreshnessBoost(weight="1"), "weight must be a finite number >= 0, got '1'."),
    ],
)
def test_bad_boost_arguments_give_the_whole_message(build, message) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        build()


def test_boosts_built_by_name_keep_their_options_and_say_them() -> None:
    freshness = build_boost({"type": "freshness", "field": "updated", "half_life_days": 7})
    assert repr(freshness) == "FreshnessBoost(field='updated', half_life_days=7.0, weight=0.5)"
    assert freshness.now is None
    prior = build_boost({"type": "prior", "field": "level", "weights": {"L1": 2}})
    assert repr(prior) == "PriorBoost(field='level', weights={'L1': 2.0})"
    # the TypeError's own words name the function (as Python spells it), then the keyword
    message = (
        r"^Bad options for boost 'freshness': .+\(\) got an unexpected keyword argument 'decay'\.$"
    )
    with pytest.raises(ValueError, match=message):
        build_boost({"type": "freshness", "decay": 2})


@pytest.mark.skipif(not hasattr(time, "tzset"), reason="time.tzset is Unix only")
def test_epoch_seconds_are_utc_whatever_the_machine_time_zone(monkeypatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert parse_timestamp(0).isoformat() == "1970-01-01T00:00:00+00:00"
        assert parse_timestamp(datetime(2024, 5, 1, 8)).isoformat() == "2024-05-01T08:00:00+00:00"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_freshness_defaults() -> None:
    boost = FreshnessBoost()
    assert (boost.field, boost.half_life_days, boost.weight, boost.now) == (
        "timestamp",
        30.0,
        0.5,
        None,
    )
