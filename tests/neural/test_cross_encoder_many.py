"""The fast path against ``CrossEncoder.predict``, and many queries scored in shared batches."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from rerank_plus import CrossEncoderReranker, RankInput

pytest.importorskip("sentence_transformers")
import torch
from sentence_transformers import CrossEncoder

QUERIES = ["marathon race", "river walk", "race", "café au lait 🙂"]
DOCUMENTS = [
    "the park river bridge",
    "a marathon along the river",
    "coffee in the morning",
    "the marathon runner at the station",
    "painting in the museum",
    "the park river bridge",
    "🙂🎉",
    " ".join(["the park river bridge"] * 40),
]
ENGLISH = [
    "The marathon starts at the bridge and follows the river for 42 kilometres.",
    "Runners should drink water every five kilometres during a long race.",
    "The museum opens a new exhibition of modern painting in the spring.",
    "A cup of coffee in the morning, then a train to the city.",
    "Tickets for the concert in the park are sold at the station.",
    "Training plans for a first marathon last about sixteen weeks.",
]


def test_fast_path_equals_predict_on_real_minilm_weights(minilm_cross_encoder_path) -> None:
    reference = CrossEncoder(str(minilm_cross_encoder_path), device="cpu")
    fast = CrossEncoderReranker(str(minilm_cross_encoder_path), device="cpu", cache_size=0)
    assert fast.load(str(minilm_cross_encoder_path)).scorer is not None
    for query in ("how long is a marathon", "where is the museum"):
        expected = reference.predict(
            [(query, d) for d in ENGLISH], activation_fn=torch.nn.Identity()
        )
        scores = fast.score(query, ENGLISH)
        assert np.allclose(scores.raw, expected, atol=1e-4)
        order = sorted(range(len(ENGLISH)), key=lambda i: (-expected[i], i))
        assert [r.index for r in fast.rank(query, ENGLISH)] == order


def test_many_queries_equal_one_rank_each(tiny_cross_encoder_path) -> None:
    inputs = [RankInput(q, DOCUMENTS[i:] + DOCUMENTS[:i]) for i, q in enumerate(QUERIES)]
    inputs.append(RankInput("nothing to rank", []))
    many = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")
    one = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")
    got = many.rank_many(inputs, top_n=5, explain=True)
    expected = [one.rank(i.query, i.documents, top_n=5, explain=True) for i in inputs]
    assert [[r.index for r in results] for results in got] == [
        [r.index for r in results] for results in expected
    ]
    for mine, theirs in zip(got, expected, strict=True):
        assert [r.score for r in mine] == pytest.approx([r.score for r in theirs], abs=1e-5)
        assert [r.explanation for r in mine] == [
            pytest.approx(r.explanation, abs=1e-5) for r in theirs
        ]
    assert got[-1] == []


def test_many_queries_share_batches(tiny_cross_encoder_path) -> None:
    reranker = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu", batch_size=64)
    scorer = reranker.load(str(tiny_cross_encoder_path)).scorer
    sizes: list[int] = []
    original = scorer.logits
    scorer.logits = lambda features: (sizes.append(len(features["input_ids"])), original(features))[
        1
    ]
    short = DOCUMENTS[:5]
    reranker.rank_many([RankInput(q, short) for q in ("race", "river", "museum")])
    assert sizes == [15]  # three queries' pairs in one forward pass


def test_long_documents_by_window_equal_across_queries(tiny_cross_encoder_path) -> None:
    options = {
        "device": "cpu",
        "long_documents": "max_passage",
        "passage_words": 12,
        "passage_overlap": 4,
    }
    many = CrossEncoderReranker(str(tiny_cross_encoder_path), **options)
    one = CrossEncoderReranker(str(tiny_cross_encoder_path), **options)
    inputs = [RankInput(q, DOCUMENTS) for q in QUERIES[:2]]
    for mine, (query, theirs) in zip(
        many.rank_many(inputs, explain=True),
        [(i.query, one.rank(i.query, i.documents, explain=True)) for i in inputs],
        strict=True,
    ):
        assert [r.index for r in mine] == [r.index for r in theirs], query
        assert [r.explanation.get("best_window") for r in mine] == [
            r.explanation.get("best_window") for r in theirs
        ]


def test_eight_threads_scoring_many_at_once_equal_serial(
    tiny_cross_encoder_path, monkeypatch
) -> None:
    import sentence_transformers

    loads = []
    original = sentence_transformers.CrossEncoder

    def counting(*args, **kwargs):
        loads.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(sentence_transformers, "CrossEncoder", counting)
    work = [
        [RankInput(QUERIES[(n + k) % 4], DOCUMENTS[k:] + DOCUMENTS[:k]) for k in range(3)]
        for n in range(16)
    ]
    serial_reranker = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")
    serial = [serial_reranker.rank_many(inputs) for inputs in work]
    shared = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")
    barrier = threading.Barrier(8)

    def call(inputs):
        barrier.wait(timeout=30)  # the first eight start together, the model not loaded yet
        return shared.rank_many(inputs)

    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(pool.map(call, work[:8])) + [shared.rank_many(i) for i in work[8:]]
    assert len(loads) == 2  # one for each reranker
    for mine, theirs in zip(threaded, serial, strict=True):
        for a, b in zip(mine, theirs, strict=True):
            assert [r.index for r in a] == [r.index for r in b]
            assert [r.score for r in a] == pytest.approx([r.score for r in b], abs=1e-5)


def test_models_with_a_prompt_are_scored_through_predict(
    tiny_cross_encoder_path, monkeypatch
) -> None:
    import sentence_transformers

    original = sentence_transformers.CrossEncoder
    prompt = {"prompts": {"search": "river "}, "default_prompt_name": "search"}

    def with_prompt(*args, **kwargs):
        return original(*args, **kwargs, **prompt)

    monkeypatch.setattr(sentence_transformers, "CrossEncoder", with_prompt)
    reranker = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu")
    assert reranker.load(str(tiny_cross_encoder_path)).tokens is None  # predict's own path
    reference = original(str(tiny_cross_encoder_path), device="cpu", **prompt)
    expected = reference.predict(
        [("race", d) for d in DOCUMENTS], activation_fn=torch.nn.Identity()
    )
    assert np.allclose(reranker.score("race", DOCUMENTS).raw, expected, atol=1e-5)
