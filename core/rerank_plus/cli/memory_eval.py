"""``rerank-plus memory eval``: the memory policy and the baselines on QMSum meetings, on dated
chats (per question category), or on a passage collection read as one conversation.

Registered by the ``memory`` command group (:mod:`rerank_plus.cli.memory`) through
:func:`add_eval_parser`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rerank_plus.cli.arguments import positive_int

DEFAULT_DATA = Path("..") / "shared" / "eval" / "qmsum"


def budgets(text: str) -> tuple[int, ...]:
    """``"700,2000,4000"`` -> (700, 2000, 4000)."""
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"budgets must be comma-separated positive ints like 700,2000,4000, got {text!r}"
        ) from None
    if not values or any(value < 1 for value in values):
        raise argparse.ArgumentTypeError(
            f"budgets must be comma-separated positive ints like 700,2000,4000, got {text!r}"
        )
    return values


def method_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def add_eval_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``eval`` to the ``memory`` command group's subparsers."""
    parser = subparsers.add_parser(
        "eval",
        help="Measure the memory policy and flat baselines on meetings or chats at equal words.",
        description=(
            "For each query and budget the policy answers with max_tokens=BUDGET; every other "
            "method gets the words of the policy's context (headers included). Without the "
            "policy, BUDGET is read as words. Prints one table per budget; with --output, "
            "writes results.json, tables.md and one PNG plot per metric. On chats (dated "
            "messages, questions with the ids of the messages that answer them and a category) "
            "the tables also give the metrics per category and the share of recalled answers "
            "whose date the context gives (dated)."
        ),
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="the QMSum folder holding train/ and test/ (default: ../shared/eval/qmsum); a chat "
        "file or a folder of them (JSON: messages with id, speaker, time, text; questions with "
        "question, answer_ids, category; or LoCoMo's shape); or a BEIR passage collection "
        "(corpus.jsonl, queries.jsonl, qrels.tsv) read as one conversation: each passage's "
        "sentences are messages, each query a specific question",
    )
    parser.add_argument(
        "--budget",
        type=budgets,
        default=(700, 2000, 4000),
        help="comma-separated max_tokens for the policy (default: 700,2000,4000)",
    )
    parser.add_argument("--split", default="test", help="train or test (default: test)")
    parser.add_argument(
        "--limit",
        type=positive_int,
        help="the first N meetings or chats only (of a passage collection, its first N queries)",
    )
    parser.add_argument(
        "--methods",
        type=method_names,
        help="comma-separated methods (default: all available; see --list-methods)",
    )
    parser.add_argument("--list-methods", action="store_true", help="print the methods and exit")
    parser.add_argument(
        "--output",
        type=Path,
        help="write results.json, tables.md and the plots here",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep embeddings in this folder between runs (default: OUTPUT/embeddings)",
    )
    parser.add_argument(
        "--embedder",
        help="a sentence-transformers model name or folder, or minilm (the packaged "
        "all-MiniLM-L6-v2, the default)",
    )
    parser.add_argument(
        "--final-reranker",
        help="a cross-encoder model name or folder: the policy's final stage, which also picks "
        "the region a precise question's drill-down reads (default: none)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="a memory profile (JSON or YAML) for the policy (default: the ready-made one)",
    )
    parser.add_argument(
        "--lexical-only",
        action="store_true",
        help="no embedding model: the memory built and the policy run without one, against "
        "the methods that need none (bm25-windows, bm25-turns, even-*, lead, the ceilings)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from rerank_plus.evaluation.memory import methods as registry
    from rerank_plus.evaluation.memory.suite import default_methods, run_suite

    if args.list_methods:
        ready = set(default_methods())
        for name in registry.available():
            print(name if name in ready else f"{name} (needs build_memory and MemoryRetriever)")
        return 0
    from rerank_plus.cli.embedders import embedder_model, quiet_model_loading

    quiet_model_loading()  # the default model too: no progress bar on every run
    embedder = None
    model = embedder_model(args.embedder)
    if model is not None:
        from rerank_plus.scoring.bi_encoder import BiEncoderReranker

        embedder = BiEncoderReranker(model)
    retriever_options: dict[str, object] = {}
    if args.profile:
        from rerank_plus.memory.policy import memory_profile

        retriever_options["profile"] = memory_profile(args.profile)  # a bad one fails first
    if args.final_reranker:
        from rerank_plus.scoring.cross_encoder import CrossEncoderReranker

        retriever_options["final_reranker"] = CrossEncoderReranker(args.final_reranker)
    outcome = run_suite(
        args.data,
        budgets=args.budget,
        split=args.split,
        limit=args.limit,
        methods=args.methods,
        output=args.output,
        cache=args.cache,
        embedder=embedder,
        progress=None if args.quiet else lambda line: print(line, file=sys.stderr),
        lexical_only=args.lexical_only,
        retriever_options=retriever_options,
    )
    print(outcome.tables)
    if outcome.files:
        print("wrote " + ", ".join(str(path) for path in outcome.files), file=sys.stderr)
    return 0
