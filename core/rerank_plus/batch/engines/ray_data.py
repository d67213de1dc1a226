"""The Ray Data engine: the same rows, reranked by a pool of actors, on a laptop or a cluster.

Splits of the input (Parquet row groups, byte ranges of JSONL lines; see
:mod:`rerank_plus.batch.splits`) -> ``from_items`` -> ``map_batches`` with
:class:`RerankActor`, which builds the reranker once per actor (a model is loaded ``workers``
times, not once per batch) and reads its splits itself -> Arrow result blocks streamed back
to this process, which writes them as they arrive (to Parquet as they are, with no Python
conversion). Ray retries the splits of an actor that dies (actors restart, tasks retry);
:class:`rerank_plus.batch.sink.Sink` writes each query once and checks that every row came
back. (The module is not named ``ray.py``: ``import ray`` must never mean it.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rerank_plus.batch.readers import RowSource, pyarrow_modules
from rerank_plus.batch.rows import rerank_rows
from rerank_plus.batch.sink import Sink
from rerank_plus.batch.source import Recipe, RerankerSource, build, recipe
from rerank_plus.batch.splits import plan_splits, read_split
from rerank_plus.errors import MissingExtraError


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
    """Builds the reranker once (in the actor's process), then reranks the splits it is given,
    one output table per batch of rows."""

    def __init__(
        self, recipe: Recipe, top_n: int | None, threshold: float | None, batch_size: int
    ) -> None:
        self.reranker = build(recipe)
        self.top_n, self.threshold, self.batch_size = top_n, threshold, batch_size
        self.pa, _ = pyarrow_modules()
        self.schema = output_schema()

    def __call__(self, splits: Any) -> Iterator[Any]:
        for split in splits.to_pylist():
            for rows in read_split(split, self.batch_size):
                out = rerank_rows(self.reranker, rows, top_n=self.top_n, threshold=self.threshold)
                columns = {
                    "query_id": [row["query_id"] for row in out],
                    "results": [row.get("results") for row in out],
                    "error": [row.get("error") for row in out],
                }
                yield self.pa.Table.from_pydict(columns, schema=self.schema)


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
    without Ray already started in this process, Ray starts a local one. Input
    paths must be readable by every node (a shared filesystem). ``num_gpus`` per actor puts a
    neural reranker's model on a GPU of its own (or a share: 0.5 puts two actors on one GPU).
    """
    ray = _ray()
    made = recipe(reranker)
    splits, rows_in = plan_splits(source, batch_size)
    if not splits:
        return 0
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    ranked = ray.data.from_items(splits, override_num_blocks=len(splits)).map_batches(
        RerankActor,
        fn_constructor_kwargs={
            "recipe": made,
            "top_n": top_n,
            "threshold": threshold,
            "batch_size": batch_size,
        },
        batch_size=1,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(size=workers or _cluster_cpus(ray, num_cpus)),
        num_cpus=num_cpus,
        num_gpus=num_gpus or None,
    )
    for table in ranked.iter_batches(batch_size=None, batch_format="pyarrow"):
        sink.accept_table(table)
    return rows_in


def _cluster_cpus(ray: Any, per_actor: float) -> int:
    """One actor per ``per_actor`` CPUs of the cluster, at least one."""
    return max(1, int(ray.cluster_resources().get("CPU", 1) // per_actor))
