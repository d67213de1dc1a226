"""The ``rerank-plus`` command line: one module per subcommand, registered here."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from rerank_plus.errors import RerankPlusError

#: Subcommand modules of this package; each defines ``register(subparsers)``.
COMMANDS: tuple[str, ...] = (
    "demo",
    "analyze",
    "rank",
    "eval",
    "tune",
    "serve",
    "batch",
    "memory",
    "finetune",
)


class _Parser(argparse.ArgumentParser):
    """Reports a bad argument in one line (``--help`` shows the usage), exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
    # Project errors (a missing extra, a store that cannot be opened...) say what to do.
    except (ValueError, TypeError, OSError, RerankPlusError) as error:
        print(f"rerank-plus {args.command}: error: {error}", file=sys.stderr)
        return 2
