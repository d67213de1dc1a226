"""The memory policy's own cost per query: everything but model calls, on 2,000 and 100,000 items.

Memories are made of real QMSum turns (../shared/eval/qmsum, train then test) as level 0, windows
of 10 messages (L1) and groups of 8 (L2, L3, ...) whose summaries are each child's first
sentence. Items carry random unit vectors (384 values, seeded): the embedding model is a model
call and is excluded; the query's vector is computed by the same seeded generator and its time is
subtracted. What is timed: query analysis, the level-aware search (BM25 on the candidates, fusion,
boosts, MMR), the drill-down, the composition, the trace; in wall-clock time, and in the
process's CPU time, which a busy machine disturbs less. The index (BM25 statistics, postings)
is built once per memory and reported apart, like a retriever kept between queries.

    python benchmarks/memory_policy.py [--sizes 2000,100000] [--queries 40] [--budget 2000]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core"))

from rerank_plus.memory import Memory, MemoryItem, MemoryRetriever
from rerank_plus.memory.model.sentences import split_sentences

QMSUM = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "qmsum"
DIMENSIONS = 384


def vector(text: str) -> tuple[float, ...]:
    seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
    row = np.random.default_rng(seed).standard_normal(DIMENSIONS).astype(np.float32)
    return tuple((row / np.linalg.norm(row)).tolist())


class TimedVectors:
    """The query embedder: seeded vectors, its time kept apart (a model call)."""

    def __init__(self) -> None:
        self.seconds = self.cpu_seconds = 0.0

    def __call__(self, texts: list[str]) -> list[tuple[float, ...]]:
        start, start_cpu = time.perf_counter(), time.process_time()
        rows = [vector(text) for text in texts]
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - start_cpu
        return rows


def turns_and_queries(count: int) -> tuple[list[tuple[str, str]], list[str]]:
    turns: list[tuple[str, str]] = []
    queries: list[str] = []
    for split in ("train", "test"):
        for path in sorted((QMSUM / split).glob("*.json")):
            meeting = json.loads(path.read_text(encoding="utf-8"))
            turns += [(t["speaker"], t["content"]) for t in meeting["meeting_transcripts"]]
            queries += [q["query"] for q in meeting["specific_query_list"]]
            queries += [q["query"] for q in meeting["general_query_list"]]
            if len(turns) >= count:
                return turns[:count], queries
    return turns, queries


def synthetic_memory(messages: int) -> Memory:
    turns, _ = turns_and_queries(messages)
    level = [
        MemoryItem(f"m{i}", 0, i, text, speaker=speaker, embedding=vector(text))
        for i, (speaker, text) in enumerate(turns)
    ]
    items = list(level)
    depth, size = 1, 10
    while len(level) > 8:
        above = []
        for j, start in enumerate(range(0, len(level), size)):
            children = level[start : start + size]
            text = "\n".join(split_sentences(c.text)[0] for c in children if c.text.strip())
            above.append(
                MemoryItem(
                    f"l{depth}-{j}",
                    depth,
                    j,
                    text or children[0].text,
                    covers=tuple(c.id for c in children),
                    embedding=vector(text or children[0].text),
                )
            )
        items += above
        level, depth, size = above, depth + 1, 8
    return Memory(items)


def messages_for(items: int) -> int:
    """How many messages make a memory of about ``items`` items (10 per window, then 8)."""
    return round(items / (1 + 1 / 10 + 1 / 80 + 1 / 640))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,100000")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--budget", type=int, default=2000)
    args = parser.parse_args()
    if not QMSUM.is_dir():
        sys.exit(f"needs the QMSum meetings in {QMSUM}")
    _, queries = turns_and_queries(10**9)
    queries = queries[: args.queries]
    print(
        "| items | index build s | policy ms p50 | p90 | max | policy CPU ms p50 "
        "| query embedding ms p50 |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    by_intent: dict[tuple[int, str], list[float]] = {}
    for size in (int(s) for s in args.sizes.split(",")):
        memory = synthetic_memory(messages_for(size))
        embedder = TimedVectors()
        retriever = MemoryRetriever(memory, embedder=embedder)
        start = time.perf_counter()
        retriever.index()
        built = time.perf_counter() - start
        retriever.retrieve(queries[0], max_tokens=args.budget)  # warm: analyzer, regexes
        own, cpu, model = [], [], []
        for query in queries:
            embedder.seconds = embedder.cpu_seconds = 0.0
            start, start_cpu = time.perf_counter(), time.process_time()
            intent = retriever.retrieve(query, max_tokens=args.budget).intent
            total, total_cpu = time.perf_counter() - start, time.process_time() - start_cpu
            own.append((total - embedder.seconds) * 1000)
            by_intent.setdefault((len(memory), intent), []).append(own[-1])
            cpu.append((total_cpu - embedder.cpu_seconds) * 1000)
            model.append(embedder.seconds * 1000)
        cuts = statistics.quantiles(own, n=10)
        print(
            f"| {len(memory):,} | {built:.1f} | {statistics.median(own):.1f} | {cuts[8]:.1f} "
            f"| {max(own):.1f} | {statistics.median(cpu):.1f} | {statistics.median(model):.2f} |"
        )
    print("\n| items | intent | questions | policy ms p50 | max |\n|---:|---|---:|---:|---:|")
    for (items, intent), times in sorted(by_intent.items()):
        print(
            f"| {items:,} | {intent} | {len(times)} | {statistics.median(times):.1f} "
            f"| {max(times):.1f} |"
        )


if __name__ == "__main__":
    main()
