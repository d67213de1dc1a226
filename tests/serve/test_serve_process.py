"""What ``rerank-plus serve`` sets process-wide before serving: the garbage collector. The
test restores what it changed."""

from __future__ import annotations

import gc

from rerank_plus.serve.heap import THRESHOLDS, settle_heap


def test_settle_heap_freezes_start_up_objects_and_collects_less_often() -> None:
    before = gc.get_threshold()
    try:
        settle_heap()
        assert gc.get_freeze_count() > 0  # start-up objects leave every later collection
        assert gc.get_threshold() == THRESHOLDS
        garbage: list[object] = []
        garbage.append(garbage)  # a cycle made after the freeze is still collected
        del garbage
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
