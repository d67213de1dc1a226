"""Where batch rows come from: JSONL, Parquet with list columns, or a run plus a BEIR corpus.

JSONL and Parquet are streamed (memory does not grow with the file). A run (TREC
``qid Q0 doc rank score tag`` or tab-separated ``query-id doc-id rank score``, as ``eval``
reads it) names documents by id, so the corpus and the queries are read into memory and each
query's candidates are joined with their texts; for inputs larger than memory, write the rows
to Parquet once.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from rerank_plus.batch.rows import Row, decode_line
from rerank_plus.errors import MissingExtraError

Kind = Literal["jsonl", "parquet", "run"]

JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".ndjson")
PARQUET_SUFFIXES = (".parquet", ".pq")


@dataclass(frozen=True)
class RowSource:
    """An input file and how to read it; engines read it their own way (Ray in parallel)."""

    path: Path
    kind: Kind
    corpus: Path | None = None
    queries: Path | None = None

    def rows(self) -> Iterator[Any]:
        """Every input row in file order (JSONL lines that are not JSON come as Malformed)."""
        readers = {"jsonl": read_jsonl, "parquet": read_parquet, "run": self._run_rows}
        return readers[self.kind](self.path)

    def _run_rows(self, path: Path) -> Iterator[Row]:
        assert self.corpus is not None and self.queries is not None
        return read_run_rows(path, self.corpus, self.queries)


def open_source(
    path: str | Path, *, corpus: str | Path | None = None, queries: str | Path | None = None
) -> RowSource:
    """The input at ``path``: a run when ``corpus`` and ``queries`` are given, else JSONL or
    Parquet by its suffix (a folder is a Parquet dataset)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such input file or folder.")
    if corpus is not None or queries is not None:
        if corpus is None or queries is None:
            raise ValueError(
                "A run names documents and queries by id: give both --corpus (a BEIR folder "
                "or its corpus.jsonl) and --queries (queries.jsonl)."
            )
        corpus = Path(corpus)
        corpus = corpus / "corpus.jsonl" if corpus.is_dir() else corpus
        return RowSource(path, "run", corpus, Path(queries))
    name = path.name.lower()
    if path.is_dir() or name.endswith(PARQUET_SUFFIXES):
        return RowSource(path, "parquet")
    if name.endswith(JSONL_SUFFIXES):
        return RowSource(path, "jsonl")
    raise ValueError(
        f"{path.name}: unknown input format. Use JSONL ({', '.join(JSONL_SUFFIXES)}), Parquet "
        f"({', '.join(PARQUET_SUFFIXES)} or a folder of them), or a run file with --corpus "
        "and --queries."
    )


def read_jsonl(path: Path) -> Iterator[Any]:
    """One value per non-blank line, streamed; plain or gzip by the file's suffix."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield decode_line(line.rstrip("\r\n"))


def pyarrow_modules() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet``, or an error naming the extra that brings them."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as error:
        raise MissingExtraError("pyarrow", "ray", "Reading and writing Parquet") from error
    return pyarrow, pyarrow.parquet


def read_parquet(path: Path, rows_per_batch: int = 1024) -> Iterator[Row]:
    """The rows of a Parquet file or folder, streamed a record batch at a time (row group by
    row group: a dataset scanner would read ahead of a slow consumer, holding the file)."""
    _, pq = pyarrow_modules()
    for file in parquet_files(path):
        for batch in pq.ParquetFile(file).iter_batches(batch_size=rows_per_batch):
            yield from batch.to_pylist()


def parquet_files(path: Path) -> list[Path]:
    """``path`` itself, or the Parquet files under the folder ``path`` in name order."""
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and p.name.endswith(PARQUET_SUFFIXES))


def read_run_rows(run: Path, corpus: Path, queries: Path) -> Iterator[Row]:
    """One row per query of the run, its candidates in rank order with their run scores.

    A document missing from the corpus is left without text, a query missing from the
    queries file without its text: those rows come back as errors naming what is missing.
    """
    from rerank_plus.evaluation.beir import read_corpus, read_queries, read_scored_run

    documents, texts = read_corpus(corpus), read_queries(queries)
    for query_id, ranked in read_scored_run(run).items():
        yield {
            "query_id": query_id,
            "query": texts.get(query_id),
            "candidates": [
                {"doc_id": doc_id, "text": documents.get(doc_id), "score": score}
                for doc_id, score in ranked
            ],
        }
