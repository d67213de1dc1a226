"""Bad and extreme input: a documented result or a clear error, never a crash or a lost document."""

from __future__ import annotations

import math

import pytest
from rerank_plus import BM25Reranker
from rerank_plus.validation import (
    check_documents,
    check_first_stage_scores,
    check_metadata,
    check_query,
    check_threshold,
    check_top_n,
)


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


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: check_query(3), TypeError, "query must be a str, got int."),
        (
            lambda: check_documents("text"),
            TypeError,
            "documents must be a sequence of str (a list or tuple), got str. "
            "Wrap a single document in a list.",
        ),
        (
            lambda: check_documents(["a", 3]),
            TypeError,
            "documents[1] is int, not str. "
            "Pass the text of each document (use '' for a document without text).",
        ),
        (lambda: check_top_n(0), ValueError, "top_n must be a positive int or None, got 0."),
        (
            lambda: check_threshold("0.5"),
            TypeError,
            "threshold must be a number in [0, 1] or None, got '0.5'.",
        ),
        (
            lambda: check_threshold(1.5),
            ValueError,
            "threshold must lie in [0, 1] (it is compared with relevance_score), got 1.5.",
        ),
        (
            lambda: check_first_stage_scores("12", 2),
            TypeError,
            "first_stage_scores must be a sequence of numbers, got '12'.",
        ),
        (
            lambda: check_first_stage_scores([1.0], 2),
            ValueError,
            "first_stage_scores has 1 values for 2 documents; "
            "pass one score per document, in the same order.",
        ),
        (
            lambda: check_first_stage_scores([1.0, "2"], 2),
            TypeError,
            "first_stage_scores[1] is '2', not a number.",
        ),
        (
            lambda: check_first_stage_scores([1.0, -math.inf], 2),
            ValueError,
            "first_stage_scores[1] is -inf; scores must be finite. Clip infinite scores to a "
            "finite bound (finite values of any size keep their order).",
        ),
        (
            lambda: check_metadata({"a": 1}, 1),
            TypeError,
            "metadata must be a sequence of mappings, one per document, got dict.",
        ),
        (
            lambda: check_metadata("ab", 2),
            TypeError,
            "metadata must be a sequence of mappings, one per document, got str.",
        ),
        (
            lambda: check_metadata([{}], 2),
            ValueError,
            "metadata has 1 items for 2 documents; "
            "pass one mapping per document, in the same order ({} for none).",
        ),
        (
            lambda: check_metadata([{}, 3], 2),
            TypeError,
            "metadata[1] is int, not a mapping (dict); use {} for a document without metadata.",
        ),
    ],
)
def test_each_input_error_says_what_is_wrong_and_how_to_fix_it(call, error, message) -> None:
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message


def test_input_checks_accept_the_edges_of_each_range() -> None:
    assert check_query("") == ""
    assert check_documents(("a", "b")) == ["a", "b"]
    assert check_top_n(None) is None
    assert check_top_n(1) == 1
    for bad_top_n in (True, 2.0, -1):
        with pytest.raises(ValueError, match=r"^top_n must be a positive int or None"):
            check_top_n(bad_top_n)
    assert check_threshold(None) is None
    assert check_threshold(0) == 0.0
    assert check_threshold(1) == 1.0
    with pytest.raises(TypeError, match=r"^threshold must be a number"):
        check_threshold(True)
    for bad_threshold in (math.nan, -0.01, 1.01):
        with pytest.raises(ValueError, match=r"^threshold must lie in"):
            check_threshold(bad_threshold)
    assert check_first_stage_scores(None, 3) is None
    scores = check_first_stage_scores((1, 2.5, -1e308), 3)
    assert scores == [1.0, 2.5, -1e308]
    assert all(type(score) is float for score in scores)
    for bad_score in (True, math.nan, None):
        with pytest.raises(TypeError, match=r"^first_stage_scores\[0\] is "):
            check_first_stage_scores([bad_score], 1)
    plain = (0.5, 1e308, 1e308)  # plain floats whose sum overflows: still all finite
    checked = check_first_stage_scores(plain, 3)
    assert checked == [0.5, 1e308, 1e308] and isinstance(checked, list)
    given = [0.25, 0.75]
    assert check_first_stage_scores(given, 2) is not given  # a copy: the caller's list is theirs
    with pytest.raises(TypeError, match=r"^first_stage_scores\[2\] is nan"):
        check_first_stage_scores([0.1, 0.2, math.nan], 3)
    with pytest.raises(ValueError, match=r"^first_stage_scores\[1\] is inf"):
        check_first_stage_scores([0.1, math.inf, -math.inf], 3)
    assert check_metadata([None, {"a": 1}], 2) == [{}, {"a": 1}]
