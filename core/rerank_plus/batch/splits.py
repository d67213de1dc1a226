"""Input splits: the units of work a cluster's workers read for themselves.

A split names a piece of the input file (a Parquet row group, a byte range of JSONL lines)
instead of carrying its rows, so the driver sends a few bytes per split and each worker reads
its own piece: memory stays flat on both sides, and no reading task competes with the
workers for CPUs (on a cluster whose CPUs the workers hold, such a task would wait forever).
Parquet splits are row groups: write inputs with row groups of a few thousand rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rerank_plus.batch.readers import RowSource, parquet_files, pyarrow_modules
from rerank_plus.batch.rows import decode_line

Split = dict[str, Any]


def plan_splits(source: RowSource, rows_per_split: int) -> tuple[list[Split], int]:
    """The splits of ``source`` and its number of rows.

    Parquet: one split per row group (counts from the footers). JSONL: byte ranges of
    ``rows_per_split`` non-blank lines, found by one pass over the file. Gzip JSONL and runs
    (joined with their corpus here) cannot be cut by offsets: their rows travel inline, as
    JSON lines, in splits of ``rows_per_split``.
    """
    if source.kind == "parquet":
        _, pq = pyarrow_modules()
        splits, rows = [], 0
        for path in parquet_files(source.path):
            metadata = pq.ParquetFile(path).metadata
            for group in range(metadata.num_row_groups):
                splits.append({"path": str(path), "group": group, "start": 0, "stop": 0})
                rows += metadata.row_group(group).num_rows
        return splits, rows
    if source.kind == "jsonl" and source.path.suffix != ".gz":
        return _line_ranges(source.path, rows_per_split)
    lines = [json.dumps(row, ensure_ascii=False) for row in source.rows()]
    inline = [
        {"path": "", "group": -1, "start": 0, "stop": 0, "lines": lines[i : i + rows_per_split]}
        for i in range(0, len(lines), rows_per_split)
    ]
    return inline, len(lines)


def _line_ranges(path: Path, rows_per_split: int) -> tuple[list[Split], int]:
    splits, rows, in_split, start, offset = [], 0, 0, 0, 0
    with path.open("rb") as handle:
        for line in handle:
            offset += len(line)
            if line.strip():
                rows += 1
                in_split += 1
                if in_split == rows_per_split:
                    splits.append({"path": str(path), "group": -1, "start": start, "stop": offset})
                    start, in_split = offset, 0
    if in_split:
        splits.append({"path": str(path), "group": -1, "start": start, "stop": offset})
    return splits, rows


def read_split(split: Split, rows_per_batch: int) -> Iterator[list[Any]]:
    """The rows of one split, ``rows_per_batch`` at a time."""
    if split.get("lines"):
        yield [decode_line(line) for line in split["lines"]]
    elif split["group"] >= 0:
        _, pq = pyarrow_modules()
        parquet = pq.ParquetFile(split["path"])
        for batch in parquet.iter_batches(batch_size=rows_per_batch, row_groups=[split["group"]]):
            yield batch.to_pylist()
    else:
        yield from _lines(split, rows_per_batch)


def _lines(split: Split, rows_per_batch: int) -> Iterator[list[Any]]:
    with open(split["path"], "rb") as handle:
        handle.seek(split["start"])
        rows: list[Any] = []
        while handle.tell() < split["stop"]:
            line = handle.readline().decode("utf-8")
            if line.strip():
                rows.append(decode_line(line.rstrip("\r\n")))
            if len(rows) == rows_per_batch:
                yield rows
                rows = []
        if rows:
            yield rows
