"""Torch's threads in a server: parallelism across batches, not inside one.

The server scores up to one batch per core at once (``ServeSettings.scoring_threads``). Torch
also splits each operation over every core (its intra-op threads), so two concurrent batches
run four busy threads on two cores, and the threads that wait for their share spin. Measured
with a small cross-encoder on 2 CPUs (one process, same run, on a crowded machine): one torch
thread costs 25 ms of CPU per request scored alone and 21 ms in batches of 16, against 245 and
99 ms with two. So each scoring thread gets ``cores // scoring_threads`` torch threads.
"""

from __future__ import annotations

import os
import sys


def share_torch_threads(scoring_threads: int) -> int | None:
    """Give torch ``cores // scoring_threads`` intra-op threads (at least one) where a loaded
    model uses torch; returns the count set, or None (no torch in this process: BM25 and
    remote models never import it)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    threads = max(1, (os.cpu_count() or 1) // max(1, scoring_threads))
    torch.set_num_threads(threads)
    return threads
