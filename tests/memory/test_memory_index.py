"""The index's candidate generators: the best positions by cosine and by summed IDF, ties to
the earlier position, as the plain sort over every position gives them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus.analysis import Analyzer
from rerank_plus.memory import Memory, MemoryItem
from rerank_plus.memory.index.memory_index import MemoryIndex

#: Few distinct values, so that ties are common.
SUMS = st.lists(st.sampled_from([0.0, 0.0, 0.5, 1.25, 2.0]), min_size=0, max_size=60)


@settings(max_examples=200, deadline=None)
@given(sums=SUMS, limit=st.integers(1, 20))
def test_property_top_lexical_is_the_best_summed_idf_ties_to_the_earlier_position(
    sums: list[float], limit: int
) -> None:
    expected = sorted((p for p, v in enumerate(sums) if v > 0), key=lambda p: (-sums[p], p))
    assert MemoryIndex.top_lexical(np.array(sums, dtype=float), limit) == expected[:limit]


@settings(max_examples=100, deadline=None)
@given(cosines=st.lists(st.sampled_from([-0.5, 0.1, 0.3, 0.9]), min_size=1, max_size=40))
def test_property_top_dense_orders_by_cosine_then_position(cosines: list[float]) -> None:
    limit = len(cosines)  # every position: the order alone is checked
    row = np.array(cosines, dtype=np.float32)
    expected = sorted(range(len(cosines)), key=lambda p: (-row[p], p))
    assert MemoryIndex.top_dense(row, limit) == expected
    assert MemoryIndex.top_dense(None, limit) == []


def test_lexical_scores_sum_the_idf_of_each_distinct_query_term_an_item_holds() -> None:
    memory = Memory(
        [
            MemoryItem("m0", 0, 0, "The budget was approved."),
            MemoryItem("m1", 0, 1, "The launch moves to March."),
            MemoryItem("m2", 0, 2, "Budget and launch are both late."),
        ]
    )
    index = MemoryIndex(memory, None, Analyzer(("en",)))
    budget, launch = (index.analyzer.analyze(word, "en").terms[0] for word in ("budget", "launch"))
    sums = index.lexical_scores(0, [budget, launch, budget, "absent"])
    assert sums.tolist() == [
        index.idf(budget),
        index.idf(launch),
        index.idf(budget) + index.idf(launch),
    ]
