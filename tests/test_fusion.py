"""FusionReranker, the preset: normalization, RRF, weighted sums, the default, invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import BM25Reranker, Pipeline, ReciprocalRankFusion, WeightedFusion
from rerank_plus.combine import DEFAULT_FUSION, NORMALIZERS, AdaptiveFusion, build_fusion
from rerank_plus.combine.fusion import ranks
from rerank_plus.compose.fusion import FusionReranker
from rerank_plus.compose.profiles import from_config
from rerank_plus.evaluation.stages import reranker as eval_reranker

scores = st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=30)


@settings(max_examples=80, deadline=None)
@given(scores, st.sampled_from(["minmax", "zscore", "dbsf"]))
def test_normalized_scores_lie_in_the_unit_interval_and_keep_order(values, method):
    normalized = NORMALIZERS[method](values)
    assert all(0.0 <= v <= 1.0 for v in normalized)
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            if a < b:
                assert normalized[i] <= normalized[j]


def test_constant_input_normalizes_to_one_half():
    assert NORMALIZERS["minmax"]([3.0, 3.0]) == [0.5, 0.5]
    assert NORMALIZERS["zscore"]([3.0, 3.0]) == [0.5, 0.5]
    assert NORMALIZERS["dbsf"]([3.0, 3.0]) == [0.5, 0.5]


def test_ranks_break_ties_by_input_order():
    assert ranks([0.2, 0.9, 0.2]) == [2, 1, 3]


FUSED = FusionReranker(BM25Reranker(language="en"), method="weighted", alpha=0.5)
words = st.sampled_from(["cat", "dog", "river", "marathon", "blue"])
documents = st.lists(st.lists(words, max_size=6).map(" ".join), min_size=1, max_size=12)


@settings(max_examples=50, deadline=None)
@given(documents, st.data(), st.sampled_from(["rrf", "weighted", "adaptive"]))
def test_fused_relevance_is_in_the_unit_interval(docs, data, method):
    first = data.draw(st.lists(st.floats(-5, 5), min_size=len(docs), max_size=len(docs)))
    reranker = FusionReranker(BM25Reranker(language="en"), method=method)
    results = reranker.rank("cat river", docs, first_stage_scores=first)
    assert sorted(r.index for r in results) == list(range(len(docs)))
    assert all(0.0 <= r.relevance_score <= 1.0 for r in results)


def test_alpha_one_is_the_reranker_alone_and_zero_the_first_stage():
    docs = ["dogs bark", "cats purr", "a cat and a dog"]
    first = [0.9, 0.1, 0.5]
    alone = [r.index for r in BM25Reranker().rank("cat", docs)]
    only_rerank = FusionReranker(BM25Reranker(), method="weighted", alpha=1.0)
    only_first = FusionReranker(BM25Reranker(), method="weighted", alpha=0.0)
    assert [r.index for r in only_rerank.rank("cat", docs, first_stage_scores=first)] == alone
    assert [r.index for r in only_first.rank("cat", docs, first_stage_scores=first)] == [0, 2, 1]


def test_rrf_agreement_wins_and_explanation_shows_both_scores():
    docs = ["dogs bark", "cats purr", "a cat and a dog"]
    # Texts this short have no reliable language: English is given, so "cats" matches "cat".
    results = FusionReranker(BM25Reranker(language="en"), method="rrf").rank(
        "cat", docs, first_stage_scores=[0.1, 0.9, 0.5], explain=True
    )
    assert results[0].index == 1
    explanation = results[0].explanation
    assert explanation["fusion"]["first_stage_score"] == 0.9
    assert explanation["fusion"]["method"] == "rrf" and explanation["fusion"]["k"] == 60
    assert explanation["reranker"]["matched_terms"].keys() == {"cat"}


def test_without_first_stage_scores_the_reranker_decides():
    docs = ["dogs bark", "cats purr"]
    assert FUSED.rank("cat", docs)[0].index == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"method": "max"}, "Unknown fusion 'max'; choose one of adaptive, rrf, weighted"),
        ({"alpha": 1.5}, r"alpha must be a number in \[0, 1\]"),
        ({"method": "weighted", "normalization": "l2"}, "choose one of dbsf, minmax, zscore"),
        ({"method": "rrf", "k": -1}, "k must be an int >= 0"),
        ({"method": "rrf", "normalization": "minmax"}, "Bad options for fusion 'rrf'"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        FusionReranker(BM25Reranker(), **options)


@pytest.mark.parametrize(
    ("options", "fusion"),
    [
        ({"method": "rrf"}, ReciprocalRankFusion()),
        ({}, AdaptiveFusion()),
        ({"method": "adaptive", "alpha": 0.5}, AdaptiveFusion(alpha=0.5)),
        ({"method": "weighted", "alpha": 0.7}, WeightedFusion(alpha=0.7)),
        ({"method": "weighted", "normalization": "zscore"}, WeightedFusion(normalization="zscore")),
    ],
)
def test_the_preset_ranks_as_a_pipeline_with_the_same_fusion(options, fusion):
    docs = ["dogs bark", "cats purr", "a cat and a dog", "cat food", "river cats"]
    first = [0.9, 0.1, 0.5, 0.3, 0.7]
    bm25 = BM25Reranker()
    preset = FusionReranker(bm25, **options).rank("cat", docs, first_stage_scores=first)
    pipeline = Pipeline(bm25, fusion=fusion).rank("cat", docs, first_stage_scores=first)
    assert [(r.index, r.relevance_score) for r in preset] == [
        (r.index, r.relevance_score) for r in pipeline
    ]


def test_one_default_everywhere(tmp_path):
    """FusionReranker(), from_config without a method, the profiles and the eval command."""
    settings = build_fusion(DEFAULT_FUSION).settings()
    assert settings["method"] == "adaptive"
    assert FusionReranker().fusion.settings() == settings
    config = {"reranker": {"provider": "bm25"}, "fusion": {"alpha": 0.35}}
    assert from_config(config).fusion.settings() == settings
    assert from_config("synthesis").fusion.settings() == settings
    assert from_config("recent").fusion.settings() == settings
    collection = _tiny_collection(tmp_path)
    assert eval_reranker("fusion", collection).fusion.settings() == settings


def _tiny_collection(tmp_path):
    from rerank_plus.evaluation import load_collection

    (tmp_path / "corpus.jsonl").write_text(
        '{"_id": "d1", "title": "", "text": "cats purr"}\n', encoding="utf-8"
    )
    (tmp_path / "queries.jsonl").write_text('{"_id": "q1", "text": "cats"}\n', encoding="utf-8")
    (tmp_path / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    return load_collection(tmp_path)


def test_the_default_leans_on_the_reranker_when_the_first_stage_cannot_read_the_query():
    docs = ["Die Katze schläft auf dem Sofa.", "Der Hund bellt laut im Garten.", "Ein Auto."]
    first = [0.1, 0.9, 0.5]  # an English embedding, blind on German, prefers the dog
    english = FusionReranker().rank("Where does the cat sleep?", docs, first_stage_scores=first)
    german = FusionReranker().rank(
        "Wo schläft die Katze am liebsten?", docs, first_stage_scores=first, explain=True
    )
    assert german[0].index == 0
    fusion = german[0].explanation["fusion"]
    assert fusion["signals"]["first_stage_reads_query"] is False
    assert fusion["weight"] > AdaptiveFusion().alpha
    assert len(english) == len(german) == 3


def test_fusion_options_and_keywords_are_exclusive():
    with pytest.raises(ValueError, match="either as options"):
        FusionReranker(BM25Reranker(), "rrf", alpha=0.5)


def test_build_fusion_takes_a_name_or_a_mapping_and_detects_with_the_rerankers_analyzer():
    reranker = BM25Reranker()
    other = BM25Reranker().analyzer
    rrf = build_fusion("rrf", reranker=reranker)
    assert isinstance(rrf, ReciprocalRankFusion)
    assert repr(rrf) == "ReciprocalRankFusion(k=60, alpha=0.5)"
    default = build_fusion({}, reranker=reranker)
    assert isinstance(default, AdaptiveFusion) and default.detector is reranker.analyzer
    assert build_fusion("adaptive", reranker=reranker).detector is reranker.analyzer
    assert (
        build_fusion({"method": "adaptive", "detector": other}, reranker=reranker).detector is other
    )
    assert build_fusion("adaptive").detector is None
    with pytest.raises(TypeError, match="fusion options must be a name or a mapping, got 3"):
        build_fusion(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"choose one of adaptive, rrf, weighted[.]$"):
        build_fusion("max")


def test_weights_at_the_ends_of_the_unit_interval_are_accepted_and_others_refused():
    assert repr(WeightedFusion()) == "WeightedFusion(alpha=0.5, normalization='minmax')"
    assert WeightedFusion(alpha=0).alpha == 0.0
    assert WeightedFusion(alpha=1).alpha == 1.0
    assert ReciprocalRankFusion(k=0, alpha=1.0).k == 0
    for bad in (-0.01, 1.01, True, "0.5"):
        with pytest.raises(ValueError, match=r"^alpha must be a number in \[0, 1\], got "):
            WeightedFusion(alpha=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"^alpha must be a number in \[0, 1\], got "):
            ReciprocalRankFusion(alpha=bad)  # type: ignore[arg-type]
    for bad_k in (-1, 1.5, True):
        with pytest.raises(ValueError, match=r"^k must be an int >= 0 \(60 is usual\), got "):
            ReciprocalRankFusion(k=bad_k)  # type: ignore[arg-type]


def test_fused_values_and_explanations_are_exact():
    weighted = WeightedFusion(alpha=0.25).fuse([1.0, 3.0, 2.0], [0.0, 0.5, 1.0])
    assert weighted.values == [0.0, 0.625, 0.875]
    assert weighted.details[1] == {
        "method": "weighted",
        "normalization": "minmax",
        "alpha": 0.25,
        "rerank_normalized": 1.0,
        "first_stage_normalized": 0.5,
    }
    # ranks [3, 1, 2] and [3, 2, 1]; part = (k + 1) / (k + rank) = 2 / (1 + rank)
    rrf = ReciprocalRankFusion(k=1, alpha=0.25).fuse([1.0, 3.0, 2.0], [0.0, 0.5, 1.0])
    assert rrf.values == pytest.approx([0.5, 0.75, 0.25 * 2 / 3 + 0.75])
    assert rrf.details[0] == {
        "method": "rrf",
        "k": 1,
        "alpha": 0.25,
        "rerank_rank": 3,
        "first_stage_rank": 3,
    }
    with pytest.raises(ValueError) as misaligned:
        WeightedFusion().fuse([1.0, 2.0], [1.0])
    assert str(misaligned.value) == (
        "cannot fuse 2 rerank scores with 1 first-stage scores; "
        "pass one first-stage score per document."
    )
