"""``rerank-plus eval SET``: measure rerankers on a BEIR-layout collection."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rerank_plus.cli.arguments import existing_file, first_stage_spec, positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="Evaluate rerankers on a BEIR-layout collection (nDCG@10, MRR@10, Recall@k).",
        description=(
            "SET is a BEIR folder (corpus.jsonl, queries.jsonl, qrels.tsv), or the name of a "
            "set under ../shared/eval. Candidates come from the set's shared run "
            "(runs/dense-minilm-top100.tsv.gz) unless --run or --first-stage says otherwise."
        ),
    )
    parser.add_argument("set", help="a BEIR folder, or a set name under ../shared/eval")
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--run",
        dest="run_file",
        type=existing_file,
        help="a run file: query-id, doc-id, rank, score (TSV, .gz ok)",
    )
    source.add_argument(
        "--first-stage",
        type=first_stage_spec,
        help="dense:MODEL (dense:minilm works offline) or bm25 over the corpus",
    )
    parser.add_argument("--k", type=positive_int, default=100, help="candidates reranked per query")
    parser.add_argument(
        "--rerankers",
        default="bm25-naive,bm25",
        help="comma-separated: bm25, bm25-fit, bm25-naive, bi-encoder[:M], cross-encoder[:M]",
    )
    parser.add_argument("--top-n", type=positive_int, default=10, help="results handed to the LLM")
    parser.add_argument(
        "--max-queries",
        type=positive_int,
        help="evaluate a fixed random sample of N judged queries (the same N gives the same ones)",
    )
    parser.add_argument("--json", dest="json_path", help="write the results as JSON here")
    parser.add_argument("--plot", help="draw Recall@k and nDCG@k curves (k = 1..K) into this PNG")
    parser.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="ray: rerank as a batch job on Ray (see rerank-plus batch); no latency figures",
    )
    parser.add_argument("--address", help="ray: a running cluster (auto, ray://HEAD:10001)")
    parser.add_argument("--workers", type=positive_int, help="ray: actors, one reranker each")
    parser.set_defaults(run=run)


def resolve_set(name: str) -> Path:
    folder = Path(name)
    if folder.is_dir():
        return folder
    shared = Path("..") / "shared" / "eval" / name
    if shared.is_dir():
        return shared
    raise FileNotFoundError(f"{name!r} is neither a folder nor a set under ../shared/eval.")


def run(args: argparse.Namespace) -> int:
    from rerank_plus.evaluation import evaluate_rerankers, load_collection, select_queries
    from rerank_plus.evaluation.report import plot, to_table, write_json
    from rerank_plus.evaluation.stages import first_stage, reranker

    folder = resolve_set(args.set)
    collection = load_collection(folder)
    for problem in collection.problems:
        print(f"warning: {problem}", file=sys.stderr)
    spec = f"run:{args.run_file}" if args.run_file else (args.first_stage or "shared")
    query_ids = select_queries(collection, args.max_queries)
    names = [name for name in args.rerankers.split(",") if name]
    rerankers, ranked_by = {}, None
    if args.engine == "local":
        rerankers = {name: reranker(name, collection) for name in names}
    else:
        from rerank_plus.evaluation.stages import RERANKERS

        unknown = [name for name in names if name.partition(":")[0] not in RERANKERS]
        if unknown:
            raise ValueError(
                f"Unknown reranker {unknown[0]!r}; choose from {', '.join(RERANKERS)}."
            )
    candidates = first_stage(spec, collection, folder, args.k, query_ids)
    if args.engine == "ray":
        from rerank_plus.batch.evaluation import rank_with_batch

        ranked_by = rank_with_batch(
            collection,
            folder,
            candidates,
            names,
            query_ids=query_ids,
            k=args.k,
            workers=args.workers,
            address=args.address,
        )
    evaluation = evaluate_rerankers(
        collection,
        candidates,
        rerankers,
        query_ids=query_ids,
        first_stage_name=spec,
        k=args.k,
        top_n=args.top_n,
        progress=True,
        ranked_by=ranked_by,
    )
    if evaluation.queries_without_candidates:
        missing = evaluation.queries_without_candidates
        print(
            f"warning: {len(missing)} judged queries have no candidates in {spec} and count as 0 "
            f"(first: {missing[0]!r})",
            file=sys.stderr,
        )
    print(to_table(evaluation))
    if args.json_path:
        write_json(evaluation, args.json_path)
    if args.plot:
        plot(evaluation, args.plot)
    return 0
