"""Bad and extreme input: a documented result or a clear error, never a crash or a lost document."""

from __future__ import annotations

import pytest
from rerank_plus import BM25Reranker


def test_empty_document_list_gives_no_results(bm25: BM25Reranker) -> None:
    assert bm25.rank("marathon", []) == []


def test_empty_query_scores_everything_zero_in_input_order(bm25: BM25Reranker) -> None:
    results = bm25.rank("", ["b", "a", "c"])
    assert [r.index for r in results] == [0, 1, 2]
    assert all(r.score == 0 and r.relevance_score == 0 for r in results)


@pytest.mark.parametrize(
    "odd",
    ["", "   \n\t ", "🙂🚀🎉", "?!...;;", "\u2014 \u2022\u2022 %$"],
    ids=["empty", "space", "emoji", "punct", "symbols"],
)
def test_documents_without_words_are_kept_with_zero_score(bm25: BM25Reranker, odd: str) -> None:
    results = bm25.rank("marathon training", ["Marathon training tips", odd])
    assert [r.index for r in results] == [0, 1]
    assert results[1].score == 0


def test_only_wordless_documents(bm25: BM25Reranker) -> None:
    results = bm25.rank("marathon", ["🙂", "", "!!"])
    assert [r.index for r in results] == [0, 1, 2]


@pytest.mark.parametrize("bad", [None, 3, b"bytes", {"text": "x"}])
def test_non_string_document_names_its_index(bm25: BM25Reranker, bad: object) -> None:
    with pytest.raises(TypeError, match=r"documents\[1\] is .*, not str"):
        bm25.rank("marathon", ["ok", bad])


def test_non_string_query(bm25: BM25Reranker) -> None:
    with pytest.raises(TypeError, match="query must be a str"):
        bm25.rank(None, ["a"])  # type: ignore[arg-type]


def test_a_single_string_is_not_a_document_list(bm25: BM25Reranker) -> None:
    with pytest.raises(TypeError, match="Wrap a single document in a list"):
        bm25.rank("q", "just one document")  # type: ignore[arg-type]


@pytest.mark.parametrize("top_n", [0, -1, 2.5, True])
def test_bad_top_n(bm25: BM25Reranker, top_n: object) -> None:
    with pytest.raises(ValueError, match="top_n must be a positive int"):
        bm25.rank("q", ["a"], top_n=top_n)  # type: ignore[arg-type]


@pytest.mark.parametrize("threshold", [-0.1, 1.5, float("nan")])
def test_bad_threshold(bm25: BM25Reranker, threshold: float) -> None:
    with pytest.raises(ValueError, match=r"threshold must lie in \[0, 1\]"):
        bm25.rank("q", ["a"], threshold=threshold)


def test_one_megabyte_document(bm25: BM25Reranker) -> None:
    huge = "The marathon runner trained along the river every morning. " * 17_000
    assert len(huge) > 1_000_000
    results = bm25.rank("marathon river", ["Cats sleep a lot.", huge])
    assert results[0].index == 1


@pytest.mark.slow
def test_ten_thousand_candidates(bm25: BM25Reranker) -> None:
    documents = [f"Document number {i} about topic {i % 97}" for i in range(10_000)]
    documents[7_777] = "The marathon runner trained along the river."
    results = bm25.rank("marathon runner", documents, top_n=5)
    assert results[0].index == 7_777
    assert len(results) == 5


def test_mixed_scripts(bm25: BM25Reranker) -> None:
    documents = [
        "東京マラソンは毎年開催されます。",
        "Марафон в Москве",
        "The Tokyo marathon is held every year.",
    ]
    results = bm25.rank("Tokyo marathon", documents)
    assert results[0].index == 2
    assert sorted(r.index for r in results) == [0, 1, 2]


def test_input_list_is_not_mutated(bm25: BM25Reranker) -> None:
    documents = ["b marathon", "a", "marathon marathon"]
    snapshot = list(documents)
    bm25.rank("marathon", documents, top_n=1)
    assert documents == snapshot


def test_tuple_input_is_accepted(bm25: BM25Reranker) -> None:
    assert bm25.rank("marathon", ("marathon", "cat"))[0].index == 0
