"""Real processes on one store: writers SIGKILLed at random moments lose no acknowledged
message; concurrent writers into one namespace and into many lose nothing and never summarize
one window twice; the hierarchy stays valid. Slow: each process loads the analysis (spaCy,
the lemma tables) before its first summary, seconds on a busy machine."""

from __future__ import annotations

import random
import signal
import time

import pytest
from rerank_plus.memory import open_store

from tests.memory.store.conftest import hashed_embedder
from tests.memory.store.store_process import acknowledged, check_hierarchy, start_writer

pytestmark = pytest.mark.slow

#: How many times the durability test kills its writer (the benchmark kills it 20 times).
KILLS = 3


def test_a_writer_killed_at_random_moments_loses_no_acknowledged_message(durable_url) -> None:
    chosen = random.Random(46)
    kept: list[tuple[str, str]] = []
    for _ in range(KILLS):
        writer = start_writer(durable_url, "killed", 10_000)
        assert writer.stdout is not None
        assert writer.stdout.readline() == "ready\n"
        seen = [writer.stdout.readline() for _ in range(chosen.randint(1, 30))]
        time.sleep(chosen.uniform(0.0, 0.3))
        writer.send_signal(signal.SIGKILL)
        kept += acknowledged(seen + writer.stdout.readlines())
        writer.wait()
    assert kept
    with open_store(durable_url, embedder=hashed_embedder, background=False) as store:
        ids = [item.id for item in store.messages("killed")]
        assert {key for _, key in kept} <= set(ids)
        assert ids == [f"m{n}" for n in range(len(ids))]
        memory = store.memory("killed")
        assert len(memory.messages) == len(ids)
        check_hierarchy(memory)
        assert len(memory.level(1)) > 0
        assert store.retrieve("killed", "the offsite venue in Lyon").items


def _run_writers(url: str, count: int, namespaces: int | None) -> list[tuple[str, str]]:
    writers = [start_writer(url, "shared", count, namespaces) for _ in range(4)]
    outputs = [writer.communicate(timeout=600)[0] for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0, 0, 0]
    assert all(output.endswith("done\n") for output in outputs)
    return [pair for output in outputs for pair in acknowledged(output.splitlines(True))]


def _check_concurrent(url: str, added: list[tuple[str, str]], namespaces: list[str]) -> None:
    with open_store(url, embedder=hashed_embedder, background=False) as store:
        assert store.namespaces(prefix="shared") == sorted(namespaces)
        total = 0
        for name in namespaces:
            messages = store.messages(name)
            total += len(messages)
            assert [item.id for item in messages] == [f"m{n}" for n in range(len(messages))]
            assert sorted(key for space, key in added if space == name) == sorted(
                item.id for item in messages
            )
            texts = [item.text for item in messages]
            assert len(set(texts)) == len(texts)
            with store.database.transaction(write=False) as transaction:
                covered, count = transaction.one(
                    "SELECT covered, messages FROM namespaces WHERE name = ?", (name,)
                )
            assert covered == count == len(messages)  # every writer flushed before it ended
            memory = store.memory(name)
            check_hierarchy(memory)
            covered_ids = {key for item in memory.level(1) for key in item.covers}
            assert covered_ids == {item.id for item in messages}
        assert total == len(added) == 4 * (len(added) // 4)


def test_four_processes_into_one_namespace(durable_url) -> None:
    added = _run_writers(durable_url, 40, None)
    assert len(added) == 160
    _check_concurrent(durable_url, added, ["shared"])


def test_four_processes_into_many_namespaces(durable_url) -> None:
    added = _run_writers(durable_url, 40, 6)
    assert len(added) == 160
    _check_concurrent(durable_url, added, [f"shared/{n}" for n in range(6)])
