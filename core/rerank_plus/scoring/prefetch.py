"""Prepare the next batch while the model runs the current one.

The CPU's share of a neural batch (tokenizing, assembling padded arrays) and the accelerator's
(the forward pass) can run at once: a thread produces batches into a bounded queue, so bulk
throughput is bounded by the slower of the two instead of their sum. The Rust tokenizer and
torch both release the GIL while they work.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

_DONE = object()


def prefetched(items: Iterable[T], depth: int = 2) -> Iterator[T]:
    """``items``, produced in a background thread at most ``depth`` ahead of the consumer.

    An error in the producer is raised in the consumer; a consumer that stops early (an error
    of its own) lets the producer finish its current item and end.
    """
    if depth < 1:
        yield from items
        return
    ready: queue.Queue[object] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def offer(item: object) -> bool:
        """Put ``item`` in the queue unless the consumer has stopped; False once it has."""
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not offer(item):
                    return
            offer(_DONE)
        except BaseException as error:  # handed to the consumer, raised there
            offer(error)

    worker = threading.Thread(target=produce, name="rerank-plus-prefetch", daemon=True)
    worker.start()
    try:
        while True:
            item = ready.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item  # type: ignore[misc]
    finally:
        stop.set()
        worker.join()
