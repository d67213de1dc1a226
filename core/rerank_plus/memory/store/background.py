"""The background summarizer: one thread per store that catches namespaces up after adds.

``add`` only queues its namespace here and returns; the thread runs the catch-ups one namespace
at a time. A namespace another process is summarizing is tried again after ``BUSY_SECONDS``;
one whose summarizer failed after a delay that doubles from ``RETRY_SECONDS`` up to
``RETRY_LIMIT_SECONDS`` (the messages stay retrievable meanwhile, and each retrieve's trace
says the summaries are behind and why).
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable

from rerank_plus.memory.store.errors import StoreError
from rerank_plus.memory.store.rows import NamespaceState

logger = logging.getLogger("rerank_plus.memory.store")

#: Seconds before a namespace another process holds is looked at again.
BUSY_SECONDS = 1.0
#: First delay before a failed summary is tried again; it doubles on each failure.
RETRY_SECONDS = 5.0
#: The longest delay between two tries of a failing summarizer.
RETRY_LIMIT_SECONDS = 300.0


class Background:
    """Runs ``catch_up(name, stop)`` for the namespaces queued with :meth:`schedule`."""

    def __init__(self, catch_up: Callable[[str, threading.Event], NamespaceState | None]) -> None:
        self._catch_up = catch_up
        self._due: list[tuple[float, str]] = []
        self._queued: set[str] = set()
        self._failures: dict[str, int] = {}
        self._wake = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="rerank-plus-memory-summaries", daemon=True
        )
        self._thread.start()

    def schedule(self, name: str, delay: float = 0.0) -> None:
        with self._wake:
            if name in self._queued:
                return
            self._queued.add(name)
            heapq.heappush(self._due, (time.monotonic() + delay, name))
            self._wake.notify()

    def _next(self) -> str | None:
        with self._wake:
            while not self._stop.is_set():
                if self._due:
                    due, name = self._due[0]
                    wait = due - time.monotonic()
                    if wait <= 0:
                        heapq.heappop(self._due)
                        self._queued.discard(name)
                        return name
                    self._wake.wait(wait)
                else:
                    self._wake.wait()
        return None

    def _run(self) -> None:
        while (name := self._next()) is not None:
            try:
                after = self._catch_up(name, self._stop)
            except StoreError as error:
                failures = self._failures.get(name, 0) + 1
                self._failures[name] = failures
                delay = min(RETRY_SECONDS * 2 ** (failures - 1), RETRY_LIMIT_SECONDS)
                logger.warning("%s Trying again in %.0f s.", error, delay)
                self.schedule(name, delay)
                continue
            except Exception:  # the thread must outlive any one namespace's trouble
                logger.exception("summarizing %r failed; trying again later", name)
                self.schedule(name, RETRY_LIMIT_SECONDS)
                continue
            self._failures.pop(name, None)
            if after is not None and after.pending > 0 and not self._stop.is_set():
                self.schedule(name, BUSY_SECONDS if after.lease_owner else 0.0)

    def close(self) -> None:
        """Stop after the current message (what was summarized so far is stored)."""
        self._stop.set()
        with self._wake:
            self._wake.notify_all()
        self._thread.join()
