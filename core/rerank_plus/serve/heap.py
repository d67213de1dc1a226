"""The garbage collector of a server process, set for serving.

A request allocates many short-lived containers (the decoded body, analysis tokens, asyncio
futures and tasks, ASGI messages), so with CPython's default threshold (a young collection
every 700 allocations) a loaded server collects several times per request, and each older
collection walks the start-up heap (the web framework, the models, the analysis caches: about
250,000 objects). Freezing that heap once start-up is done (what ``gc.freeze`` was added to
CPython 3.7 for) and collecting the young generation every 50,000 allocations instead of 700
cut the server's CPU per request by about a tenth under 32 clients (docs/serve.md,
"Throughput").
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
