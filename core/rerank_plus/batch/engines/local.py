"""The in-process engine, the default: no cluster, a progress bar, rows in input order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from rerank_plus.batch.readers import RowSource
from rerank_plus.batch.rows import Row, rerank_rows
from rerank_plus.batch.sink import Sink
from rerank_plus.batch.source import RerankerSource, build
from rerank_plus.reranker import Reranker


def batches(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """``rows`` in lists of ``size`` (the last one shorter), read lazily."""
    iterator = iter(rows)
    while chunk := list(islice(iterator, size)):
        yield chunk


def rerank_batches(
    reranker: Reranker,
    rows: Iterable[Any],
    *,
    batch_size: int = 64,
    top_n: int | None = None,
    threshold: float | None = None,
) -> Iterator[list[Row]]:
    """Output rows a batch at a time, in input order (see :func:`rerank_rows`)."""
    for chunk in batches(rows, batch_size):
        yield rerank_rows(reranker, chunk, top_n=top_n, threshold=threshold)


def run_local(
    source: RowSource,
    reranker: RerankerSource | None,
    sink: Sink,
    *,
    batch_size: int,
    top_n: int | None,
    threshold: float | None,
    progress: bool,
) -> int:
    """Rerank ``source`` into ``sink`` in this process; returns the number of rows read."""
    model = build(reranker)
    counted = 0

    def counting(rows: Iterable[Any]) -> Iterator[Any]:
        nonlocal counted
        for row in rows:
            counted += 1
            yield row

    outputs: Iterable[list[Row]] = rerank_batches(
        model, counting(source.rows()), batch_size=batch_size, top_n=top_n, threshold=threshold
    )
    bar = _progress_bar() if progress else None
    try:
        for rows in outputs:
            sink.accept(rows)
            if bar is not None:
                bar.update(len(rows))
    finally:
        if bar is not None:
            bar.close()
    return counted


def _progress_bar() -> Any:
    """A tqdm bar on stderr (queries done, queries/s) when tqdm is installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(unit="query", desc="rerank", smoothing=0.1)
