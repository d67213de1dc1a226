"""The ``rerank-plus`` command line: one module per subcommand, registered here."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: Subcommand modules of this package; each defines ``register(subparsers)``.
COMMANDS: tuple[str, ...] = ("demo", "analyze", "rank", "eval", "tune", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rerank-plus",
        description="Rerank retrieval candidates with multilingual BM25+NLP or neural models.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"rerank_plus.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (ValueError, TypeError, OSError) as error:
        print(f"rerank-plus {args.command}: error: {error}", file=sys.stderr)
        return 2
