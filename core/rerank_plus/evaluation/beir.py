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


def read_corpus(path: str | Path) -> dict[str, str]:
    """A BEIR corpus.jsonl (or .gz) as id -> "title\ntext", as the shared runs embedded it."""
    return {
        d["_id"]: f"{d.get('title') or ''}\n{d['text']}".strip()
        for d in _jsonl(Path(path), ("_id", "text"))
    }


def read_queries(path: str | Path) -> dict[str, str]:
    """A BEIR queries.jsonl (or .gz) as id -> text."""
    return {q["_id"]: q["text"] for q in _jsonl(Path(path), ("_id", "text"))}


def load_collection(folder: str | Path) -> Collection:
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a folder with a BEIR collection.")
    documents = read_corpus(folder / "corpus.jsonl")
    queries = read_queries(folder / "queries.jsonl")
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
            unknown = [
                f"{kind} {value!r} is not in {file}"
                for kind, value, known, file in (
                    ("query", query_id, queries, "queries.jsonl"),
                    ("document", document_id, documents, "corpus.jsonl"),
                )
                if value not in known
            ]
            if unknown:
                problems.append(f"qrels.tsv line {number}: " + "; ".join(unknown))
            else:
                qrels.setdefault(query_id, {})[document_id] = score
    return Collection(folder.name, documents, queries, qrels, problems)


def read_run(path: str | Path) -> dict[str, list[str]]:
    """A run file (see :func:`read_scored_run`) as ranked doc ids per query."""
    return {query: [doc for doc, _ in rows] for query, rows in read_scored_run(path).items()}


def _run_fields(line: str) -> tuple[str, str, str, str] | None:
    """(query, doc, rank, score) of a run line: tab-separated ``query-id doc-id rank [score]``
    (the shared runs), or the whitespace-separated TREC format ``qid Q0 docid rank score tag``."""
    parts = line.split("\t")
    if len(parts) in (3, 4):
        return parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else ""
    parts = line.split()
    if len(parts) == 6:
        return parts[0], parts[2], parts[3], parts[4]
    return None


def read_scored_run(path: str | Path) -> dict[str, list[tuple[str, float]]]:
    """A run file (plain or .gz) as (doc id, first-stage score) pairs in rank order.

    Rows are ordered by their rank column (file order breaks ties); a missing score counts as
    0. A document listed twice for one query is an error: it would be counted twice.
    """
    path = Path(path)
    ranked: dict[str, list[tuple[int, str, float]]] = {}
    seen: dict[tuple[str, str], int] = {}
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        for number, line in enumerate(handle, start=1):
            line = line.rstrip("\n")
            if not line.strip() or (number == 1 and line.startswith("query-id")):
                continue
            fields = _run_fields(line)
            if fields is None or not fields[2].isdigit():
                raise ValueError(
                    f"{path.name} line {number}: expected query-id<TAB>doc-id<TAB>rank<TAB>score "
                    f"or TREC 'qid Q0 docid rank score tag', got {line[:80]!r}."
                )
            query, doc, rank, score = fields
            if (query, doc) in seen:
                raise ValueError(
                    f"{path.name} line {number}: document {doc!r} is already ranked for query "
                    f"{query!r} on line {seen[query, doc]}; list each document once per query."
                )
            seen[query, doc] = number
            try:
                value = float(score) if score else 0.0
            except ValueError:
                raise ValueError(
                    f"{path.name} line {number}: score {score!r} is not a number."
                ) from None
            ranked.setdefault(query, []).append((int(rank), doc, value))
    return {
        query: [(doc, value) for _, doc, value in sorted(rows, key=lambda row: row[0])]
        for query, rows in ranked.items()
    }
