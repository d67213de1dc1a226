"""``rerank-plus memory add`` and ``memory namespaces``: messages into a memory store, and the
namespaces it holds (``memory query --store`` reads one back, :mod:`rerank_plus.cli.memory_query`).

A store is named by its URL (``sqlite:///path/memory.db``, ``postgresql://...``); each command
opens it, does its work and closes it. ``add`` brings the summaries up to date before it returns,
so the next query finds them built (a long-running writer would leave that to the store's
background thread).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rerank_plus.cli.arguments import existing_file
from rerank_plus.cli.embedders import BUILD_HELP, embedder_model
from rerank_plus.cli.message_files import read_messages


def add_store_parsers(commands: argparse._SubParsersAction) -> None:
    """``memory add`` and ``memory namespaces``."""
    add = commands.add_parser(
        "add",
        help="Add messages to a namespace of a memory store.",
        description="MESSAGES is a .jsonl file (one message per line: a text, or an object with "
        "text or content, speaker, time, tags, entities, id) or a .json list of messages, as "
        "memory build reads them; they are added after the namespace's messages.",
    )
    add.add_argument("messages", type=existing_file, help="the messages (.jsonl or .json)")
    add_store_arguments(add, required=True)
    add.add_argument(
        "--embedder",
        help=f"{BUILD_HELP}; use the same model for every add and query of a namespace",
    )
    add.set_defaults(run=run_add)
    listing = commands.add_parser(
        "namespaces",
        help="List the namespaces a memory store holds.",
    )
    listing.add_argument("--store", required=True, metavar="URL", help="the memory store")
    listing.add_argument(
        "--prefix", default="", help="only the namespaces that start with this (e.g. ana/)"
    )
    listing.set_defaults(run=run_namespaces)


def add_store_arguments(parser: argparse.ArgumentParser, *, required: bool) -> None:
    """``--store URL`` and ``--namespace NS``: where a store keeps the memory."""
    parser.add_argument(
        "--store",
        required=required,
        metavar="URL",
        help="a memory store: sqlite:///path/memory.db (one file, created on first use) or "
        "postgresql://user:password@host/db (see docs/memory.md)",
    )
    parser.add_argument(
        "--namespace",
        required=required,
        metavar="NS",
        help="the store's namespace: any name you choose, e.g. a user or user/session",
    )


@contextlib.contextmanager
def opened_store(args: argparse.Namespace, **options: Any) -> Iterator[Any]:
    """The store at ``args.store`` with ``args.embedder`` (when the command has one), closed
    when the command is done; summaries are built on a flush or the next read, in this
    process, not by a background thread that the command's exit would cut short."""
    from rerank_plus.memory.store import open_store

    embedder = embedder_model(getattr(args, "embedder", None))
    with open_store(args.store, embedder=embedder, background=False, **options) as store:
        yield store


def run_add(args: argparse.Namespace) -> int:
    messages = read_messages(args.messages)
    with opened_store(args) as store:
        ids = store.add(args.namespace, messages)
        store.flush(args.namespace)
    print(f"added {len(ids)} messages from {Path(args.messages).name} to {args.namespace!r}")
    return 0


def run_namespaces(args: argparse.Namespace) -> int:
    with opened_store(args) as store:
        for name in store.namespaces(prefix=args.prefix):
            print(name)
    return 0
