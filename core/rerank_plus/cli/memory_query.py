"""``rerank-plus memory query``: the context a memory gives for a question, and how it was
chosen, from a memory file (``memory build -o``) or a store's namespace (``--store URL
--namespace NS``, see :mod:`rerank_plus.cli.memory_store`)."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from typing import Any

from rerank_plus.cli.arguments import existing_file, positive_int
from rerank_plus.cli.embedders import QUERY_HELP, embedder_model
from rerank_plus.cli.memory_store import add_store_arguments, opened_store
from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.model.times import parse_time

INTENTS = ("synthesis", "detail", "recent", "entity")
#: Rejected items and list entries shown in the readable trace (all are in --json).
SHOWN = 8


def iso_time(text: str) -> datetime | None:
    """``--now``: an ISO 8601 time, checked at parse time."""
    try:
        return parse_time(text, "--now")
    except MemoryFormatError:
        raise argparse.ArgumentTypeError(
            f"not an ISO 8601 time: {text!r} (e.g. 2024-05-01T09:30:00Z)"
        ) from None


def question_text(text: str) -> str:
    """The question: refused at parse time when it is empty (nothing to look for)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            'the question is empty; ask what to look for, e.g. "what did Ana decide?"'
        )
    return text


def add_query_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "query",
        help="Print the context a memory gives for a question, and how it was chosen.",
        usage="%(prog)s [-h] (MEMORY | --store URL --namespace NS) QUESTION [options]",
    )
    parser.add_argument(
        "memory",
        nargs="?",
        type=existing_file,
        metavar="MEMORY",
        help="a memory file (memory build -o); or give --store and --namespace",
    )
    parser.add_argument("question", type=question_text, metavar="QUESTION", help="the question")
    add_store_arguments(parser, required=False)
    parser.add_argument(
        "--max-tokens", type=positive_int, default=2000, help="the context's budget (2000)"
    )
    parser.add_argument("--intent", choices=INTENTS, help="force an intent (default: read it)")
    parser.add_argument(
        "--now",
        type=iso_time,
        help="ISO 8601 time that 'since yesterday' counts from (default: the clock; UTC if no "
        "offset)",
    )
    parser.add_argument("--embedder", help=QUERY_HELP)
    parser.add_argument(
        "--profile",
        type=existing_file,
        metavar="FILE",
        help="a memory profile (JSON or YAML, see docs/memory.md); default: the ready-made one",
    )
    parser.add_argument(
        "--json", action="store_true", help="print context, items, guidance and trace as JSON"
    )
    parser.set_defaults(run=run_query)


def _short(value: Any) -> str:
    """A trace value on one line: long lists cut to their first entries."""
    if isinstance(value, list) and len(value) > SHOWN:
        return f"{json.dumps(value[:SHOWN], ensure_ascii=False)[:-1]}, ... {len(value)} in all]"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def readable_trace(context: Any) -> str:
    """The trace as lines a person reads: intent and why, each step, tokens spent per block and
    level, rejected items with their reason, and what the answer rests on."""
    trace = context.trace.to_dict()
    lines = [f"intent: {context.intent}, {context.tokens} tokens"]
    for step in trace["steps"]:
        details = ", ".join(f"{k}={_short(v)}" for k, v in step.items() if k != "step")
        lines.append(f"- {step['step']}: {details}")
    for block, levels in trace["spend"].items():
        spent = ", ".join(f"{level}: {tokens}" for level, tokens in levels.items())
        lines.append(f"spent on {block}: {spent}")
    rejected = trace["rejected"]
    if rejected:
        lines.append(f"rejected: {len(rejected)}")
        for entry in rejected[:SHOWN]:
            others = ", ".join(f"{k}={v}" for k, v in entry.items() if k not in ("id", "reason"))
            lines.append(f"  {entry['id']}: {entry['reason']}" + (f" ({others})" if others else ""))
        if len(rejected) > SHOWN:
            lines.append(f"  ... {len(rejected) - SHOWN} more (see --json)")
    lines.append(f"guidance: {context.guidance}")
    return "\n".join(lines)


def print_context(context: Any, as_json: bool) -> None:
    """The context and its readable trace, or (``as_json``) all of it as one JSON object."""
    if as_json:
        from rerank_plus.memory.context.payload import context_payload

        payload = context_payload(context)
        report = {"context": payload.pop("text"), **payload}
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return
    print(context.text or "(empty context)")
    print()
    print(readable_trace(context))


def _from_file(args: argparse.Namespace) -> Any:
    from rerank_plus.memory.model.artifacts import load_memory
    from rerank_plus.memory.retriever import MemoryRetriever

    memory = load_memory(args.memory)
    if args.embedder is None and any(item.embedding is not None for item in memory):
        print(
            "note: the memory holds embeddings; pass --embedder (the model it was built with) "
            "for dense search.",
            file=sys.stderr,
        )
    retriever = MemoryRetriever(
        memory, embedder=embedder_model(args.embedder), profile=args.profile
    )
    return retriever.retrieve(
        args.question, max_tokens=args.max_tokens, intent=args.intent, now=args.now
    )


def _from_store(args: argparse.Namespace) -> Any:
    with opened_store(args, profile=args.profile) as store:
        return store.retrieve(
            args.namespace,
            args.question,
            max_tokens=args.max_tokens,
            now=args.now,
            intent=args.intent,
        )


def _check_source(args: argparse.Namespace) -> None:
    """A memory file, or a store and a namespace: one of the two."""
    if args.memory is not None and (args.store or args.namespace):
        raise ValueError(
            "give a memory file or --store and --namespace, not both; the file would be ignored."
        )
    if args.memory is None and not (args.store and args.namespace):
        missing = "--namespace" if args.store else "--store" if args.namespace else None
        raise ValueError(
            f"{missing} is missing; a store's memory is named by --store URL --namespace NS."
            if missing
            else "which memory? give a memory file (memory build -o) before the question, or "
            "--store URL --namespace NS."
        )


def run_query(args: argparse.Namespace) -> int:
    _check_source(args)
    context = _from_file(args) if args.memory is not None else _from_store(args)
    print_context(context, args.json)
    return 0
