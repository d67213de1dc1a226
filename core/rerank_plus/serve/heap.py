"""The garbage collector of a server process, set for serving.

A request allocates many short-lived containers (the decoded body, analysis tokens, asyncio
futures and tasks, ASGI messages), and the ones in reference cycles live until a collection.
With CPython's default thresholds (a young collection every 700 allocations) a server under 32
clients ran a young collection every 4 requests and an older one every 40 (the in-process
``rank()`` loop: one every 12 and 120). Collecting the young generation every 50,000
allocations instead, and freezing the start-up heap (the web framework, the models, the
analysis caches: about 250,000 objects) so that full collections never walk it again (what
``gc.freeze`` was added to CPython 3.7 for), cut the server's CPU per request by 4-10% under
32 clients (docs/serve.md, "Throughput").
"""

from __future__ import annotations

import gc

#: Young-generation allocations between collections, and the default-relative counts for the
#: older generations (CPython's defaults: 700, 10, 10).
THRESHOLDS = (50_000, 20, 100)


def settle_heap() -> None:
    """Call once the models are loaded and the app is built, before serving: collect what
    start-up left behind, move the survivors out of every later collection (``gc.freeze``),
    and collect less often. Process-wide, so only the ``serve`` command calls it."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
