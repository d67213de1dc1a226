"""Tuning the fusion on judged queries: cross-validation, guards, and the profile it writes."""

from __future__ import annotations

import random

import pytest
from rerank_plus import from_config
from rerank_plus.cli import main
from rerank_plus.combine import AdaptiveFusion
from rerank_plus.evaluation.tuning import MIN_QUERIES, JudgedQuery, tune_fusion

QUERY = "Which river flows through the capital city of France?"  # reliably English


def _queries(
    n: int, first_stage_helps: bool, seed: int = 0, query: str = QUERY
) -> list[JudgedQuery]:
    """English queries whose relevant candidate the first stage (or the reranker) puts first."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        rerank = [rng.random() for _ in range(20)]
        first = [rng.random() for _ in range(20)]
        relevant = rng.randrange(20)
        if first_stage_helps:  # the first stage is right by a hair, the reranker is wrong
            first[relevant] = 1.05
            rerank[relevant] = 0.0
        else:
            rerank[relevant] = 2.0
        grades = [int(i == relevant) for i in range(20)]
        out.append(JudgedQuery(query, rerank, first, grades, [1]))
    return out


def test_tuning_finds_a_better_weight_and_says_by_how_much() -> None:
    tuning = tune_fusion(_queries(80, first_stage_helps=True))
    assert not tuning.kept_default
    assert tuning.parameters["alpha"] < AdaptiveFusion().alpha
    assert tuning.gain > 0 and tuning.interval[0] <= tuning.gain <= tuning.interval[1]
    assert tuning.tuned_ndcg > tuning.default_ndcg
    assert tuning.p_value < 0.05


def test_the_default_is_kept_when_nothing_beats_it() -> None:
    tuning = tune_fusion(_queries(60, first_stage_helps=False))
    assert tuning.tuned_ndcg >= tuning.default_ndcg - (tuning.interval[1] - tuning.interval[0])
    if tuning.kept_default:
        assert tuning.parameters == AdaptiveFusion().settings()


def test_tuning_starts_from_the_given_weight_for_scripts_it_does_not_fit() -> None:
    greek = "Ποιος ποταμός διασχίζει την πρωτεύουσα της Γαλλίας;"
    start = AdaptiveFusion(unread_script_alpha=0.0, confidence_weight=0.0)
    tuning = tune_fusion(_queries(60, first_stage_helps=True, query=greek), start=start)
    assert tuning.default_ndcg == 1.0  # the first stage alone, as the start says
    assert tuning.parameters["unread_script_alpha"] == 0.0


def test_small_sets_are_refused_with_the_number_needed() -> None:
    with pytest.raises(ValueError, match=f"at least {MIN_QUERIES} judged queries"):
        tune_fusion(_queries(MIN_QUERIES - 1, first_stage_helps=True))


def test_tune_command_writes_a_profile_that_from_config_loads(tmp_path, capsys) -> None:
    yaml = pytest.importorskip("yaml")
    folder = tmp_path / "set"
    folder.mkdir()
    rng = random.Random(1)
    corpus, queries, qrels, run = [], [], ["query-id\tcorpus-id\tscore"], []
    for q in range(MIN_QUERIES):
        word = f"topic{q}"
        queries.append(f'{{"_id": "q{q}", "text": "what about {word}"}}')
        qrels.append(f"q{q}\td{q}a\t1")
        for suffix, text in (("a", f"{word} explained"), ("b", "unrelated words"), ("c", "noise")):
            corpus.append(f'{{"_id": "d{q}{suffix}", "title": "", "text": "{text}"}}')
            run.append(f"q{q}\td{q}{suffix}\t0\t{rng.random():.4f}")
    (folder / "corpus.jsonl").write_text("\n".join(corpus) + "\n", encoding="utf-8")
    (folder / "queries.jsonl").write_text("\n".join(queries) + "\n", encoding="utf-8")
    (folder / "qrels.tsv").write_text("\n".join(qrels) + "\n", encoding="utf-8")
    (tmp_path / "run.tsv").write_text("\n".join(run) + "\n", encoding="utf-8")
    profile = tmp_path / "profile.yaml"
    code = main(["tune", str(folder), "--run", str(tmp_path / "run.tsv"), "--output", str(profile)])
    assert code == 0
    printed = capsys.readouterr().out
    assert f"bm25: {MIN_QUERIES} judged queries, 5-fold CV nDCG@10" in printed
    pipeline = from_config(profile)
    written = yaml.safe_load(profile.read_text(encoding="utf-8"))
    assert written["reranker"] == {"provider": "bm25"}
    assert pipeline.fusion.settings() == {**written["fusion"], "method": "adaptive"}
    results = pipeline.rank("topic3", ["noise", "topic3 explained"], first_stage_scores=[0.1, 0.2])
    assert results[0].index == 1


def test_tune_refuses_rerankers_it_cannot_write() -> None:
    assert main(["tune", "cranfield", "--rerankers", "cross-encoder"]) == 2
