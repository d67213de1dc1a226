"""Quality of the BM25+NLP analysis on the nine public sets: the default reranker only.

A light companion to ``benchmarks/quality.py`` (which also runs fusion, the bi-encoder and the
ablations): nDCG@10 of the shared dense run's top 100 reranked by naive BM25Okapi and by
``BM25Reranker()`` with the language detected, and which languages the analysis chose for the
documents of each set, so that a detection change can be checked on every script at once.

Run: ``python benchmarks/analysis_quality.py [SET ...] [--max-queries N]``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from quality import EVAL, SETS  # benchmarks/ is on sys.path when a script here runs
from rerank_plus import BM25Reranker
from rerank_plus.evaluation import evaluate_rerankers, load_collection, select_queries
from rerank_plus.evaluation.baselines import NaiveBM25Reranker
from rerank_plus.evaluation.stages import first_stage


def document_languages(reranker: BM25Reranker, documents: list[str]) -> Counter[str]:
    """The analysis language of each document when the whole corpus is one candidate set."""
    _, languages = reranker.analyzer.languages_for("", documents)
    return Counter(languages)


def measure(name: str, max_queries: int | None) -> tuple[float, float, Counter[str], float]:
    collection = load_collection(EVAL / name)
    query_ids = select_queries(collection, max_queries)
    run = first_stage("shared", collection, EVAL / name, 100, query_ids)
    reranker = BM25Reranker()
    start = time.perf_counter()
    evaluation = evaluate_rerankers(
        collection,
        run,
        {"naive": NaiveBM25Reranker(), "rerank-plus": reranker},
        query_ids=query_ids,
    )
    seconds = time.perf_counter() - start
    scores = {r.name: r.metrics["nDCG@10"] for r in evaluation.reports}
    languages = document_languages(reranker, list(collection.documents.values()))
    return scores["naive"], scores["rerank-plus"], languages, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", default=SETS)
    parser.add_argument("--max-queries", type=int, default=None)
    arguments = parser.parse_args()
    print("| set | naive BM25Okapi | rerank-plus | document languages | seconds |")
    print("|---|---:|---:|---|---:|")
    for name in arguments.sets:
        naive, ours, languages, seconds = measure(name, arguments.max_queries)
        shown = ", ".join(f"{code} {count}" for code, count in languages.most_common(6))
        print(f"| {name} | {naive:.4f} | {ours:.4f} | {shown} | {seconds:.0f} |", flush=True)


if __name__ == "__main__":
    main()
