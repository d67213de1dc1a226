"""The ``--reranker KIND`` and ``--option NAME=VALUE`` arguments, read from the registered kinds.

Every kind registered in :mod:`rerank_plus.compose.presets` is a choice, its options (typed,
with defaults and help) are listed in ``--help``, and values are parsed with their types, so
the command line needs no edit when a kind is added.
"""

from __future__ import annotations

import argparse
from typing import Any

from rerank_plus.compose.presets import KINDS
from rerank_plus.reranker import Reranker


def add_kind_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reranker",
        choices=list(KINDS),
        help="the reranker kind (default bm25); its options are listed below",
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the reranker kind, repeatable (e.g. -o k1=1.2)",
    )
    parser.epilog = "reranker kinds and their options (-o NAME=VALUE):\n" + "\n".join(
        f"  {kind.name}\n"
        + "\n".join(f"    {o.name} ({o.type_name}, {o.default!r}): {o.help}" for o in kind.options)
        for kind in KINDS.values()
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def reranker_from_arguments(args: argparse.Namespace) -> Reranker:
    """The reranker ``--reranker``, ``--option`` and ``--lang`` describe."""
    kind = KINDS[args.reranker or "bm25"]
    options: dict[str, Any] = {}
    for item in args.option:
        name, equals, text = item.partition("=")
        if not equals:
            raise ValueError(f"--option {item!r}: give NAME=VALUE, e.g. -o k1=1.2.")
        options[name] = kind.option(name).parse(text)
    if getattr(args, "lang", None):
        if "language" not in kind.option_names:
            raise ValueError(
                f"--lang needs a reranker with a language option; {kind.name} has none."
            )
        options["language"] = args.lang
    return kind.build(options)
