"""Batch rows from a real collection, and one local Ray shared by every Ray test."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

#: Queries and candidates per query taken from xquad-en's shared dense run: enough to fill
#: several batches on two workers, small enough for a 2-core machine.
QUERIES, CANDIDATES = 24, 30


@pytest.fixture(scope="session")
def xquad_run(eval_root, tmp_path_factory) -> Path:
    """The first QUERIES queries of xquad-en's dense run, top CANDIDATES each (TSV)."""
    source = eval_root / "xquad-en" / "runs" / "dense-minilm-top100.tsv.gz"
    kept: dict[str, int] = {}
    lines = []
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        for line in handle:
            query = line.split("\t", 1)[0]
            if query not in kept and len(kept) == QUERIES:
                break
            kept[query] = kept.get(query, 0) + 1
            if kept[query] <= CANDIDATES:
                lines.append(line)
    path = tmp_path_factory.mktemp("run") / "run.tsv"
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def xquad_rows(eval_root, xquad_run) -> list[dict]:
    """Batch rows of the real queries and passages of ``xquad_run``."""
    from rerank_plus.batch.readers import read_run_rows

    folder = eval_root / "xquad-en"
    rows = list(read_run_rows(xquad_run, folder / "corpus.jsonl", folder / "queries.jsonl"))
    assert len(rows) == QUERIES and all(len(r["candidates"]) == CANDIDATES for r in rows)
    return rows


@pytest.fixture(scope="session")
def local_ray():
    """A local Ray (2 CPUs, no dashboard), started once for every Ray test."""
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.data")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
