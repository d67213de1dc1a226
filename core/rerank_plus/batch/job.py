"""One batch job: read rows, rerank them with an engine, write results and errors."""

from __future__ import annotations

from pathlib import Path

from rerank_plus.batch.readers import open_source
from rerank_plus.batch.sink import BatchSummary, Sink
from rerank_plus.batch.source import RerankerSource

ENGINES = ("local", "ray")


def run_batch(
    input: str | Path,
    output: str | Path,
    *,
    reranker: RerankerSource | None = None,
    corpus: str | Path | None = None,
    queries: str | Path | None = None,
    engine: str = "local",
    batch_size: int = 64,
    top_n: int | None = None,
    threshold: float | None = None,
    errors: str | Path | None = None,
    strict: bool = False,
    workers: int | None = None,
    address: str | None = None,
    num_gpus: float = 0.0,
    progress: bool = False,
) -> BatchSummary:
    """Rerank every row of ``input`` into ``output`` (Parquet, JSONL or a TREC run).

    ``reranker`` is a configuration (dict, JSON/YAML file, profile name), a function that
    returns a reranker, or (local engine only) a reranker; BM25+NLP when left out. Bad rows go
    to ``errors`` (default ``OUTPUT.errors.jsonl``, created only when there is one) and the job
    goes on, unless ``strict``. ``workers``, ``address`` and ``num_gpus`` are the Ray engine's
    (see :func:`rerank_plus.batch.engines.ray_data.run_ray`).
    """
    if engine not in ENGINES:
        raise ValueError(f"Unknown engine {engine!r}; choose one of {', '.join(ENGINES)}.")
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}.")
    source = open_source(input, corpus=corpus, queries=queries)
    sink = Sink(output, errors, strict=strict)
    try:
        if engine == "local":
            from rerank_plus.batch.engines.local import run_local

            rows_in = run_local(
                source,
                reranker,
                sink,
                batch_size=batch_size,
                top_n=top_n,
                threshold=threshold,
                progress=progress,
            )
        else:
            from rerank_plus.batch.engines.ray_data import run_ray

            rows_in = run_ray(
                source,
                reranker,
                sink,
                batch_size=batch_size,
                top_n=top_n,
                threshold=threshold,
                workers=workers,
                address=address,
                num_gpus=num_gpus,
            )
    except BaseException:
        sink.close()
        raise
    return sink.finish(rows_in)
