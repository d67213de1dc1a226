"""The memory's light stage scores a candidate pool from the index's own analyses; it must give
exactly what the general path (the intent's :class:`~rerank_plus.Pipeline` over the texts)
gives: the same items, order, scores and cosines."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory import build_memory
from rerank_plus.memory.index.memory_index import MemoryIndex
from rerank_plus.memory.policy import memory_profile
from rerank_plus.memory.retrieve.search import LevelSearch

LINES = [
    ("Ana", "The budget for the launch was approved by finance on Monday."),
    ("Ben", "Marketing wants the launch moved to March because of the fair."),
    ("Ana", "Le budget du lancement est validé, mais la date reste ouverte."),
    ("Chen", "Der Start verschiebt sich wohl auf März, sagt das Marketing."),
    ("Ben", "ok"),
    ("Chen", "🚀🚀"),
    ("Ana", "Finance asked Chen for the revised budget before the launch."),
    ("Ben", "The fair in March is where we show the new remote control."),
    ("Chen", "Budget, budget, budget: nobody talks about the remote control."),
    ("Ana", "We decided: launch in April, budget unchanged, Chen owns the plan."),
    ("Chen", "Start verschoben"),
    ("Ben", "budget ok"),
] * 3
#: Too short to be detected reliably: in a pool of only these, the query's language decides.
UNRELIABLE = ("ok", "🚀🚀", "Start verschoben", "budget ok")


def vector(text: str) -> list[float]:
    """A fixed pseudo-random unit vector per text: cosines without a model."""
    seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
    row = np.random.default_rng(seed).standard_normal(16)
    return (row / np.linalg.norm(row)).tolist()


@pytest.fixture(scope="module")
def index() -> MemoryIndex:
    start = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    messages = [
        {"speaker": speaker, "text": text, "time": (start + timedelta(hours=5 * i)).isoformat()}
        for i, (speaker, text) in enumerate(LINES)
    ]
    memory = build_memory(messages, embedder=lambda texts: [vector(t) for t in texts])
    return MemoryIndex(memory, lambda texts: [vector(t) for t in texts], Analyzer())


@pytest.mark.parametrize("intent", ["detail", "synthesis", "recent", "entity"])
@pytest.mark.parametrize("query", ["launch budget", "Wann ist der Start?", "remote control", ""])
@pytest.mark.parametrize("with_vector", [True, False])
@pytest.mark.parametrize("fusion", [None, "adaptive"])
def test_light_stage_from_the_index_equals_the_pipeline(
    index: MemoryIndex, intent: str, query: str, with_vector: bool, fusion: str | None
) -> None:
    """Also with a fusion that reads the query's language (adaptive), and on a pool of items
    none of which is reliably detected (the query's detection is their fallback)."""
    profile = memory_profile()
    now = datetime(2024, 3, 4, 12, 0, tzinfo=UTC)
    query_vector = np.array(vector(query), dtype=np.float32) if with_vector else None
    unreliable = [item.id for item in index.memory.level(0) if item.text in UNRELIABLE]

    def hits(own: bool) -> list[list[tuple[str, str, str]]]:
        search = LevelSearch(
            index,
            None,
            profile.policies[intent],
            fusion or profile.fusion,
            now,
            ("Chen", "Ana"),
            vector=query_vector,
        )
        search.index_light = own
        out = []
        terms = index.analyzer.analyze(query, "en").terms
        pools = [search.pool(level, terms, limit=8) for level in range(index.memory.depth)]
        pools.append(search.pool(0, terms, limit=8, within=unreliable))
        for items, dense in pools:
            ranked = search.rank(query, items, dense)
            out.append([(h.item.id, repr(h.score), repr(h.dense)) for h in ranked])
            # twice: the second call reads the boost products kept for the query
            assert [(h.item.id, repr(h.score)) for h in search.rank(query, items, dense)] == [
                (i, s) for i, s, _ in out[-1]
            ]
        return out

    own = hits(True)
    assert any(own), "the pools must not all be empty"
    assert own == hits(False)
