"""Where result rows go: Parquet (list columns), JSONL, or a TREC run, chosen by the suffix.

Writers take rows as they come (a batch at a time) and keep nothing but the open file, so an
output of any size is written in constant memory. A TREC run (``qid Q0 docid rank score tag``)
is read back by ``rerank-plus eval --run``; its rank column is the reranker's order (trec_eval
itself re-sorts by the score column, which a diversity step may not follow).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, Protocol

from rerank_plus.batch.readers import PARQUET_SUFFIXES, pyarrow_modules
from rerank_plus.batch.rows import Row

TREC_SUFFIXES = (".trec", ".run", ".txt")


class RowWriter(Protocol):
    def write(self, rows: Sequence[Row]) -> None: ...

    def close(self) -> None: ...


def results_schema() -> Any:
    """The Arrow schema of result rows: a list column of one struct per kept document."""
    pa, _ = pyarrow_modules()
    result = pa.struct(
        [
            ("doc_id", pa.string()),
            ("index", pa.int64()),
            ("relevance_score", pa.float64()),
            ("score", pa.float64()),
        ]
    )
    return pa.schema([("query_id", pa.string()), ("results", pa.list_(result))])


class ParquetWriter:
    def __init__(self, path: Path) -> None:
        pa, pq = pyarrow_modules()
        self._pa, self._schema = pa, results_schema()
        self._writer = pq.ParquetWriter(path, self._schema)

    def write(self, rows: Sequence[Row]) -> None:
        if rows:
            columns = {name: [row[name] for row in rows] for name in ("query_id", "results")}
            self._writer.write_table(self._pa.Table.from_pydict(columns, schema=self._schema))

    def write_table(self, table: Any) -> None:
        """Result rows already in Arrow (a Ray block): written with no Python conversion."""
        if table.num_rows:
            self._writer.write_table(table.cast(self._schema))

    def close(self) -> None:
        self._writer.close()


class JsonlWriter:
    """One JSON object per line; also the format of the errors file."""

    def __init__(self, path: Path) -> None:
        self._handle: IO[str] = path.open("w", encoding="utf-8")

    def write(self, rows: Sequence[Row]) -> None:
        for row in rows:
            self._handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()


class TrecWriter:
    def __init__(self, path: Path, tag: str = "rerank-plus") -> None:
        self._handle: IO[str] = path.open("w", encoding="utf-8")
        self._tag = tag

    def write(self, rows: Sequence[Row]) -> None:
        for row in rows:
            ids = [row["query_id"], *(result["doc_id"] for result in row["results"])]
            spaced = next((value for value in ids if len(value.split()) != 1), None)
            if spaced is not None:
                raise ValueError(
                    f"id {spaced!r} is empty or holds whitespace, which a TREC run cannot "
                    "hold; write .parquet or .jsonl instead."
                )
            for rank, result in enumerate(row["results"], start=1):
                self._handle.write(
                    f"{row['query_id']} Q0 {result['doc_id']} {rank} {result['score']!r} "
                    f"{self._tag}\n"
                )
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()


WRITERS: dict[tuple[str, ...], Callable[[Path], RowWriter]] = {
    PARQUET_SUFFIXES: ParquetWriter,
    (".jsonl", ".ndjson"): JsonlWriter,
    TREC_SUFFIXES: TrecWriter,
}


def open_writer(path: str | Path) -> RowWriter:
    """The writer for ``path``'s suffix; an unknown suffix lists the known ones."""
    path = Path(path)
    for suffixes, writer in WRITERS.items():
        if path.name.lower().endswith(suffixes):
            path.parent.mkdir(parents=True, exist_ok=True)
            return writer(path)
    known = ", ".join(suffix for suffixes in WRITERS for suffix in suffixes)
    raise ValueError(f"{path.name}: unknown output format; end the name with one of {known}.")
