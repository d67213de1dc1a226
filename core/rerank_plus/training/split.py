"""A validation split by query: every pair of a query lands on the same side, so the
validation score never sees a query the model was trained on."""

from __future__ import annotations

import random

from rerank_plus.training.errors import TrainingDataError
from rerank_plus.training.examples import TrainingData

#: Queries each side needs at the least.
MIN_TRAIN_QUERIES = 2
MIN_VALIDATION_QUERIES = 1


def split_by_query(
    data: TrainingData, validation: float = 0.2, seed: int = 0
) -> tuple[TrainingData, TrainingData]:
    """(train, validation): a seeded shuffle of the distinct query ids, cut at ``validation``
    (a share of the queries below 1, a number of queries from 1 on).

    >>> from rerank_plus.training.examples import Example
    >>> data = TrainingData("pairs", {}, tuple(Example(f"q{i}", "?", ("p",)) for i in range(5)))
    >>> train, held = split_by_query(data, 0.2)
    >>> len(train.examples), len(held.examples)
    (4, 1)
    """
    if validation <= 0.0:
        raise TrainingDataError(f"validation must be > 0 (a share or a count), got {validation}.")
    ids = sorted({example.query_id for example in data.examples})
    random.Random(seed).shuffle(ids)
    share = validation * len(ids) if validation < 1.0 else validation
    size = max(MIN_VALIDATION_QUERIES, round(share))
    if len(ids) - size < MIN_TRAIN_QUERIES:
        raise TrainingDataError(
            f"{len(ids)} queries with positives are too few to split into training and "
            f"validation (at least {MIN_TRAIN_QUERIES + MIN_VALIDATION_QUERIES} needed); "
            "add queries, or generate questions from the corpus with an LLM."
        )
    held = set(ids[:size])
    train = [e for e in data.examples if e.query_id not in held]
    checked = [e for e in data.examples if e.query_id in held]
    return data.with_examples(train), data.with_examples(checked)
