"""MMR picks with array operations: the same picks and held similarities as the greedy loop
written plainly, over a similarity given as rows of floats or as one array (what the memory's
stored-vector similarity hands over)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import MaximalMarginalRelevance


class ArraySimilarity:
    def __init__(self, matrix: np.ndarray) -> None:
        self.values = matrix

    def matrix(self, texts: Sequence[str]) -> np.ndarray:
        return self.values


class RowsSimilarity(ArraySimilarity):
    def matrix(self, texts: Sequence[str]) -> list[list[float]]:  # type: ignore[override]
        return self.values.tolist()


def plain_mmr(
    lambda_: float, relevance: list[float], similarity: list[list[float]], limit: int | None
) -> tuple[list[int], list[float]]:
    """The greedy loop of Carbonell & Goldstein, ties to the earlier position."""
    n = len(relevance)
    picks = n if limit is None else min(limit, n)
    closest = [0.0] * n
    if lambda_ == 1.0 or n < 2:
        return list(range(n)), closest
    chosen: list[int] = []
    remaining = list(range(n))
    while remaining and len(chosen) < picks:
        best = max(
            remaining, key=lambda i: (lambda_ * relevance[i] - (1 - lambda_) * closest[i], -i)
        )
        chosen.append(best)
        remaining.remove(best)
        for i in remaining:
            closest[i] = max(closest[i], similarity[i][best])
    return chosen + remaining, closest


#: Few distinct values, so that ties are common; -0.0 must read as 0.0.
VALUES = st.sampled_from([0.0, -0.0, 0.25, 0.5, 1.0])


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    n=st.integers(0, 9),
    lambda_=st.sampled_from([0.0, 0.3, 0.5, 0.7, 1.0]),
    limit=st.sampled_from([None, 0, 1, 3]),
)
def test_property_picks_equal_the_plain_greedy_loop(data, n, lambda_, limit):
    upper = np.array(data.draw(st.lists(VALUES, min_size=n * n, max_size=n * n))).reshape(n, n)
    matrix = np.triu(upper, 1) + np.triu(upper, 1).T + np.eye(n)
    relevance = sorted(data.draw(st.lists(VALUES, min_size=n, max_size=n)), reverse=True)
    texts = [f"t{i}" for i in range(n)]
    rows = MaximalMarginalRelevance(lambda_, RowsSimilarity(matrix))
    array = MaximalMarginalRelevance(lambda_, ArraySimilarity(matrix.astype(np.float32)))
    order, closest = array.order_explained(relevance, texts, limit)
    assert (order, closest) == rows.order_explained(relevance, texts, limit)
    expected_order, expected_closest = plain_mmr(lambda_, relevance, matrix.tolist(), limit)
    assert order == expected_order
    assert [repr(value) for value in closest] == [repr(value) for value in expected_closest]
    assert sorted(order) == list(range(n))
    assert all(type(value) is float and str(value) != "-0.0" for value in closest)


def test_negative_zero_similarity_is_reported_as_zero():
    matrix = np.array([[1.0, -0.0], [-0.0, 1.0]])
    order, closest = MaximalMarginalRelevance(0.5, ArraySimilarity(matrix)).order_explained(
        [0.9, 0.8], ["a", "b"]
    )
    assert order == [0, 1]
    assert [str(value) for value in closest] == ["0.0", "0.0"]
