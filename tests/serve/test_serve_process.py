"""What ``rerank-plus serve`` sets process-wide before serving: the garbage collector and
torch's thread count. Each test restores what it changed."""

from __future__ import annotations

import gc
import os
import sys

import pytest
from rerank_plus.serve.heap import THRESHOLDS, settle_heap
from rerank_plus.serve.threads import share_torch_threads


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


def test_torch_threads_are_shared_between_the_scoring_threads() -> None:
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    cores = os.cpu_count() or 1
    try:
        assert share_torch_threads(cores) == 1 == torch.get_num_threads()
        assert share_torch_threads(1) == cores == torch.get_num_threads()
        assert share_torch_threads(0) == cores  # never zero threads
    finally:
        torch.set_num_threads(before)


def test_a_process_without_torch_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    assert share_torch_threads(2) is None
    assert "torch" not in sys.modules  # BM25 servers never import it
