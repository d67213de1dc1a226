"""A store writer in a process of its own, for the durability and concurrency tests and the
benchmark: ``python -m tests.memory.store.store_process URL NAME COUNT [NAMESPACES]``.

It opens the store (background summaries on), prints ``ready``, then adds ``COUNT`` messages one
``add`` at a time, each to namespace ``NAME/<n % NAMESPACES>`` (or ``NAME`` when NAMESPACES is
absent), printing each acknowledged id as ``<namespace> <id>`` once its ``add`` returned; every
tenth add it flushes (summarizing in the foreground too). At the end it flushes everything,
closes the store and prints ``done``. Also what the tests and the benchmark use to start such
writers and check what they left.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rerank_plus.memory import Memory, open_store

from tests.memory.build_chats import TOPICS
from tests.memory.store.conftest import hashed_embedder

LINES = [line for topic in TOPICS.values() for line in topic]
ROOT = Path(__file__).resolve().parents[3]


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


def start_writer(url: str, name: str, count: int, namespaces: int | None = None):
    arguments = [url, name, str(count), *([] if namespaces is None else [str(namespaces)])]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "core"), str(ROOT)])}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.memory.store.store_process", *arguments],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        text=True,
    )


def acknowledged(lines: list[str]) -> list[tuple[str, str]]:
    """The (namespace, id) pairs a writer printed whole (its add had returned)."""
    return [tuple(line.split()) for line in lines if line.endswith("\n") and " " in line.strip()]


def check_hierarchy(memory: Memory) -> None:
    """Each item of a level is covered by exactly one summary of the level above, in order:
    no window summarized twice, none left out (the messages no summary covers yet aside)."""
    for level in range(1, memory.depth):
        covered = [key for item in memory.level(level) for key in item.covers]
        below = [item.id for item in memory.level(level - 1)]
        assert len(covered) == len(set(covered))
        assert covered == below[: len(covered)]
        if level > 1:
            assert covered == below


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(
        arguments[0],
        arguments[1],
        int(arguments[2]),
        int(arguments[3]) if len(arguments) > 3 else None,
    )
