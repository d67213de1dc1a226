"""CrossEncoderReranker against sentence-transformers' own CrossEncoder, on a local tiny model."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from rerank_plus import CrossEncoderReranker, ModelLoadError
from rerank_plus.scoring.passages import windows

pytest.importorskip("sentence_transformers")
import torch
from sentence_transformers import CrossEncoder

QUERY = "race"
DOCUMENTS = [
    "the park river bridge",
    "a marathon along the river",
    "coffee in the morning",
    "the marathon runner at the station",
    "painting in the museum",
    "the park river bridge",  # a duplicate of the first
]


@pytest.fixture(scope="module")
def reranker(tiny_cross_encoder_path) -> CrossEncoderReranker:
    return CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")


def test_ranking_follows_crossencoder_predict(reranker, tiny_cross_encoder_path) -> None:
    reference = CrossEncoder(str(tiny_cross_encoder_path), device="cpu")
    probabilities = reference.predict([(QUERY, d) for d in DOCUMENTS])
    expected = sorted(range(len(DOCUMENTS)), key=lambda i: (-probabilities[i], i))
    results = reranker.rank(QUERY, DOCUMENTS)
    assert [r.index for r in results] == expected
    by_index = {r.index: r.relevance_score for r in results}
    for i, probability in enumerate(probabilities):
        assert by_index[i] == pytest.approx(float(probability), abs=1e-5)


def test_the_trained_model_prefers_the_keyword(reranker) -> None:
    top_two = {r.index for r in reranker.rank(QUERY, DOCUMENTS, top_n=2)}
    assert top_two == {1, 3}


@pytest.mark.parametrize(("batch_size", "batch_tokens"), [(1, None), (2, None), (64, 1), (64, 30)])
def test_scores_do_not_depend_on_batching(tiny_cross_encoder_path, batch_size, batch_tokens):
    base = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu", cache_size=0)
    other = CrossEncoderReranker(
        str(tiny_cross_encoder_path),
        device="cpu",
        batch_size=batch_size,
        batch_tokens=batch_tokens,
        cache_size=0,
    )
    expected = base.score(QUERY, DOCUMENTS).relevance
    assert np.allclose(other.score(QUERY, DOCUMENTS).relevance, expected, atol=1e-5)


def test_scores_do_not_depend_on_input_order(reranker) -> None:
    order = list(range(len(DOCUMENTS)))
    random.Random(3).shuffle(order)
    forward = {r.index: r.score for r in reranker.rank(QUERY, DOCUMENTS)}
    shuffled = reranker.rank(QUERY, [DOCUMENTS[i] for i in order])
    for result in shuffled:
        assert result.score == pytest.approx(forward[order[result.index]], abs=1e-5)


def record_batches(reranker: CrossEncoderReranker, model: str) -> list[list[int]]:
    """The token lengths (attention mask sums) of each batch the model runs, as it runs it."""
    scorer = reranker.load(model).scorer
    assert scorer is not None, "the tiny model takes the fast path"
    batches: list[list[int]] = []
    original = scorer.logits

    def recording(features):
        batches.append(features["attention_mask"].sum(axis=1).tolist())
        return original(features)

    scorer.logits = recording  # type: ignore[method-assign]
    return batches


def test_each_distinct_pair_is_scored_once_and_then_cached(tiny_cross_encoder_path) -> None:
    reranker = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")
    batches = record_batches(reranker, str(tiny_cross_encoder_path))
    scored = lambda: sum(map(len, batches))  # noqa: E731
    reranker.rank(QUERY, DOCUMENTS)
    assert scored() == len(set(DOCUMENTS))
    reranker.rank(QUERY, DOCUMENTS[::-1])
    assert scored() == len(set(DOCUMENTS))
    reranker.rank(QUERY, [*DOCUMENTS, "a new text"])
    assert scored() == len(set(DOCUMENTS)) + 1
    assert len(batches[-1]) == 1


def test_long_and_short_pairs_go_in_separate_batches(tiny_cross_encoder_path) -> None:
    reranker = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu", batch_tokens=64)
    batches = record_batches(reranker, str(tiny_cross_encoder_path))
    long_text = " ".join(["the park river bridge"] * 10)
    reranker.rank(QUERY, ["coffee", long_text, "tea time", long_text + " marathon"])
    # [CLS] race [SEP] text [SEP]: 4 tokens besides the text's own, longest batch first.
    assert batches == [[45], [44], [6, 5]]


def test_two_label_models_give_the_positive_class_probability(
    two_label_cross_encoder_path, tiny_cross_encoder_path
) -> None:
    reference = CrossEncoder(str(two_label_cross_encoder_path), device="cpu")
    pairs = [(QUERY, d) for d in DOCUMENTS]
    probabilities = reference.predict(pairs, apply_softmax=True)[:, 1]
    logits = reference.predict(pairs, activation_fn=torch.nn.Identity())[:, 1]
    reranker = CrossEncoderReranker(str(two_label_cross_encoder_path), device="cpu")
    results = {r.index: r for r in reranker.rank(QUERY, DOCUMENTS)}
    for i in range(len(DOCUMENTS)):
        assert results[i].relevance_score == pytest.approx(float(probabilities[i]), abs=1e-5)
        assert results[i].score == pytest.approx(float(logits[i]), abs=1e-5)
    one_label = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")
    same = {r.index: r.relevance_score for r in one_label.rank(QUERY, DOCUMENTS)}
    assert [results[i].relevance_score for i in same] == pytest.approx(list(same.values()))


def test_max_passage_finds_what_truncation_cuts_off(tiny_cross_encoder_path) -> None:
    long_document = " ".join(["the park river bridge"] * 60) + " the marathon runner"
    documents = ["coffee in the morning", long_document]
    truncating = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu", max_length=64)
    windowed = CrossEncoderReranker(
        str(tiny_cross_encoder_path),
        device="cpu",
        max_length=64,
        long_documents="max_passage",
        passage_words=30,
        passage_overlap=10,
    )
    cut = {r.index: r.relevance_score for r in truncating.rank(QUERY, documents)}
    found = windowed.rank(QUERY, documents, explain=True)
    assert found[0].index == 1
    assert found[0].relevance_score > 0.5 > cut[1]
    last_window = len(windows(long_document, size=30, overlap=10)) - 1
    assert found[0].explanation["best_window"] == last_window  # where the keyword is
    assert found[0].explanation["windows"] == last_window + 1
    assert "best_window" not in found[1].explanation  # a short document is one window


def test_explanation_names_the_model_and_the_probability(reranker, tiny_cross_encoder_path):
    result = reranker.rank(QUERY, DOCUMENTS, top_n=1, explain=True)[0]
    assert result.explanation["model"] == str(tiny_cross_encoder_path)
    assert result.explanation["cross_encoder_probability"] == pytest.approx(result.relevance_score)


def test_empty_list_does_not_load_the_model() -> None:
    reranker = CrossEncoderReranker("no-such-org/no-such-model")
    assert reranker.rank("query", []) == []
    assert reranker._models == {}


def test_unloadable_model_says_how_to_use_a_local_copy(tmp_path) -> None:
    reranker = CrossEncoderReranker(str(tmp_path / "missing-model"), device="cpu")
    with pytest.raises(ModelLoadError, match=r"missing-model.*pass its local folder instead"):
        reranker.rank("query", ["a document"])


def test_unknown_hub_name_offline_names_the_model() -> None:
    reranker = CrossEncoderReranker("no-such-org/no-such-model", device="cpu")
    with pytest.raises(ModelLoadError, match=r"(?s)'no-such-org/no-such-model'.*local folder"):
        reranker.rank("query", ["a document"])


def test_model_code_does_not_run_unless_asked(tmp_path) -> None:
    config = {
        "model_type": "fancy-ranker",
        "auto_map": {"AutoConfig": "configuration_fancy.FancyConfig"},
    }
    (tmp_path / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (tmp_path / "configuration_fancy.py").write_text("raise SystemExit('ran')\n", encoding="utf-8")
    reranker = CrossEncoderReranker(str(tmp_path), device="cpu")
    with pytest.raises(ModelLoadError, match=r"if you trust it, pass trust_remote_code=True"):
        reranker.rank("query", ["a document"])


def test_non_string_documents_name_the_index(reranker) -> None:
    with pytest.raises(TypeError, match=r"documents\[1\]"):
        reranker.rank(QUERY, ["ok", None])


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="long_documents must be one of truncate, max_passage"):
        CrossEncoderReranker("m", long_documents="chunk")
    with pytest.raises(ValueError, match="batch_size must be >= 1"):
        CrossEncoderReranker("m", batch_size=0)
    with pytest.raises(ValueError, match="batch_tokens must be >= 1 or None"):
        CrossEncoderReranker("m", batch_tokens=0)
    with pytest.raises(ValueError, match="overlap < size"):
        CrossEncoderReranker("m", passage_words=10, passage_overlap=10)


def test_default_model_follows_the_query_language() -> None:
    reranker = CrossEncoderReranker()
    assert reranker.model_for("How can I run faster for a marathon race?") == (
        "cross-encoder/ms-marco-MiniLM-L6-v2"
    )
    assert reranker.model_for("Comment puis-je courir plus vite pour un marathon ?") == (
        "antoinelouis/crossencoder-electra-base-mmarcoFR"
    )
    assert reranker.model_for("Wie kann ich für einen Marathon schneller laufen?") == (
        "cross-encoder/mmarco-mMiniLMv2-L12-H384-v1"
    )


def test_duplicates_tie_in_input_order_and_the_input_is_untouched(reranker) -> None:
    documents = list(DOCUMENTS)
    results = reranker.rank(QUERY, documents)
    assert documents == DOCUMENTS
    indices = [r.index for r in results]
    assert sorted(indices) == list(range(len(DOCUMENTS)))
    first, duplicate = indices.index(0), indices.index(5)
    assert duplicate == first + 1
    assert results[first].score == results[duplicate].score
