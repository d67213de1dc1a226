"""Maximal marginal relevance by exact values: the picks, what each position had held against
it, ties, ``limit``, and the similarity matrices (lexical counts, clipped embedding cosines)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pytest
from rerank_plus import Analyzer, MaximalMarginalRelevance
from rerank_plus.selection import EmbeddingSimilarity, LexicalSimilarity


class FixedSimilarity:
    """A similarity given as a matrix (the ``Similarity`` protocol), recording each call."""

    def __init__(self, matrix: list[list[float]]) -> None:
        self.values = matrix
        self.calls: list[list[str]] = []

    def matrix(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return self.values


class FixedVectors:
    """An encoder with ``embed`` (what ``EmbeddingSimilarity`` needs), one fixed vector a text."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([self.vectors[text] for text in texts], dtype=np.float64)


# documents 0 and 1 are duplicates; 2 and 3 are half alike
SIMILAR = [
    [1.0, 1.0, 0.0, 0.0],
    [1.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.5],
    [0.0, 0.0, 0.5, 1.0],
]
TEXTS = ["a", "b", "c", "d"]


def mmr(lambda_: float, matrix: list[list[float]] = SIMILAR) -> MaximalMarginalRelevance:
    return MaximalMarginalRelevance(lambda_=lambda_, similarity=FixedSimilarity(matrix))


def test_each_pick_maximises_relevance_less_similarity_to_the_picks() -> None:
    # 0: 0.5*0.9 = 0.45; then 1: 0.4 - 0.5 < 2: 0.35; then 3: 0.3 - 0.25 = 0.05 > 1: -0.1
    order, closest = mmr(0.5).order_explained([0.9, 0.8, 0.7, 0.6], TEXTS)
    assert order == [0, 2, 3, 1]
    assert closest == [0.0, 1.0, 0.0, 0.5]


def test_similarity_weighs_one_minus_lambda() -> None:
    # second pick: 1 scores 0.5*0.9 - 0.5*0.25 = 0.325 and keeps its place ahead of 2 (0.25)
    matrix = [[1.0, 0.25, 0.0], [0.25, 1.0, 0.0], [0.0, 0.0, 1.0]]
    assert mmr(0.5, matrix).order([1.0, 0.9, 0.5], TEXTS[:3]) == [0, 1, 2]
    # lambda 0.75: 1 scores 0.75*0.9 - 0.25*1.0 = 0.425 < 2 at 0.75*0.6 = 0.45
    assert mmr(0.75).order([1.0, 0.9, 0.6, 0.5], TEXTS) == [0, 2, 1, 3]


def test_closest_is_the_highest_similarity_to_any_earlier_pick() -> None:
    matrix = [
        [1.0, 0.25, 0.0, 0.5],
        [0.25, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.125],
        [0.5, 0.0, 0.125, 1.0],
    ]
    order, closest = mmr(0.5, matrix).order_explained([1.0, 0.9, 0.8, 0.7], TEXTS)
    assert order == [0, 2, 1, 3]
    assert closest == [0.0, 0.25, 0.0, 0.5]  # 3 keeps its 0.5 to 0, not 0.125 to 2


def test_lambda_zero_is_novelty_only_and_ties_keep_the_given_order() -> None:
    assert mmr(0.0).order([0.9, 0.8, 0.7, 0.6], TEXTS) == [0, 2, 3, 1]
    unrelated = [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]
    assert mmr(0.5, unrelated).order([0.5, 0.5, 0.5, 0.5], TEXTS) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("limit", "order", "closest"),
    [
        (0, [0, 1, 2, 3], [0.0, 0.0, 0.0, 0.0]),
        (1, [0, 1, 2, 3], [0.0, 1.0, 0.0, 0.0]),  # after one pick the rest keep their order
        (2, [0, 2, 1, 3], [0.0, 1.0, 0.0, 0.5]),
        (4, [0, 2, 3, 1], [0.0, 1.0, 0.0, 0.5]),
        (9, [0, 2, 3, 1], [0.0, 1.0, 0.0, 0.5]),
    ],
)
def test_limit_stops_diversifying_after_that_many_picks(limit, order, closest) -> None:
    assert mmr(0.5).order_explained([0.9, 0.8, 0.7, 0.6], TEXTS, limit=limit) == (order, closest)
    assert mmr(0.5).order([0.9, 0.8, 0.7, 0.6], TEXTS, limit=limit) == order


def test_two_documents_are_diversified_and_fewer_or_lambda_one_need_no_similarity() -> None:
    pair = mmr(0.5, [[1.0, 0.75], [0.75, 1.0]])
    assert pair.order_explained([0.9, 0.8], ["a", "b"]) == ([0, 1], [0.0, 0.75])
    assert pair.similarity.calls == [["a", "b"]]
    for diversity, texts in ((mmr(0.5), ["a"]), (mmr(0.5), []), (mmr(1.0), TEXTS)):
        n = len(texts)
        assert diversity.order_explained([1.0] * n, texts) == (list(range(n)), [0.0] * n)
        assert diversity.similarity.calls == []


def test_lambda_defaults_and_bounds() -> None:
    default = MaximalMarginalRelevance()
    assert default.lambda_ == 0.7 and repr(default) == "MaximalMarginalRelevance(lambda_=0.7)"
    assert isinstance(default.similarity, LexicalSimilarity)
    assert MaximalMarginalRelevance(lambda_=0).lambda_ == 0.0
    assert MaximalMarginalRelevance(lambda_=1).lambda_ == 1.0
    for bad in (-0.01, 1.01, True, "0.5", None):
        message = f"lambda_ must be a number in [0, 1], got {bad!r}."
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            MaximalMarginalRelevance(lambda_=bad)


def test_lexical_similarity_is_the_cosine_of_term_counts() -> None:
    analyzer = Analyzer(default_language="en")
    similarity = LexicalSimilarity(analyzer)
    assert similarity.analyzer is analyzer
    texts = ["apple apple pear", "apple plum plum", "pear", ""]
    matrix = similarity.matrix(texts)
    # counts {apple: 2, pear: 1} and {apple: 1, plum: 2}: 2 / (sqrt 5 * sqrt 5); a text without
    # terms is similar to nothing but itself
    expected = [
        [1.0, 0.4, 1 / 5**0.5, 0.0],
        [0.4, 1.0, 0.0, 0.0],
        [1 / 5**0.5, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
    assert matrix == [[pytest.approx(v, abs=1e-12) for v in row] for row in expected]
    assert isinstance(LexicalSimilarity().analyzer, Analyzer)


def test_embedding_similarity_clips_cosines_to_the_unit_range() -> None:
    encoder = FixedVectors(
        {"x": [1.0, 0.0], "-x": [-1.0, 0.0], "tilt": [0.6, 0.8], "big": [2.0, 0.0]}
    )
    matrix = EmbeddingSimilarity(encoder).matrix(["x", "-x", "tilt", "big"])
    assert matrix == [
        [1.0, 0.0, pytest.approx(0.6), 1.0],
        [0.0, 1.0, 0.0, 0.0],
        [pytest.approx(0.6), 0.0, pytest.approx(1.0), 1.0],
        [1.0, 0.0, 1.0, 1.0],
    ]
    message = (
        "EmbeddingSimilarity needs an object with embed(texts), such as BiEncoderReranker(); "
        "got str."
    )
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        EmbeddingSimilarity("encoder")


def test_a_short_text_is_read_in_the_language_of_the_collection() -> None:
    texts = [
        "Marathon runners run long distances every week before the big race in the city.",
        "The young runners train in the morning and run again in the evening with their coach.",
        "Runners ran.",  # too short to detect alone: English because the others are
    ]
    matrix = LexicalSimilarity(Analyzer()).matrix(texts)
    # 9, 7 and 2 distinct terms; "runner" and "run" shared by all three
    assert matrix[0][1] == pytest.approx(2 / (3 * 7**0.5), abs=1e-12)
    assert matrix[0][2] == pytest.approx(2 / (3 * 2**0.5), abs=1e-12)
    assert matrix[1][2] == pytest.approx(2 / (7**0.5 * 2**0.5), abs=1e-12)
