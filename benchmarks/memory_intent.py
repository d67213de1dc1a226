"""How the memory retriever reads questions' intents and shapes: on the repository's intent set
(natural questions in several languages, each asked of a small memory; see
:mod:`rerank_plus.evaluation.memory.intent_set`) and on QMSum's queries (general ones should be
read as synthesis, specific ones not), each QMSum question asked of its own meeting.

``--shares`` also reads every question at other values of the share of a memory's messages that
makes a word common (:data:`rerank_plus.memory.query.specificity.COMMON_SHARE`): the measurement
that chose it.

    python benchmarks/memory_intent.py                       # the intent set's tables
    python benchmarks/memory_intent.py --qmsum train --shares 0.02,0.05,0.083,0.125
"""

from __future__ import annotations

import argparse
import dataclasses
from datetime import datetime, timezone
from pathlib import Path

from rerank_plus.evaluation.memory.intent_set import (
    accuracy_table,
    read_intent_set,
    read_questions,
)
from rerank_plus.evaluation.memory.qmsum import load_meetings
from rerank_plus.memory import MemoryRetriever, build_memory
from rerank_plus.memory.query import analyze_query
from rerank_plus.memory.query.specificity import COMMON_SHARE

ROOT = Path(__file__).resolve().parent.parent
INTENT_SET = ROOT / "tests" / "memory" / "intent_set"
QMSUM = ROOT.parent / "shared" / "eval" / "qmsum"
NOW = datetime(2024, 5, 8, 9, 30, tzinfo=timezone.utc)


def _reader(retriever: MemoryRetriever, share: float | None):
    """Step 1 as the retriever takes it, with the common share given (None: no memory)."""
    index = retriever.index()
    vocabulary = (
        None if share is None else dataclasses.replace(index.vocabulary, common_share=share)
    )

    def read(text: str, now: datetime) -> str:
        return analyze_query(
            text,
            now,
            known_entities=index.known_entities,
            analyzer=retriever.analyzer,
            vocabulary=vocabulary,
        ).intent

    return read


def intent_set(shares: list[float | None]) -> None:
    memories, questions = read_intent_set(INTENT_SET)
    readings = read_questions(memories, questions)
    print(f"Intent set: {len(questions)} questions, as the retriever reads them\n")
    print(accuracy_table(readings))
    wrong = [r for r in readings if not (r.intent_correct and r.shape_correct)]
    for reading in wrong:
        q = reading.question
        print(
            f"- {q.language} {q.intent}/{q.shape} read {reading.intent}/{reading.shape}: "
            f"{q.text!r} ({reading.reason})"
        )
    if len(shares) > 1:
        retrievers = {
            key: MemoryRetriever(build_memory(list(m.messages))) for key, m in memories.items()
        }
        print("\n| common share | intent accuracy |\n|---|---:|")
        for share in shares:
            readers = {key: _reader(r, share) for key, r in retrievers.items()}
            right = sum(
                readers[q.memory](q.text, memories[q.memory].now) == q.intent for q in questions
            )
            print(f"| {_share(share)} | {right / len(questions):.3f} |")


def qmsum(split: str, shares: list[float | None]) -> None:
    meetings = load_meetings(QMSUM, split)
    general = {share: 0 for share in shares}
    specific = {share: 0 for share in shares}
    flipped: dict[float | None, list[str]] = {share: [] for share in shares}
    counts = [0, 0]
    for meeting in meetings:
        retriever = MemoryRetriever(build_memory(meeting.messages()))
        readers = {share: _reader(retriever, share) for share in shares}
        for query in meeting.queries:
            counts[query.kind == "specific"] += 1
            for share, read in readers.items():
                synthesis = read(query.text, NOW) == "synthesis"
                if query.kind == "general":
                    general[share] += synthesis
                else:
                    specific[share] += not synthesis
                    if synthesis:
                        flipped[share].append(query.text)
    print(
        f"\nQMSum {split}: {counts[0]} general, {counts[1]} specific queries, each asked of "
        "its meeting\n"
    )
    print(
        "| common share | general -> synthesis | specific -> not | accuracy |\n|---|---:|---:|---:|"
    )
    for share in shares:
        accuracy = (general[share] + specific[share]) / sum(counts)
        print(
            f"| {_share(share)} | {general[share]}/{counts[0]} | "
            f"{specific[share]}/{counts[1]} | {accuracy:.3f} |"
        )
    for share in shares:
        for text in flipped[share]:
            print(f"- at {_share(share)}, specific read as synthesis: {text!r}")


def _share(share: float | None) -> str:
    return "no memory (cues only)" if share is None else f"{share:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qmsum", choices=("train", "test"), help="also read QMSum's split")
    parser.add_argument("--shares", default="", help="comma-separated common shares to compare")
    args = parser.parse_args()
    shares: list[float | None] = [None, COMMON_SHARE]
    shares += [float(s) for s in args.shares.split(",") if s and float(s) != COMMON_SHARE]
    intent_set(shares if args.shares else [COMMON_SHARE])
    if args.qmsum:
        qmsum(args.qmsum, shares)


if __name__ == "__main__":
    main()
