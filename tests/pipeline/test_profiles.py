"""from_config: the platform rerank shape, full configurations, files, and ready profiles."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from rerank_plus import (
    BM25Reranker,
    Cascade,
    FreshnessBoost,
    GapCutoff,
    MaximalMarginalRelevance,
    Pipeline,
    PriorBoost,
    ReciprocalRankFusion,
    TokenBudget,
    from_config,
)
from rerank_plus.combine import AdaptiveFusion, build_fusion
from rerank_plus.compose.profiles import DEFAULT_FUSION, PROFILES


def test_platform_shape() -> None:
    pipeline = from_config({"rerank": {"provider": "bm25", "k": 3, "relevanceScore": 0.3}})
    assert isinstance(pipeline.reranker, BM25Reranker)
    assert (pipeline.top_n, pipeline.threshold, pipeline.fusion) == (3, 0.3, None)


def test_platform_model_name_reaches_the_provider() -> None:
    pipeline = from_config({"rerank": {"provider": "bi-encoder", "modelName": "some/model"}})
    assert pipeline.reranker.model == "some/model"  # built lazily: nothing is loaded yet


def test_full_configuration_builds_every_part() -> None:
    pipeline = from_config(
        {
            "reranker": {
                "cascade": [{"provider": "bm25"}, {"provider": "bm25", "k1": 1.2}],
                "keep": [30, 5],
            },
            "fusion": {"method": "rrf", "k": 10},
            "boosts": [{"type": "prior", "field": "source", "weights": {"wiki": 1.2}}],
            "selection": {
                "top_n": 4,
                "threshold": 0.1,
                "cutoff": {"method": "gap"},
                "diversity": {"lambda": 0.6},
                "max_tokens": 500,
            },
        }
    )
    assert isinstance(pipeline.reranker, Cascade) and pipeline.reranker.keep == [30, 5]
    assert isinstance(pipeline.fusion, ReciprocalRankFusion) and pipeline.fusion.k == 10
    assert isinstance(pipeline.boosts[0], PriorBoost)
    assert isinstance(pipeline.cutoff, GapCutoff)
    assert isinstance(pipeline.diversity, MaximalMarginalRelevance)
    assert pipeline.diversity.lambda_ == 0.6
    assert isinstance(pipeline.budget, TokenBudget) and pipeline.budget.max_tokens == 500


def days_ago(days: float) -> str:
    return (datetime.now(UTC) - timedelta(days=days)).isoformat()


#: Per profile, metadata for two equally relevant documents where the profile's boost must put
#: the second first (equal scores would otherwise keep input order), and a third unrelated one.
PREFERRED_SECOND = {
    "synthesis": [{"level": "L1"}, {"level": "L3"}, {"level": "L3"}],
    "detail": [{"level": "L3"}, {"level": "L1"}, {"level": "L1"}],
    "recent": [{"timestamp": days_ago(90)}, {"timestamp": days_ago(0)}, {"timestamp": days_ago(0)}],
}


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_ready_profiles_rank(name: str) -> None:
    pipeline = from_config(name)
    assert isinstance(pipeline, Pipeline)
    docs = ["Sales rose in March.", "Sales rose in March!", "Cats purr."]
    results = pipeline.rank(
        "sales", docs, first_stage_scores=[0.5, 0.5, 0.1], metadata=PREFERRED_SECOND[name]
    )
    assert [r.index for r in results][:2] == [1, 0]
    assert results[0].score > results[1].score  # the boost, not input order, decides
    assert all(r.index != 2 for r in results[:2]) and len(results) <= pipeline.top_n


def test_profiles_mean_what_they_say() -> None:
    synthesis, detail, recent = (from_config(n) for n in ("synthesis", "detail", "recent"))
    assert synthesis.diversity.lambda_ < detail.diversity.lambda_
    assert synthesis.boosts[0].weights["L3"] > synthesis.boosts[0].weights["L1"]
    assert detail.boosts[0].weights["L1"] > detail.boosts[0].weights["L3"]
    assert detail.fusion.alpha > synthesis.fusion.alpha
    assert isinstance(recent.boosts[0], FreshnessBoost)
    assert synthesis.fusion.settings() == build_fusion(DEFAULT_FUSION).settings()


def test_a_profile_with_overrides() -> None:
    pipeline = from_config({"profile": "recent", "selection": {"top_n": 2}})
    assert pipeline.top_n == 2
    assert pipeline.diversity.lambda_ == PROFILES["recent"]["selection"]["diversity"]["lambda"]


def test_recent_profile_prefers_fresh_documents() -> None:
    pipeline = from_config("recent")
    (boost,) = pipeline.boosts
    assert isinstance(boost, FreshnessBoost)
    assert (boost.half_life_days, boost.weight) == (7.0, 1.0)
    docs = [
        "What's new in the release: the release notes of the release.",
        "What's new in this release.",
        "Cats purr.",
    ]
    metadata = [{"timestamp": days_ago(60)}, {"timestamp": days_ago(1)}, {}]
    scores = [0.9, 0.8, 0.1]
    # The stale document matches better on both inputs: without the boost it ranks first ...
    unboosted = from_config({"profile": "recent", "boosts": []})
    assert [
        r.index
        for r in unboosted.rank("what's new in the release", docs, first_stage_scores=scores)
    ][:2] == [0, 1]
    # ... and the profile's one-week half-life lifts the fresh one above it.
    results = pipeline.rank(
        "what's new in the release", docs, first_stage_scores=scores, metadata=metadata
    )
    assert [r.index for r in results][:2] == [1, 0]
    fresh, stale = boost.factor(metadata[1])[0], boost.factor(metadata[0])[0]
    assert fresh == pytest.approx(1 + 0.5 ** (1 / 7), rel=1e-3)
    assert stale == pytest.approx(1 + 0.5 ** (60 / 7), rel=1e-3)


def test_json_and_yaml_files(tmp_path) -> None:
    path = tmp_path / "rerank.json"
    path.write_text(json.dumps({"rerank": {"provider": "bm25", "k": 2}}), encoding="utf-8")
    assert from_config(path).top_n == 2
    pytest.importorskip("yaml")
    path = tmp_path / "rerank.yaml"
    path.write_text("profile: detail\nselection:\n  max_tokens: 300\n", encoding="utf-8")
    pipeline = from_config(str(path))
    assert pipeline.budget.max_tokens == 300 and pipeline.top_n == 5
    assert isinstance(pipeline.fusion, AdaptiveFusion)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (
            {"rerank": {"provider": "bm25", "topK": 3}},
            "Unknown key 'topK' in rerank; valid keys: k, modelName, provider, relevanceScore",
        ),
        (
            {"reranker": {"provider": "bm25"}, "selection": {"top_k": 3}},
            "Unknown key 'top_k' in selection; valid keys: cutoff, diversity, max_tokens",
        ),
        ({"rerankers": {}}, "Unknown key 'rerankers' in the configuration; valid keys: boosts"),
        (
            {"rerank": {"provider": "mixedbread"}},
            "Unknown rerank provider 'mixedbread'; choose one of awsbedrock, bi-encoder, bm25, "
            "cohere, cross-encoder, infinity, jina, llm-listwise, llm-pointwise",
        ),
        ({"profile": "fast"}, "Unknown profile 'fast'; choose one of detail, recent, synthesis"),
        ({"reranker": {"provider": "bm25", "speed": 2}}, "Bad options for provider 'bm25'"),
        (
            {"profile": "detail", "selection": {"diversity": {"similarity": "embedding"}}},
            'similarity "embedding" needs a bi-encoder reranker',
        ),
        ({"selection": {"top_n": 3}}, 'A configuration needs "reranker"'),
        ("nowhere.json", "neither a ready profile"),
    ],
)
def test_bad_configurations_list_what_is_valid(config, message) -> None:
    with pytest.raises(ValueError, match=message):
        from_config(config)


def test_a_kind_name_alone_is_that_kind_with_its_defaults() -> None:
    assert isinstance(from_config({"reranker": "bm25"}).reranker, BM25Reranker)
    cascade = from_config({"reranker": {"cascade": ["bm25", "bm25"], "keep": [5, None]}}).reranker
    assert [type(stage) for stage in cascade.stages] == [BM25Reranker, BM25Reranker]
    with pytest.raises(ValueError, match="Unknown rerank provider 'bm26'"):
        from_config({"reranker": "bm26"})
    with pytest.raises(TypeError, match='reranker must be a kind name such as "bm25"'):
        from_config({"reranker": 3})


def test_command_line_rank_with_a_profile(tmp_path, capsys) -> None:
    from rerank_plus.cli import main

    lines = [
        {"text": "Marathon runners train for months.", "score": 0.2, "metadata": {"level": "L1"}},
        {"text": "Cats purr.", "score": 0.9},
    ]
    path = tmp_path / "candidates.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    assert (
        main(["rank", "--query", "marathon training", "--config", "detail", "--explain", str(path)])
        == 0
    )
    output = json.loads(capsys.readouterr().out)
    top = output["results"][0]
    assert top["index"] == 0
    assert top["explanation"]["fusion"]["first_stage_score"] == 0.2
    assert top["explanation"]["boosts"][0]["value"] == "L1"
