"""The output side of a job, the same for every engine: results, errors, and the exactly-once
check.

Each input row comes back exactly once, as a result or as an error. The sink keeps the query
ids it has written (about 100 bytes each), so a query id that comes back twice (the input
repeats it, or a retried task delivered it again) is written once and reported in the errors
file, and the job ends by comparing what came back with what went in: a lost row is an error,
never a silent gap.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rerank_plus.batch.rows import Row
from rerank_plus.batch.writers import JsonlWriter, ParquetWriter, RowWriter, open_writer
from rerank_plus.errors import RerankPlusError


class BatchRowError(RerankPlusError, ValueError):
    """A bad input row stopped a ``strict`` job; the message names its query id."""


class LostRowsError(RerankPlusError, RuntimeError):
    """Fewer rows came back than went in (a worker's output was lost and not retried)."""


@dataclass(frozen=True)
class BatchSummary:
    """What a job did: rows read, results written, rows reported as errors (``repeated``
    of them for a query id that came back twice)."""

    rows: int
    written: int
    errors: int
    repeated: int
    output: Path
    errors_path: Path | None


class Sink:
    """Writes result rows to ``output`` and error rows to ``errors`` (JSONL, opened on the
    first error), each query id once; with ``strict`` the first error row stops the job."""

    def __init__(self, output: str | Path, errors: str | Path | None, *, strict: bool) -> None:
        self.output = Path(output)
        self.errors_path = Path(errors) if errors is not None else None
        self.strict = strict
        self._writer: RowWriter = open_writer(self.output)
        self._errors: JsonlWriter | None = None
        self._seen: set[str] = set()
        self.written = 0
        self.error_count = 0
        self._anonymous = 0
        self.repeated = 0

    def accept(self, rows: Iterable[Row]) -> None:
        results, errors = [], []
        for row in rows:
            query_id = row.get("query_id")
            if query_id is None:
                self._anonymous += 1
            elif query_id in self._seen:
                self.repeated += 1
                row = {
                    "query_id": query_id,
                    "error": "query_id came back again (the input repeats it, or a retried "
                    "task delivered it twice); the first one is kept.",
                }
            else:
                self._seen.add(query_id)
            if row.get("error") is None:
                results.append({"query_id": query_id, "results": row["results"]})
            else:
                errors.append({"query_id": query_id, "error": row["error"]})
        self._writer.write(results)
        self.written += len(results)
        if errors:
            self._report(errors)

    def accept_table(self, table: Any) -> None:
        """An engine's Arrow block of ``query_id``, ``results`` and ``error`` columns.

        A block of new results only goes to a Parquet output as it is: converting it to
        Python rows and back would cost the driver about 3 ms per 64 queries, CPU it shares
        with the workers. A block with an error or a repeated query id, or for another
        output format, is taken row by row, as :meth:`accept` takes rows.
        """
        query_ids = table.column("query_id").to_pylist()
        fresh = set(query_ids)
        if (
            isinstance(self._writer, ParquetWriter)
            and table.column("error").null_count == table.num_rows
            and len(fresh) == len(query_ids)
            and None not in fresh
            and fresh.isdisjoint(self._seen)
        ):
            self._seen |= fresh
            self._writer.write_table(table.select(["query_id", "results"]))
            self.written += len(query_ids)
            return
        self.accept(
            {"query_id": row["query_id"], "results": row["results"]}
            if row["error"] is None
            else {"query_id": row["query_id"], "error": row["error"]}
            for row in table.to_pylist()
        )

    def _report(self, errors: list[Row]) -> None:
        first = errors[0]
        if self.strict:
            where = "a row without a query id" if first["query_id"] is None else "query"
            where += "" if first["query_id"] is None else f" {first['query_id']!r}"
            raise BatchRowError(
                f"{where}: {first['error']} (drop --strict to write bad rows to the errors "
                "file and go on)"
            )
        if self._errors is None:
            if self.errors_path is None:
                self.errors_path = default_errors_path(self.output)
            self._errors = JsonlWriter(self.errors_path)
        self._errors.write(errors)
        self.error_count += len(errors)

    def close(self) -> None:
        self._writer.close()
        if self._errors is not None:
            self._errors.close()

    def finish(self, rows_in: int) -> BatchSummary:
        """Close the files and check that each of the ``rows_in`` rows came back."""
        self.close()
        lost = rows_in - (len(self._seen) + self._anonymous + self.repeated)
        if lost > 0:
            raise LostRowsError(
                f"{lost} of {rows_in} rows did not come back ({self.written} results, "
                f"{self.error_count} errors): the output is incomplete; rerun the job."
            )
        return BatchSummary(
            rows_in, self.written, self.error_count, self.repeated, self.output, self.errors_path
        )


def default_errors_path(output: Path) -> Path:
    """``OUT.errors.jsonl`` beside the output."""
    return output.with_name(output.name + ".errors.jsonl")
