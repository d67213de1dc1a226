"""Quality of rerank-plus on the public collections, against the dense run and naive BM25.

For each set in ../shared/eval: the shared dense run (all-MiniLM-L6-v2, top 100) alone, then
reranked by naive BM25Okapi on lowercase words (the baseline), by rerank-plus BM25+NLP with the
language detected, with corpus statistics (fit), and the ablations that explain the defaults.

Run: ``python benchmarks/quality.py`` (writes the "quality" section of docs/benchmarks.md).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from _report import write_section  # benchmarks/ is on sys.path when a script here runs
from rerank_plus import Analyzer, BM25Reranker
from rerank_plus.evaluation import evaluate_rerankers, load_collection
from rerank_plus.evaluation.baselines import NaiveBM25Reranker
from rerank_plus.evaluation.stages import first_stage

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"
SETS = ("xquad-en", "xquad-de", "xquad-es", "piaf-fr", "cranfield")


def rerankers(corpus: list[str]) -> dict[str, object]:
    return {
        "+ naive BM25Okapi (baseline)": NaiveBM25Reranker(),
        "+ rerank-plus BM25+NLP (default)": BM25Reranker(),
        "+ rerank-plus, corpus statistics (fit)": BM25Reranker().fit(corpus),
        "ablation: no lemmas": BM25Reranker(analyzer=Analyzer(lemmatize=False)),
        "ablation: no stop-word removal": BM25Reranker(analyzer=Analyzer(stopwords="none")),
        "ablation: stop words by surface form only": BM25Reranker(
            analyzer=Analyzer(stopwords="surface")
        ),
        "ablation: stop words by lemma only": BM25Reranker(analyzer=Analyzer(stopwords="lemma")),
    }


def main() -> None:
    if not EVAL.is_dir():
        sys.exit(f"benchmark needs the shared evaluation collections at {EVAL}")
    names = None
    table: dict[str, dict[str, float]] = {}
    seconds: dict[str, float] = {}
    for name in SETS:
        collection = load_collection(EVAL / name)
        run = first_stage("shared", collection, EVAL / name, 100)
        chosen = rerankers(list(collection.documents.values()))
        start = time.perf_counter()
        evaluation = evaluate_rerankers(collection, run, chosen, first_stage_name="dense")
        report = {r.name: r for r in evaluation.reports}
        seconds[name] = (
            sum(
                r.latency_p50_ms
                for r in evaluation.reports
                if r.name == "+ rerank-plus BM25+NLP (default)"
            )
            * len(evaluation.query_ids)
            / 1000
        )
        names = ["dense (all-MiniLM-L6-v2, shared run)", *chosen]
        table[name] = {
            "dense (all-MiniLM-L6-v2, shared run)": report["dense"].metrics["nDCG@10"],
            **{n: report[n].metrics["nDCG@10"] for n in chosen},
        }
        print(
            name,
            {k: round(v, 3) for k, v in table[name].items()},
            f"{time.perf_counter() - start:.0f}s",
            flush=True,
        )
    lines = [
        "nDCG@10 of the shared dense run (top 100) reranked; languages detected, not given.",
        "",
        "| configuration | " + " | ".join(SETS) + " |",
        "|---|" + "---:|" * len(SETS),
    ]
    for row in names or []:
        lines.append(f"| {row} | " + " | ".join(f"{table[s][row]:.3f}" for s in SETS) + " |")
    lines += [
        "",
        "Approximate time to rerank every query of a set with the default BM25+NLP reranker "
        "(median latency x queries): " + ", ".join(f"{s} {seconds[s]:.1f} s" for s in SETS) + ".",
        "",
        "Command: `python benchmarks/quality.py`.",
    ]
    body = "\n".join(lines)
    print(body)
    write_section("quality", "## Reranking quality on the public sets\n\n" + body)


if __name__ == "__main__":
    main()
