"""Read a BEIR-layout folder (corpus.jsonl, queries.jsonl, qrels.tsv; plain or .gz) and runs.

Malformed input stops with an error naming the file and line; judgments that point to no
document or query are collected in ``Collection.problems`` and reported, never dropped silently.
"""

from __future__ import annotations

import csv
import gzip
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO


@dataclass(frozen=True)
class Collection:
    name: str
    documents: dict[str, str]  # id -> "title\ntext", as the shared first-stage runs embedded it
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]
    problems: list[str] = field(default_factory=list)


@contextmanager
def _open(path: Path) -> Iterator[IO[str]]:
    gz = path.with_name(path.name + ".gz")
    if path.exists():
        handle: IO[str] = path.open(encoding="utf-8")
    elif gz.exists():
        handle = gzip.open(gz, "rt", encoding="utf-8")  # noqa: SIM115 - closed below
    else:
        raise FileNotFoundError(f"{path} (or {gz.name}) is missing: a BEIR folder needs it.")
    with handle:
        yield handle


def _jsonl(path: Path, required: tuple[str, ...]) -> Iterator[dict]:
    with _open(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(
                    f"{path.name} line {number}: not valid JSON ({error.msg})."
                ) from error
            missing = [key for key in required if not isinstance(record.get(key), str)]
            if missing:
                raise ValueError(f"{path.name} line {number}: no string field {missing[0]!r}.")
            yield record


def load_collection(folder: str | Path) -> Collection:
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a folder with a BEIR collection.")
    documents = {
        d["_id"]: f"{d.get('title') or ''}\n{d['text']}".strip()
        for d in _jsonl(folder / "corpus.jsonl", ("_id", "text"))
    }
    queries = {q["_id"]: q["text"] for q in _jsonl(folder / "queries.jsonl", ("_id", "text"))}
    qrels: dict[str, dict[str, int]] = {}
    problems: list[str] = []
    with _open(folder / "qrels.tsv") as handle:
        reader = csv.reader(handle, delimiter="\t")
        for number, row in enumerate(reader, start=1):
            if number == 1 and row[:1] == ["query-id"]:
                continue
            if len(row) != 3 or not row[2].lstrip("-").isdigit():
                raise ValueError(
                    f"qrels.tsv line {number}: expected query-id<TAB>corpus-id<TAB>score, "
                    f"got {row!r}."
                )
            query_id, document_id, score = row[0], row[1], int(row[2])
            if query_id not in queries:
                problems.append(
                    f"qrels.tsv line {number}: query {query_id!r} is not in queries.jsonl"
                )
            elif document_id not in documents:
                problems.append(
                    f"qrels.tsv line {number}: document {document_id!r} is not in corpus.jsonl"
                )
            else:
                qrels.setdefault(query_id, {})[document_id] = score
    return Collection(folder.name, documents, queries, qrels, problems)


def read_run(path: str | Path) -> dict[str, list[str]]:
    """A run file (query-id, doc-id, rank, score per line; plain or .gz) as ranked doc ids."""
    return {query: [doc for doc, _ in rows] for query, rows in read_scored_run(path).items()}


def read_scored_run(path: str | Path) -> dict[str, list[tuple[str, float]]]:
    """A run file as ranked (doc id, first-stage score) pairs; a missing score counts as 0."""
    path = Path(path)
    ranked: dict[str, list[tuple[int, str, float]]] = {}
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        for number, line in enumerate(handle, start=1):
            parts = line.rstrip("\n").split("\t")
            if number == 1 and parts[0] == "query-id":
                continue
            if len(parts) < 3 or not parts[2].isdigit():
                raise ValueError(
                    f"{path.name} line {number}: expected query-id, doc-id, rank, score."
                )
            score = float(parts[3]) if len(parts) > 3 and parts[3] else 0.0
            ranked.setdefault(parts[0], []).append((int(parts[2]), parts[1], score))
    return {query: [(doc, s) for _, doc, s in sorted(rows)] for query, rows in ranked.items()}
