"""Quality of rerank-plus on the public collections, against the dense run and naive BM25.

For each set in ../shared/eval: the shared dense run (all-MiniLM-L6-v2, top 100) alone, then
reranked by naive BM25Okapi on lowercase words (the baseline), by rerank-plus BM25+NLP with the
language detected, with corpus statistics (fit), fused with the dense scores, by the bi-encoder,
and the ablations that explain the defaults. Then the wall time of a full ``rerank-plus eval``
of each set with the default BM25+NLP reranker, start-up included.

Run: ``python benchmarks/quality.py`` (writes the "quality" section of docs/benchmarks.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from _report import write_section  # benchmarks/ is on sys.path when a script here runs
from rerank_plus import Analyzer, BM25Reranker, Reranker
from rerank_plus.evaluation import Collection, evaluate_rerankers, load_collection, select_queries
from rerank_plus.evaluation.baselines import NaiveBM25Reranker
from rerank_plus.evaluation.stages import first_stage, reranker

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"
SETS = (
    "xquad-en",
    "xquad-de",
    "xquad-es",
    "piaf-fr",
    "cranfield",
    "xquad-el",
    "xquad-ar",
    "xquad-zh",
    "xquad-th",
)
DENSE = "dense (all-MiniLM-L6-v2, shared run)"


def rerankers(collection: Collection) -> dict[str, Reranker]:
    corpus = list(collection.documents.values())
    return {
        "+ naive BM25Okapi (baseline)": NaiveBM25Reranker(),
        "+ rerank-plus BM25+NLP (default)": BM25Reranker(),
        "+ rerank-plus, corpus statistics (fit)": BM25Reranker().fit(corpus),
        "+ fusion with dense: RRF k=60, BM25 fit (`fusion:rrf`)": reranker(
            "fusion:rrf", collection
        ),
        "+ fusion with dense: min-max alpha 0.65, BM25 fit (`fusion:weighted=0.65`)": reranker(
            "fusion:weighted=0.65", collection
        ),
        "+ bi-encoder all-MiniLM-L6-v2 (the first stage's own model)": reranker(
            "bi-encoder:minilm", collection
        ),
        "ablation: no lemmas": BM25Reranker(analyzer=Analyzer(lemmatize=False)),
        "ablation: no stop-word removal": BM25Reranker(analyzer=Analyzer(stopwords="none")),
        "ablation: stop words by surface form only": BM25Reranker(
            analyzer=Analyzer(stopwords="surface")
        ),
        "ablation: stop words by lemma only": BM25Reranker(analyzer=Analyzer(stopwords="lemma")),
    }


def quality(name: str) -> dict[str, float]:
    """nDCG@10 per configuration on one set, every judged query."""
    collection = load_collection(EVAL / name)
    query_ids = select_queries(collection)
    run = first_stage("shared", collection, EVAL / name, 100, query_ids)
    start = time.perf_counter()
    evaluation = evaluate_rerankers(collection, run, rerankers(collection), first_stage_name=DENSE)
    row = {r.name: r.metrics["nDCG@10"] for r in evaluation.reports}
    print(name, {k: round(v, 3) for k, v in row.items()}, f"{time.perf_counter() - start:.0f}s")
    return row


def full_eval_seconds(name: str) -> float:
    """Wall time of ``rerank-plus eval SET --rerankers bm25``, as a user runs it."""
    command = [sys.executable, "-m", "rerank_plus.cli", "eval", str(EVAL / name)]
    start = time.perf_counter()
    subprocess.run([*command, "--rerankers", "bm25"], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    if not EVAL.is_dir():
        sys.exit(f"benchmark needs the shared evaluation collections at {EVAL}")
    table = {name: quality(name) for name in SETS}
    load = os.getloadavg()[0]
    seconds = {name: full_eval_seconds(name) for name in SETS}
    load = max(load, os.getloadavg()[0])
    lines = [
        "nDCG@10 of the shared dense run (top 100) reranked; languages detected, not given.",
        "",
        "| configuration | " + " | ".join(SETS) + " |",
        "|---|" + "---:|" * len(SETS),
    ]
    for row in table[SETS[0]]:
        lines.append(f"| {row} | " + " | ".join(f"{table[s][row]:.3f}" for s in SETS) + " |")
    beat_dense = [
        row for row, value in table["cranfield"].items() if value > table["cranfield"][DENSE]
    ]
    lines += [
        "",
        "Above the dense stage on cranfield (where naive BM25 loses to it): "
        + "; ".join(f"{row.lstrip('+ ')} {table['cranfield'][row]:.3f}" for row in beat_dense)
        + ".",
        "",
        "Wall time of a full `rerank-plus eval SET --rerankers bm25` (every judged query, the "
        "shared run's top 100, start-up included; target: under a minute): "
        + ", ".join(f"{s} {seconds[s]:.0f} s" for s in SETS)
        + f". Load average while measuring: {load:.1f}.",
        "",
        "Command: `python benchmarks/quality.py`.",
    ]
    body = "\n".join(lines)
    print(body)
    write_section("quality", "## Reranking quality on the public sets\n\n" + body)


if __name__ == "__main__":
    main()
