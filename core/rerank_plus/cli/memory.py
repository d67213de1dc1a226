"""``rerank-plus memory``: build a hierarchical memory from messages, store, query and
evaluate it.

``memory build MESSAGES -o memory.json`` reads messages (JSONL, a JSON list, or a QMSum-like
meeting), builds the levels and writes the artifacts file (here); ``memory query`` prints the
composed context and a readable trace of how it was chosen (:mod:`rerank_plus.cli.memory_query`);
``memory add`` and ``memory namespaces`` work on a memory store
(:mod:`rerank_plus.cli.memory_store`); ``memory eval`` lives in
:mod:`rerank_plus.cli.memory_eval`.
"""

from __future__ import annotations

import argparse
import sys

from rerank_plus.cli.arguments import existing_file
from rerank_plus.cli.embedders import BUILD_HELP, embedder_model
from rerank_plus.cli.memory_eval import add_eval_parser
from rerank_plus.cli.memory_query import add_query_parser
from rerank_plus.cli.memory_store import add_store_parsers
from rerank_plus.cli.message_files import read_messages


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "memory",
        help="Build, store, query and evaluate a hierarchical memory (messages and summaries).",
        description="A memory holds raw messages (level 0), summaries of windows of messages "
        "(L1) and summaries of summaries (L2...); queries get a context that spends a token "
        "budget across the levels.",
    )
    commands = parser.add_subparsers(dest="memory_command", required=True, metavar="SUBCOMMAND")
    _add_build(commands)
    add_query_parser(commands)
    add_store_parsers(commands)
    add_eval_parser(commands)


def _add_build(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "build",
        help="Build a memory from messages and write it as JSON.",
        description="MESSAGES is a .jsonl file (one message per line: a text, or an object "
        "with text or content, speaker, time, tags, entities, id), a .json list of messages, "
        'or a .json object with "messages" or a QMSum "meeting_transcripts" list.',
    )
    parser.add_argument("messages", type=existing_file, help="the messages (.jsonl or .json)")
    parser.add_argument(
        "-o", "--output", required=True, help="the memory file to write (.json or .json.gz)"
    )
    parser.add_argument("--embedder", help=BUILD_HELP)
    parser.add_argument(
        "--summarizer",
        choices=("extractive",),
        default="extractive",
        help="extractive: keeps the most central sentences verbatim, offline (default)",
    )
    parser.add_argument(
        "--no-embeddings",
        dest="embeddings",
        action="store_false",
        help="leave the embeddings out of the file (smaller; query re-embeds)",
    )
    parser.set_defaults(run=run_build)


def run_build(args: argparse.Namespace) -> int:
    from rerank_plus.memory.ingest import ExtractiveSummarizer, build_memory
    from rerank_plus.memory.model.artifacts import check_save_target, save_memory

    check_save_target(args.output)  # before the work, not after it
    messages = read_messages(args.messages)
    summarizers = {"extractive": ExtractiveSummarizer}
    memory = build_memory(
        messages,
        embedder=embedder_model(args.embedder),
        summarizer=summarizers[args.summarizer](),
    )
    path = save_memory(memory, args.output, embeddings=args.embeddings)
    print(f"wrote {path}: {memory!r}", file=sys.stderr)
    return 0
