"""The background producer that prepares the next batch while the model runs the current one."""

from __future__ import annotations

import threading
import time

import pytest
from rerank_plus.scoring.prefetch import prefetched


@pytest.mark.parametrize("depth", [0, 1, 2, 5])
def test_items_arrive_in_order(depth) -> None:
    assert list(prefetched(iter(range(50)), depth=depth)) == list(range(50))


def test_the_producer_runs_ahead_but_no_further_than_depth() -> None:
    produced: list[int] = []

    def items():
        for i in range(10):
            produced.append(i)
            yield i

    consumer = prefetched(items(), depth=2)
    assert next(consumer) == 0
    time.sleep(0.3)  # the producer fills the queue meanwhile, then waits
    assert 2 <= len(produced) <= 4
    assert list(consumer) == list(range(1, 10))


def test_an_error_in_the_producer_is_raised_in_the_consumer() -> None:
    def items():
        yield 1
        raise RuntimeError("tokenizer failed")

    consumer = prefetched(items(), depth=2)
    assert next(consumer) == 1
    with pytest.raises(RuntimeError, match="tokenizer failed"):
        next(consumer)


def test_a_consumer_that_stops_early_ends_the_producer() -> None:
    before = threading.active_count()
    consumer = prefetched(iter(range(1000)), depth=2)
    assert next(consumer) == 0
    consumer.close()  # what an error in the model's forward pass does to the loop
    assert threading.active_count() == before
