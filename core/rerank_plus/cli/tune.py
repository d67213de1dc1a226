"""``rerank-plus tune SET``: fit the fusion on your judged queries and write a profile."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rerank_plus.cli.eval import resolve_set


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="Fit the adaptive fusion on judged queries (k-fold cross-validated) -> a profile.",
        description=(
            "Reranks each judged query's candidates, fits the adaptive fusion's weights with "
            "k-fold cross-validation, prints the cross-validated nDCG@10 gain over the default "
            "fusion with a 95% interval and a paired t-test, and writes a profile that "
            "from_config and the adapters load. Needs at least 50 judged queries; a few "
            "hundred give intervals narrow enough to act on."
        ),
    )
    parser.add_argument("set", help="a BEIR folder, or a set name under ../shared/eval")
    parser.add_argument(
        "--run", dest="run_file", help="first-stage run: query-id, doc-id, rank, score (TSV)"
    )
    parser.add_argument("--rerankers", default="bm25", help="comma-separated: bm25, bm25-fit")
    parser.add_argument("--k", type=int, default=100, help="candidates reranked per query")
    parser.add_argument("--folds", type=int, default=5, help="cross-validation folds")
    parser.add_argument(
        "--first-stage-languages",
        default="en",
        help="comma-separated ISO 639-1 codes the first stage's model reads (default: en)",
    )
    parser.add_argument("--output", help="write the profile (YAML or JSON) here")
    parser.set_defaults(run=run)


#: Profile entries of the rerankers whose fusion ``tune`` can write (corpus statistics of
#: ``bm25-fit`` do not travel in a profile, so it is written as plain BM25).
PROVIDERS = {"bm25": {"provider": "bm25"}, "bm25-fit": {"provider": "bm25"}}


def run(args: argparse.Namespace) -> int:
    from rerank_plus.combine.adaptive import AdaptiveFusion
    from rerank_plus.evaluation import load_collection
    from rerank_plus.evaluation.stages import first_stage, reranker
    from rerank_plus.evaluation.tuning import JudgedQuery, tune_fusion

    specs = [spec for spec in args.rerankers.split(",") if spec]
    unknown = [spec for spec in specs if spec not in PROVIDERS]
    if unknown or not specs:
        raise ValueError(f"tune supports --rerankers {', '.join(PROVIDERS)}; got {unknown}.")
    folder = resolve_set(args.set)
    collection = load_collection(folder)
    judged = [q for q in collection.queries if collection.qrels.get(q)]
    spec = f"run:{args.run_file}" if args.run_file else "shared"
    candidates = first_stage(spec, collection, folder, args.k, judged)
    languages = [code.strip() for code in args.first_stage_languages.split(",") if code.strip()]
    results = []
    for name in specs:
        model = reranker(name, collection)
        queries = []
        for query_id in judged:
            ranked = candidates.get(query_id)
            if not ranked:
                continue
            text = collection.queries[query_id]
            documents = [collection.documents.get(doc, "") for doc, _ in ranked]
            grades = collection.qrels[query_id]
            scores = model.score_candidates(text, documents).raw
            queries.append(
                JudgedQuery(
                    query=text,
                    rerank=[float(v) for v in scores],
                    first_stage=[score for _, score in ranked],
                    grades=[max(0, grades.get(doc, 0)) for doc, _ in ranked],
                    all_grades=[max(0, g) for g in grades.values()],
                )
            )
        start = AdaptiveFusion(
            first_stage_languages=languages, detector=getattr(model, "analyzer", None)
        )
        tuning = tune_fusion(queries, start=start, folds=args.folds)
        results.append((name, tuning))
        low, high = tuning.interval
        print(
            f"{name}: {tuning.queries} judged queries, {tuning.folds}-fold CV nDCG@10 "
            f"default {tuning.default_ndcg:.4f} -> tuned {tuning.tuned_ndcg:.4f}, gain "
            f"{100 * tuning.gain:+.2f} points (95% CI {100 * low:+.2f} .. {100 * high:+.2f}, "
            f"paired t-test p = {tuning.p_value:.3g})"
        )
        verdict = "kept the default (no cross-validated gain)" if tuning.kept_default else "tuned"
        print(f"  {verdict}: {_fusion_options(tuning.parameters)}")
    if args.output:
        name, best = max(results, key=lambda item: item[1].tuned_ndcg)
        profile = {"reranker": PROVIDERS[name], "fusion": _fusion_options(best.parameters)}
        _write(Path(args.output), profile)
        print(f"wrote {args.output} ({name}); load it with from_config({args.output!r})")
    return 0


def _fusion_options(parameters: dict[str, Any]) -> dict[str, Any]:
    return {k: (sorted(v) if isinstance(v, (set, frozenset)) else v) for k, v in parameters.items()}


def _write(path: Path, profile: dict[str, Any]) -> None:
    if path.suffix.lower() == ".json":
        import json

        path.write_text(json.dumps(profile, indent=2) + "\n", encoding="utf-8")
        return
    try:
        import yaml
    except ImportError:
        print("error: writing YAML needs PyYAML (pip install 'rerank-plus[yaml]')", file=sys.stderr)
        raise
    path.write_text(yaml.safe_dump(profile, sort_keys=False), encoding="utf-8")
