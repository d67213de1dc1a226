"""``rerank-plus eval --engine ray``: the evaluation's reranking done as a batch job.

The candidates of every evaluated query become batch rows; each actor builds the reranker
from its spec and the collection (corpus statistics included), so the rankings, and the
metrics computed from them, are the ones the in-process evaluation gives.
"""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rerank_plus.batch.job import run_batch
from rerank_plus.evaluation.beir import Collection, load_collection
from rerank_plus.reranker import Reranker


def collection_reranker(spec: str, folder: str) -> Reranker:
    """The reranker ``eval`` names ``spec``, built for the collection in ``folder``."""
    from rerank_plus.evaluation.stages import reranker

    return reranker(spec, load_collection(folder))


def rank_with_batch(
    collection: Collection,
    folder: Path,
    candidates: Mapping[str, Sequence[tuple[str, float]]],
    specs: Sequence[str],
    *,
    query_ids: Sequence[str],
    k: int,
    engine: str = "ray",
    **options: Any,
) -> dict[str, dict[str, list[str]]]:
    """Ranked doc ids per query for each reranker spec, reranked by a batch ``engine``.

    ``options`` go to :func:`rerank_plus.batch.run_batch` (workers, address, batch_size).
    """
    with tempfile.TemporaryDirectory(prefix="rerank-plus-eval-") as scratch:
        rows = Path(scratch) / "rows.jsonl"
        with rows.open("w", encoding="utf-8") as handle:
            for query_id in query_ids:
                ranked = candidates.get(query_id, [])[:k]
                if ranked:
                    row = {
                        "query_id": query_id,
                        "query": collection.queries[query_id],
                        "candidates": [
                            {"doc_id": doc, "text": collection.documents[doc], "score": score}
                            for doc, score in ranked
                        ],
                    }
                    handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        rankings = {}
        for spec in specs:
            output = Path(scratch) / "ranked.jsonl"
            factory = functools.partial(collection_reranker, spec, str(folder.resolve()))
            run_batch(rows, output, reranker=factory, engine=engine, strict=True, **options)
            with output.open(encoding="utf-8") as handle:
                results = [json.loads(line) for line in handle]
            rankings[spec] = {
                row["query_id"]: [result["doc_id"] for result in row["results"]] for row in results
            }
        return rankings
