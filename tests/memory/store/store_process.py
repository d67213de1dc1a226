"""A store writer in a process of its own, for the durability and concurrency tests and the
benchmark: ``python -m tests.memory.store.store_process URL NAME COUNT [NAMESPACES]``.

It opens the store (background summaries on), prints ``ready``, then adds ``COUNT`` messages one
``add`` at a time, each to namespace ``NAME/<n % NAMESPACES>`` (or ``NAME`` when NAMESPACES is
absent), printing each acknowledged id as ``<namespace> <id>`` once its ``add`` returned; every
tenth add it flushes (summarizing in the foreground too). At the end it flushes everything,
closes the store and prints ``done``.
"""

from __future__ import annotations

import os
import sys

from rerank_plus.memory import open_store

from tests.memory.build_chats import TOPICS
from tests.memory.store.conftest import hashed_embedder

LINES = [line for topic in TOPICS.values() for line in topic]


def message(writer: str, n: int) -> dict[str, str]:
    """The ``n``-th message of a writer: a line of the hand-made chats, marked as its own."""
    return {"text": f"{LINES[n % len(LINES)]} ({writer} #{n})", "speaker": writer}


def main(url: str, name: str, count: int, namespaces: int | None) -> None:
    writer = f"w{os.getpid()}"
    with open_store(url, embedder=hashed_embedder) as store:
        print("ready", flush=True)
        for n in range(count):
            namespace = name if namespaces is None else f"{name}/{n % namespaces}"
            (added,) = store.add(namespace, [message(writer, n)])
            print(namespace, added, flush=True)
            if n % 10 == 9:
                store.flush(namespace)
        store.flush()
    print("done", flush=True)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(
        arguments[0],
        arguments[1],
        int(arguments[2]),
        int(arguments[3]) if len(arguments) > 3 else None,
    )
