"""A composed context cut into the pieces a caller can drop one at a time: each summary line, and
each stretch of quotes under its header. A framework that must shorten the context after the
fact (LlamaIndex's ``Memory`` truncating a block to fit the chat history) sheds the weakest
pieces first, quotes and extracts before overview summaries, and the rest still reads as the
composer rendered it.

>>> from rerank_plus.memory import MemoryRetriever, build_memory
>>> context = MemoryRetriever(build_memory(["Ana: the launch moves to March."])).retrieve(
...     "launch", max_tokens=100
... )
>>> [(piece.block, piece.text) for piece in context_pieces(context)]
[('quotes', '[L0 #0]\\nAna: the launch moves to March.')]
>>> join_pieces(context_pieces(context)) == context.text
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rerank_plus.memory.context.render import TITLES
from rerank_plus.memory.context.result import ContextItem, MemoryContext

#: The order pieces are shed in: verbatim quotes, then window extracts, then the overview
#: summaries that say what the whole memory holds (the last thing worth keeping).
SHED_ORDER = ("quotes", "extracts", "overview")
#: The block of a piece that is a whole context whose layout could not be read.
WHOLE = "whole"


@dataclass(frozen=True, slots=True)
class ContextPiece:
    """One droppable part of a context: its block, its text (header included, no title), and
    the best score among its items."""

    block: str
    text: str
    score: float


def _groups(items: Sequence[ContextItem]) -> list[tuple[str, list[ContextItem]]]:
    """The items as rendered: a summary alone, quotes in runs of consecutive messages."""
    groups: list[tuple[str, list[ContextItem]]] = []
    for entry in items:
        if groups and entry.block == "quotes" and groups[-1][0] == "quotes":
            last = groups[-1][1][-1]
            if entry.item.index == last.item.index + 1:
                groups[-1][1].append(entry)
                continue
        groups.append((entry.block, [entry]))
    return groups


def _header_at(text: str, entry: ContextItem, start: int) -> int | None:
    """Where the line holding ``entry``'s header begins, at or after ``start``."""
    label = re.escape(f"[{entry.item.label()} #{entry.item.index}")
    found = re.compile(rf"^{label}(?=[-\] ])", re.M).search(text, start)
    return None if found is None else found.start()


def _title_at(text: str, block: str, start: int) -> int | None:
    found = re.compile(rf"^{re.escape(TITLES[block])}$", re.M).search(text, start)
    return None if found is None else found.start()


def context_pieces(context: MemoryContext) -> list[ContextPiece]:
    """The context's pieces in the order shown; :func:`join_pieces` gives its text back. A
    text laid out otherwise than its items say (a renderer that changed) comes back as one
    piece per block, or as one piece of the block ``"whole"`` (no title): coarser, never
    wrong."""
    text = context.text
    if not text:
        return []
    titles: list[int] = []
    starts: list[tuple[int, str, float]] = []  # where each piece begins, its block and score
    cursor, block = 0, None
    for group_block, entries in _groups(context.items):
        if group_block != block:
            title = _title_at(text, group_block, cursor)
            if title is None:
                return _by_block(context)
            titles.append(title)
            cursor, block = title + len(TITLES[group_block]) + 1, group_block
        start = _header_at(text, entries[0], cursor)
        if start is None:
            return _by_block(context)
        starts.append((start, group_block, max(entry.score for entry in entries)))
        cursor = start + 1
    return _cut(text, starts, titles) or _by_block(context)


def _by_block(context: MemoryContext) -> list[ContextPiece]:
    """One piece per block when the titles are where the items say, else one piece in all."""
    text, starts, titles, cursor = context.text, [], [], 0
    for block in dict.fromkeys(entry.block for entry in context.items):
        title = _title_at(text, block, cursor)
        if title is None:
            return [ContextPiece(WHOLE, text, 1.0)]
        cursor = title + len(TITLES[block]) + 1
        titles.append(title)
        score = max(entry.score for entry in context.items if entry.block == block)
        starts.append((cursor, block, score))
    return _cut(text, starts, titles) or [ContextPiece(WHOLE, text, 1.0)]


def _cut(
    text: str, starts: Sequence[tuple[int, str, float]], titles: Sequence[int]
) -> list[ContextPiece]:
    """The pieces beginning at ``starts``, each running to the next piece or title; empty
    when they do not join back into ``text``."""
    bounds = sorted({*titles, *(start for start, _, _ in starts), len(text) + 1})
    pieces = [
        ContextPiece(block, text[start : next(b for b in bounds if b > start) - 1], score)
        for start, block, score in starts
    ]
    return pieces if join_pieces(pieces) == text else []


def join_pieces(pieces: Sequence[ContextPiece]) -> str:
    """The text of ``pieces``: each block's title before its first piece, a line each."""
    lines: list[str] = []
    block = None
    for piece in pieces:
        if piece.block != block and piece.block in TITLES:
            lines.append(TITLES[piece.block])
        block = piece.block
        lines.append(piece.text)
    return "\n".join(lines)


def shed(
    pieces: Sequence[ContextPiece], tokens: int, counter: Callable[[str], int]
) -> list[ContextPiece]:
    """``pieces`` less the fewest that free ``tokens`` (as ``counter`` counts the text): the
    lowest-scored quotes first, then extracts, then overview summaries (:data:`SHED_ORDER`)."""
    before = counter(join_pieces(pieces))
    kept = list(pieces)
    rank = {block: position for position, block in enumerate(SHED_ORDER)}
    order = sorted(
        range(len(pieces)), key=lambda k: (rank.get(pieces[k].block, 0), pieces[k].score, -k)
    )
    dropped: set[int] = set()
    for position in order:
        if before - counter(join_pieces(kept)) >= tokens:
            break
        dropped.add(position)
        kept = [piece for k, piece in enumerate(pieces) if k not in dropped]
    return kept
