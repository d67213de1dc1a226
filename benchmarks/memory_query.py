"""Cost of the memory retriever's step 1, ``analyze_query``, per query, against the analysis
layer's own ``Analyzer.analyze`` of the same query (the baseline, measured in the same run).

Queries: every QMSum query in ``../shared/eval/qmsum/{train,test}`` when present, plus a fixed
set in six languages with time windows, entity questions and recency cues. Process start-up
(lingua's models, spaCy, simplemma, the compiled cue patterns) is paid once before timing:
``warm_up``. Rows:

- "warm": every query analyzed once before, as when a user asks again or a chat retries (the
  analyzer's caches answer);
- "new query": the analyzer's caches cleared before each query, so language detection and the
  analysis run again (the per-word caches stay, as in a process that has read other text).

The issue's budget is 5 ms per query for the retriever's whole policy; step 1 should stay well
under 1 ms once warm.

Run: ``python benchmarks/memory_query.py`` (``--write`` also updates the "memory-query" section
of docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from datetime import datetime, timezone
from pathlib import Path

from _report import write_section  # benchmarks/ is on sys.path when a script here runs
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import analyze_query, warm_up

QMSUM = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "qmsum"
NOW = datetime(2024, 5, 8, 9, 30, tzinfo=timezone.utc)
KNOWN = ("Marketing", "Project Manager", "User Interface", "Industrial Designer", "Professor")
FIXED = [
    "Summarize the whole meeting.",
    "What was discussed since yesterday at 10:00?",
    "quoi de neuf depuis hier ?",
    "quelle commande à 00:18 ?",
    "où parle-t-on de la migration ?",
    "raconte les grandes étapes du projet",
    "Was wurde letzte Woche über das Budget gesagt?",
    "¿Qué hay de nuevo desde el lunes?",
    "Cosa abbiamo deciso ieri sera?",
    "O que foi discutido nas últimas 2 horas?",
    "What did Marketing think of the remote control in the last meeting?",
    "where do we talk about the LDA filters?",
]
ROUNDS = 3


def queries() -> list[str]:
    found = list(FIXED)
    for split in ("train", "test"):
        for path in sorted((QMSUM / split).glob("*.json")):
            meeting = json.loads(path.read_text(encoding="utf-8"))
            for key in ("general_query_list", "specific_query_list"):
                found.extend(entry["query"] for entry in meeting[key])
    return list(dict.fromkeys(found))


def timed_us(call) -> tuple[float, float]:
    """Wall-clock and this thread's CPU microseconds of one call: on a shared machine the wall
    clock moves with the other jobs' load, the thread's CPU time much less."""
    start, start_cpu = time.perf_counter_ns(), time.thread_time_ns()
    call()
    return (time.perf_counter_ns() - start) / 1e3, (time.thread_time_ns() - start_cpu) / 1e3


def quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()

    analyzer = Analyzer()
    warm_up(analyzer)
    texts = queries()
    for text in texts:  # load every script's and language's data once
        analyze_query(text, NOW, known_entities=KNOWN, analyzer=analyzer)

    rows: dict[str, list[tuple[float, float]]] = {
        "analyze_query, warm": [],
        "Analyzer.analyze, warm (baseline)": [],
        "analyze_query, new query": [],
        "Analyzer.analyze, new query (baseline)": [],
    }

    def step0(text: str) -> None:
        analyze_query(text, NOW, known_entities=KNOWN, analyzer=analyzer)

    for _ in range(ROUNDS):
        for text in texts:  # interleaved, so both see the same machine load
            rows["analyze_query, warm"].append(timed_us(lambda t=text: step0(t)))
            rows["Analyzer.analyze, warm (baseline)"].append(
                timed_us(lambda t=text: analyzer.analyze(t))
            )
        for text in texts:
            analyzer.clear_cache()
            rows["analyze_query, new query"].append(timed_us(lambda t=text: step0(t)))
            analyzer.clear_cache()
            rows["Analyzer.analyze, new query (baseline)"].append(
                timed_us(lambda t=text: analyzer.analyze(t))
            )

    def cpu_median(name: str) -> float:
        return quantiles([cpu for _, cpu in rows[name]])[0]

    lines = [
        f"{len(texts)} distinct queries (QMSum train and test, and {len(FIXED)} in six "
        f"languages), {ROUNDS} rounds; microseconds per query, wall clock and the thread's CPU "
        f"time (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs).",
        "",
        "| call | wall median | wall p95 | CPU median | CPU p95 | CPU median / baseline |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, values in rows.items():
        wall, wall_p95 = quantiles([w for w, _ in values])
        cpu, cpu_p95 = quantiles([c for _, c in values])
        base = cpu_median(
            "Analyzer.analyze, warm (baseline)"
            if "warm" in name
            else "Analyzer.analyze, new query (baseline)"
        )
        lines.append(
            f"| {name} | {wall:.0f} | {wall_p95:.0f} | {cpu:.0f} | {cpu_p95:.0f} "
            f"| {cpu / base:.2f}x |"
        )
    body = "\n".join(lines)
    print(body)
    if args.write:
        write_section("memory-query", "## Memory query analysis (step 1)\n\n" + body)


if __name__ == "__main__":
    main()
