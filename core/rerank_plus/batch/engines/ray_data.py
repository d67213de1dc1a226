"""The Ray Data engine: the same rows, reranked by a pool of actors, on a laptop or a cluster.

``read_parquet`` (or the JSON lines of a JSONL file or a run) -> blocks of ``batch_size`` rows
-> ``map_batches`` with :class:`RerankActor`, which builds the reranker once per actor (a model
is loaded ``workers`` times, not once per batch) -> result blocks streamed back to this
process, which writes them as they arrive. Ray retries the batches of an actor that dies
(actors restart, tasks retry); :class:`rerank_plus.batch.sink.Sink` writes each query once and
checks that every row came back. (The module is not named ``ray.py``: ``import ray`` must
never mean it.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rerank_plus.batch.readers import RowSource, pyarrow_modules
from rerank_plus.batch.rows import Row, decode_line, rerank_rows
from rerank_plus.batch.sink import Sink
from rerank_plus.batch.source import Recipe, RerankerSource, build, recipe
from rerank_plus.errors import MissingExtraError

#: The column of ``read_text`` and of the JSON lines made from a run.
LINE = "text"


def _ray() -> Any:
    try:
        import ray
        import ray.data
    except ImportError as error:
        raise MissingExtraError("ray", "ray", "The ray engine") from error
    return ray


def output_schema() -> Any:
    """Result rows plus an ``error`` column: an actor's answer for every row it was given."""
    from rerank_plus.batch.writers import results_schema

    pa, _ = pyarrow_modules()
    return results_schema().append(pa.field("error", pa.string()))


class RerankActor:
    """Builds the reranker once (in the actor's process), then reranks batches of rows.

    Batches come as Arrow tables: the rows themselves (Parquet) or one JSON line per row
    (column ``text``), decoded here so a line that is not JSON becomes an error row.
    """

    def __init__(
        self, recipe: Recipe, top_n: int | None, threshold: float | None, lines: bool
    ) -> None:
        self.reranker = build(recipe)
        self.top_n, self.threshold, self.lines = top_n, threshold, lines
        self.schema = output_schema()
        self.pa, _ = pyarrow_modules()

    def __call__(self, batch: Any) -> Any:
        rows: list[Any] = (
            [decode_line(line) for line in batch.column(LINE).to_pylist()]
            if self.lines
            else batch.to_pylist()
        )
        out = rerank_rows(self.reranker, rows, top_n=self.top_n, threshold=self.threshold)
        columns = {
            "query_id": [row["query_id"] for row in out],
            "results": [row.get("results") for row in out],
            "error": [row.get("error") for row in out],
        }
        return self.pa.Table.from_pydict(columns, schema=self.schema)


def _dataset(ray: Any, source: RowSource, batch_size: int) -> tuple[Any, bool, int, int]:
    """The input as a Ray dataset, whether its rows are JSON lines, its row count, and the
    bytes per block that make a block hold about one batch.

    Reads take no CPU of their own (``num_cpus=0``): the actors hold every CPU of a small
    cluster, and a read waiting for one of them would wait forever.
    """
    if source.kind == "run":  # joined with its corpus in this process: rows go as JSON lines
        items = [{LINE: json.dumps(row, ensure_ascii=False)} for row in source.rows()]
        blocks = max(1, -(-len(items) // batch_size))
        return ray.data.from_items(items, override_num_blocks=blocks), True, len(items), 0
    if source.kind == "parquet":
        dataset, lines = ray.data.read_parquet(str(source.path), num_cpus=0), False
    else:
        dataset = ray.data.read_text(str(source.path), drop_empty_lines=True, num_cpus=0)
        lines = True
    rows_in = dataset.count()
    size = sum(path.stat().st_size for path in _files(source.path))
    return dataset, lines, rows_in, max(1 << 16, size * batch_size // max(rows_in, 1))


def _files(path: Path) -> list[Path]:
    return [item for item in path.rglob("*") if item.is_file()] if path.is_dir() else [path]


def run_ray(
    source: RowSource,
    reranker: RerankerSource | None,
    sink: Sink,
    *,
    batch_size: int,
    top_n: int | None,
    threshold: float | None,
    workers: int | None = None,
    address: str | None = None,
    num_gpus: float = 0.0,
    num_cpus: float = 1.0,
) -> int:
    """Rerank ``source`` into ``sink`` with ``workers`` Ray actors; returns the rows read.

    ``address`` is a running cluster's (``auto``, ``ray://head:10001``); without one, and
    without a Ray session already started in this process, Ray starts a local one.
    ``num_gpus`` per actor puts a neural reranker's model on a GPU of its own (or a share: 0.5
    puts two actors on one GPU).
    """
    ray = _ray()
    made = recipe(reranker)
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    context = ray.data.DataContext.get_current()
    dataset, lines, rows_in, block_bytes = _dataset(ray, source, batch_size)
    ranked = dataset.map_batches(
        RerankActor,
        fn_constructor_kwargs={
            "recipe": made,
            "top_n": top_n,
            "threshold": threshold,
            "lines": lines,
        },
        batch_size=batch_size,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(size=workers or _cluster_cpus(ray, num_cpus)),
        num_cpus=num_cpus,
        num_gpus=num_gpus or None,
    )
    # Ray Data's blocks hold up to 128 MiB and one block goes to one actor: blocks of about
    # one batch give every actor work from the first batches on.
    default_block_bytes = context.target_max_block_size
    if block_bytes:
        context.target_max_block_size = block_bytes
    try:
        for table in ranked.iter_batches(batch_size=None, batch_format="pyarrow"):
            sink.accept(_rows(table))
    finally:
        context.target_max_block_size = default_block_bytes
    return rows_in


def _cluster_cpus(ray: Any, per_actor: float) -> int:
    """One actor per ``per_actor`` CPUs of the cluster, at least one."""
    return max(1, int(ray.cluster_resources().get("CPU", 1) // per_actor))


def _rows(table: Any) -> list[Row]:
    return [
        {"query_id": row["query_id"], "error": row["error"]}
        if row["error"] is not None
        else {"query_id": row["query_id"], "results": row["results"]}
        for row in table.to_pylist()
    ]
