"""``rerank-plus rank --query Q [FILE|-]``: rerank JSONL or plain-text candidates, print JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

from rerank_plus.cli.arguments import language_code, positive_int, unit_interval
from rerank_plus.cli.kind_arguments import add_kind_arguments, reranker_from_arguments

if TYPE_CHECKING:
    from rerank_plus.reranker import Reranker


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "rank",
        help="Rerank candidates read from a file or stdin (JSONL with a 'text' field, or lines).",
    )
    parser.add_argument("input", nargs="?", default="-", help="JSONL or text file; - for stdin")
    parser.add_argument("--query", "-q", required=True, help="the query to rank against")
    parser.add_argument("--top-n", type=positive_int, default=None, help="keep at most N results")
    parser.add_argument(
        "--threshold",
        type=unit_interval,
        default=None,
        help="drop results with relevance_score below T",
    )
    parser.add_argument(
        "--lang", type=language_code, help="force the language of the query and documents"
    )
    parser.add_argument("--explain", action="store_true", help="say why each result is where it is")
    parser.add_argument(
        "--config",
        help="a ready profile (synthesis, detail, recent) or a JSON/YAML pipeline file; "
        "records' numeric 'score' is fused as the first-stage score, 'metadata' feeds boosts",
    )
    add_kind_arguments(parser)
    parser.set_defaults(run=run)


def read_candidates(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Each non-blank line is a JSON object with a "text" field, or plain text.

    A line that starts with "{" must be valid JSON; the error names its line number.
    """
    candidates: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("{"):
            candidates.append({"text": stripped})
            continue
        try:
            record = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise ValueError(f"line {number} is not valid JSON: {error.msg}.") from error
        if not isinstance(record.get("text"), str):
            raise ValueError(f'line {number} has no string "text" field.')
        candidates.append(record)
    return candidates


def _open(path: str) -> TextIO:
    return sys.stdin if path == "-" else open(path, encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    with _open(args.input) as handle:
        candidates = read_candidates(handle)
    options: dict[str, Any] = {}
    reranker: Reranker
    if args.config:
        from rerank_plus import from_config

        if args.reranker or args.option:
            raise ValueError("--config names its own reranker: put --reranker and --option in it.")
        reranker = from_config(args.config)
        scores = [c.get("score") for c in candidates]
        if candidates and all(isinstance(v, (int, float)) for v in scores):
            options["first_stage_scores"] = scores
        if any("metadata" in c for c in candidates):
            options["metadata"] = [c.get("metadata") or {} for c in candidates]
    else:
        reranker = reranker_from_arguments(args)
    results = reranker.rank(
        args.query,
        [c["text"] for c in candidates],
        top_n=args.top_n,
        threshold=args.threshold,
        explain=args.explain,
        **options,
    )
    output = [{**r.to_dict(), "document": candidates[r.index]} for r in results]
    print(json.dumps({"query": args.query, "results": output}, ensure_ascii=False, indent=2))
    return 0
