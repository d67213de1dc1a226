"""``rerank-plus batch INPUT --output OUT``: rerank a whole run, here or on a Ray cluster."""

from __future__ import annotations

import argparse
import sys

from rerank_plus.cli.arguments import positive_int, unit_interval


def non_negative_float(text: str) -> float:
    """``--gpus-per-worker``: 0 (CPU), a share of a GPU (0.5), or whole GPUs."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0.0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0, got {text!r}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "batch",
        help="Rerank a whole run (JSONL, Parquet, or a run file with its BEIR corpus), "
        "in this process or on Ray.",
        description=(
            "INPUT is JSONL or Parquet with one query per row ({query_id, query, candidates: "
            "[{doc_id, text, score?, metadata?}]}), or a TREC / tab-separated run with --corpus "
            "and --queries. OUT is .parquet, .jsonl or .trec (a TREC run), by its suffix. Bad "
            "rows go to OUT.errors.jsonl and the job goes on, unless --strict."
        ),
    )
    parser.add_argument("input", help="JSONL, Parquet (file or folder), or a run file")
    parser.add_argument("--output", required=True, help="results: .parquet, .jsonl or .trec")
    parser.add_argument("--corpus", help="with a run: a BEIR folder or its corpus.jsonl")
    parser.add_argument("--queries", help="with a run: the queries.jsonl")
    parser.add_argument(
        "--config",
        help="a ready profile (synthesis, detail, recent) or a JSON/YAML pipeline file "
        "(default: BM25+NLP); candidates' 'score' is the first-stage score",
    )
    parser.add_argument("--engine", choices=("local", "ray"), default="local")
    parser.add_argument(
        "--address", help="ray: a running cluster (auto, ray://HEAD:10001); default: start one"
    )
    parser.add_argument(
        "--workers", type=positive_int, help="ray: actors, each with its own reranker"
    )
    parser.add_argument(
        "--gpus-per-worker",
        type=non_negative_float,
        default=0.0,
        help="ray: GPUs per actor for neural rerankers (0.5 puts two actors on a GPU)",
    )
    parser.add_argument(
        "--batch-size", type=positive_int, default=64, help="queries per reranker call"
    )
    parser.add_argument("--top-n", type=positive_int, help="keep at most N results per query")
    parser.add_argument(
        "--threshold", type=unit_interval, help="drop results with relevance_score below T"
    )
    parser.add_argument("--errors", help="where bad rows go (default: OUT.errors.jsonl)")
    parser.add_argument("--strict", action="store_true", help="stop at the first bad row")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rerank_plus.batch import LostRowsError, run_batch

    if args.engine == "local":
        given = [f"--{name}" for name in ("address", "workers") if getattr(args, name)]
        given += ["--gpus-per-worker"] if args.gpus_per_worker else []
        if given:
            raise ValueError(f"{', '.join(given)} need --engine ray.")
    try:
        summary = run_batch(
            args.input,
            args.output,
            reranker=args.config,
            corpus=args.corpus,
            queries=args.queries,
            engine=args.engine,
            batch_size=args.batch_size,
            top_n=args.top_n,
            threshold=args.threshold,
            errors=args.errors,
            strict=args.strict,
            workers=args.workers,
            address=args.address,
            num_gpus=args.gpus_per_worker,
            progress=args.engine == "local",
        )
    except LostRowsError as error:
        print(f"rerank-plus batch: error: {error}", file=sys.stderr)
        return 1
    print(f"{summary.written} of {summary.rows} queries reranked into {summary.output}")
    if summary.errors:
        print(
            f"warning: {summary.errors} bad rows, each with its query id, in {summary.errors_path}",
            file=sys.stderr,
        )
    return 0
