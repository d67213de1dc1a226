"""One server process from its first request to its exit: serve, drain on a signal, stop.

The same for every front, so a process behind Granian and one behind uvicorn shut down alike:

- The first SIGTERM or SIGINT turns new requests away with 503 (``/health`` too, so a load
  balancer takes the process out), keeps listening for ``drain_seconds`` (for load balancers
  that notice late), waits until every request in flight is answered (at most
  :data:`~rerank_plus.serve.fronts.GRACE_SECONDS`), then stops the front.
- A second signal stops the front at once, without waiting out the drain.
- ``lifeline``: a socket whose other end the supervisor holds. When it closes (the supervisor
  is gone), the process drains and stops as on a signal, so no worker outlives its server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import Coroutine
from typing import Any

from rerank_plus.serve.fronts import GRACE_SECONDS, Front
from rerank_plus.serve.limits import ASGIApp
from rerank_plus.serve.service import RerankService

SIGNALS = (signal.SIGINT, signal.SIGTERM)


async def serve_until_stopped(
    front: Front,
    app: ASGIApp,
    sock: socket.socket,
    service: RerankService,
    drain_seconds: float = 0.0,
    lifeline: socket.socket | None = None,
) -> list[int]:
    """Serve ``app`` on ``sock`` until a signal (or the lifeline) stops it; the signals
    received, in order."""
    loop = asyncio.get_running_loop()
    received: list[int] = []
    tasks: set[asyncio.Task[None]] = set()

    async def drain() -> None:
        await asyncio.sleep(drain_seconds)
        deadline = loop.time() + GRACE_SECONDS
        while service.active and loop.time() < deadline:
            await asyncio.sleep(0.01)
        front.stop()

    def stop(sig: int | None) -> None:
        if sig is not None:
            received.append(sig)
        if service.draining:  # a second signal: no more waiting
            front.stop()
            return
        service.draining = True
        task = loop.create_task(drain())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def supervisor_gone() -> None:
        loop.remove_reader(lifeline.fileno())  # type: ignore[union-attr]
        stop(None)

    for sig in SIGNALS:
        loop.add_signal_handler(sig, stop, sig)
    if lifeline is not None:
        loop.add_reader(lifeline.fileno(), supervisor_gone)
    try:
        await front.serve(app, sock)
    finally:
        for sig in SIGNALS:
            loop.remove_signal_handler(sig)
        if lifeline is not None:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_reader(lifeline.fileno())
        for task in tasks:
            task.cancel()
    return received


def run(main: Coroutine[Any, Any, list[int]]) -> list[int]:
    """``main`` on uvloop where it is installed (both fronts' fastest loop), else asyncio."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def exit_status(received: list[int]) -> int:
    """The status a stopped server ends with, as uvicorn's own: 130 after SIGINT; after
    SIGTERM the process ends by that signal (re-raised here), as a supervisor expects."""
    if signal.SIGINT in received:
        return 130
    if signal.SIGTERM in received:
        sys.stdout.flush()
        sys.stderr.flush()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
    return 0
