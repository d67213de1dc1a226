"""Analysis throughput and BM25 rerank latency, against rank-bm25 on ``str.split`` tokens.

Candidates: 100 passages of 200 words built from the xquad-en and cranfield collections in
``../shared/eval``; queries: the first xquad-en questions. The baseline is the floor any BM25
reranker pays: ``BM25Okapi([d.split() for d in docs]).get_scores(q.split())``, measured in the
same run. "Cold" clears rerank-plus's analysis and detection caches before each query (lingua,
spaCy and simplemma are loaded once beforehand: process start-up is not a per-query cost; the
per-word caches stay, as in a process that has analyzed other text); "warm" reranks candidates
whose analyses are cached, as when the same documents come back for other queries. Each row
gives wall-clock and CPU time: the machine may be shared, and CPU time moves less with load.

Run: ``python benchmarks/bm25_latency.py`` (writes the "bm25-latency" section of
docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _report import write_section  # benchmarks/ is on sys.path when a script here runs
from rank_bm25 import BM25Okapi
from rerank_plus import BM25Reranker

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"
N_CANDIDATES = 100
WORDS_PER_CANDIDATE = 200
N_QUERIES = 30


def load_texts(name: str) -> list[str]:
    with (EVAL / name / "corpus.jsonl").open(encoding="utf-8") as handle:
        return [f"{d['title']} {d['text']}".strip() for d in map(json.loads, handle)]


def candidate_sets() -> tuple[list[str], list[list[str]]]:
    words = " ".join(load_texts("xquad-en") + load_texts("cranfield")).split()
    size = WORDS_PER_CANDIDATE
    passages = [" ".join(words[i : i + size]) for i in range(0, len(words) - size, size)]
    with (EVAL / "xquad-en" / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = [q["text"] for q in map(json.loads, handle)][:N_QUERIES]
    # Each query gets its own window of 100 passages, as a first stage would return.
    sets = [
        passages[(i * 37) % (len(passages) - N_CANDIDATES) :][:N_CANDIDATES]
        for i in range(N_QUERIES)
    ]
    return queries, sets


def time_ms(function: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU milliseconds (all threads of the process) of one call: on a shared
    machine the wall clock moves with the other jobs' load, CPU time much less."""
    start, start_cpu = time.perf_counter(), time.process_time()
    function()
    return (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000


def main() -> None:
    if not EVAL.is_dir():
        sys.exit(f"benchmark needs the shared evaluation collections at {EVAL}")
    queries, sets = candidate_sets()
    reranker = BM25Reranker()
    reranker.rank("warm up the models", sets[0][:5])  # load lingua, spaCy, simplemma once

    # Interleaved per query, so that all three see the same machine load.
    baseline: list[tuple[float, float]] = []
    cold: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    load_before = os.getloadavg()[0]
    for query, documents in zip(queries, sets, strict=True):
        baseline.append(
            time_ms(
                lambda q=query, d=documents: BM25Okapi([x.split() for x in d]).get_scores(q.split())
            )
        )
        reranker.analyzer.clear_cache()
        cold.append(time_ms(lambda q=query, d=documents: reranker.rank(q, d, top_n=10)))
        warm.append(time_ms(lambda q=query, d=documents: reranker.rank(q, d, top_n=10)))
    all_docs = [doc for documents in sets for doc in documents]
    reranker.analyzer.clear_cache()
    start = time.perf_counter()
    for doc in all_docs:
        reranker.analyzer.analyze(doc)
    analysis_rate = len(all_docs) / (time.perf_counter() - start)

    load_after = os.getloadavg()[0]
    floor = statistics.median(wall for wall, _ in baseline)
    floor_cpu = statistics.median(cpu for _, cpu in baseline)
    rows = [
        ("rank-bm25 BM25Okapi on str.split (baseline)", baseline),
        ("rerank-plus BM25Reranker, warm cache", warm),
        ("rerank-plus BM25Reranker, cold cache", cold),
    ]
    lines = [
        f"BM25 rerank of {N_CANDIDATES} candidates of {WORDS_PER_CANDIDATE} words, "
        f"{N_QUERIES} queries (xquad-en questions; passages from xquad-en and cranfield).",
        "",
        "| reranker | median ms / query | p95 ms | ratio to baseline | median CPU ms | CPU ratio |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, values in rows:
        walls = sorted(wall for wall, _ in values)
        median, p95 = statistics.median(walls), walls[int(0.95 * (len(walls) - 1))]
        cpu = statistics.median(cpu for _, cpu in values)
        lines.append(
            f"| {name} | {median:.1f} | {p95:.1f} | {median / floor:.2f}x "
            f"| {cpu:.1f} | {cpu / floor_cpu:.2f}x |"
        )
    lines += [
        "",
        f"Analysis throughput, one text at a time (detect + tokenize + lemmatize + stop words, "
        f"cold cache): "
        f"{analysis_rate:,.0f} documents/s of {WORDS_PER_CANDIDATE} words.",
        "",
        f"Load average (1 min) {load_before:.1f} before, {load_after:.1f} after, on "
        f"{os.cpu_count()} CPUs.",
        "",
        "Targets: warm within 3x the baseline; cold within 50 ms.",
        "Command: `python benchmarks/bm25_latency.py`.",
    ]
    body = "\n".join(lines)
    print(body)
    write_section("bm25-latency", "## BM25+NLP rerank latency\n\n" + body)


if __name__ == "__main__":
    main()
