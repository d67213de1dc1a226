"""The context's text: each block under its title in the policy's show order, summaries in
order of the conversation, quotes in stretches (the best first), each item under its header:
a stretch breaks where a session or (with dates) a day starts, so every quote's date is in its
own header.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rerank_plus.memory.context.state import Placed
from rerank_plus.memory.context.texts import ItemTexts
from rerank_plus.memory.model.items import MemoryItem

#: Orders the quotes: the placed quotes (sorted by place) and whether a message continues the
#: run another ends -> the quotes in shown order.
QuoteOrder = Callable[[Sequence[Placed], Callable[[MemoryItem, MemoryItem], bool]], list[Placed]]

TITLES = {
    "overview": "Overview (summaries):",
    "extracts": "Extracts (window summaries):",
    "quotes": "Quotes (verbatim messages):",
}


def pieces_of(tokens: int) -> int:
    """The words and marks :func:`approximate_tokens` counted in a text it gives ``tokens``:
    it maps n of them to ceil(n * TOKENS_PER_PIECE), ceil(4n / 3), one to one (a property
    test of the composition checks the total against the counter)."""
    return 3 * tokens // 4


def render(
    texts: ItemTexts,
    span_start: Mapping[str, int],
    placed: list[Placed],
    show_order: Sequence[str],
    quote_order: QuoteOrder | None = None,
) -> tuple[str, dict[str, dict[str, int]], list[Placed], int]:
    """The context's text, its spend per block and label, the items in shown order, and
    the words and marks :func:`approximate_tokens` counts in the text (meaningful with that
    counter only): the sum of its parts' (lines, and a summary's header and text, joined
    by a space), since none spans a line break or a space. ``quote_order`` orders the quotes
    (default :func:`stretches_best_first`)."""
    lines: list[str] = []
    pieces = 0
    spend: dict[str, dict[str, int]] = {}
    shown_order: list[Placed] = []
    for block in show_order:
        members = sorted(
            (p for p in placed if p.block == block),
            key=lambda p: (span_start.get(p.hit.item.id, 0), -p.hit.item.level),
        )
        if block == "quotes":
            members = (quote_order or stretches_best_first)(members, texts.follows)
        if not members:
            continue
        shown_order += members
        lines.append(TITLES[block])
        spent = spend.setdefault(block, {})
        spent["title"] = texts.cache.tokens(TITLES[block])
        pieces += pieces_of(spent["title"])
        previous: MemoryItem | None = None
        for position, entry in enumerate(members):
            item = entry.hit.item
            if block == "quotes":
                run_continues = previous is not None and texts.follows(previous, item)
                if not run_continues:
                    run_end = item
                    for later in members[position + 1 :]:
                        if not texts.follows(run_end, later.hit.item):
                            break
                        run_end = later.hit.item
                    header = texts.header(item, run_end if run_end is not item else None)
                    lines.append(header)
                    header_tokens = texts.cache.tokens(header)
                    spent["headers"] = spent.get("headers", 0) + header_tokens
                    pieces += pieces_of(header_tokens)
                body = texts.line(item, entry.shown)
            else:
                known = texts.known(item)
                header, header_tokens = known.header, known.header_tokens
                spent["headers"] = spent.get("headers", 0) + header_tokens
                body = f"{header} {entry.shown}"
            lines.append(body)
            label = item.label()
            line_tokens = texts.line_tokens(item, entry.shown)
            spent[label] = spent.get(label, 0) + line_tokens
            if block == "quotes":  # the body is the line
                pieces += pieces_of(line_tokens)
            else:  # the header, then the text (the line's speaker is not shown)
                shown_tokens = texts.cache.tokens(entry.shown) if item.speaker else line_tokens
                pieces += pieces_of(header_tokens) + pieces_of(shown_tokens)
            previous = item
    return "\n".join(lines), spend, shown_order, pieces


def runs_of(
    members: Sequence[Placed], follows: Callable[[MemoryItem, MemoryItem], bool]
) -> list[list[Placed]]:
    """``members`` cut into runs (``follows``: whether a message continues the run another
    ends), in their order."""
    runs: list[list[Placed]] = []
    for entry in members:
        if runs and follows(runs[-1][-1].hit.item, entry.hit.item):
            runs[-1].append(entry)
        else:
            runs.append([entry])
    return runs


def stretches_best_first(
    members: Sequence[Placed], follows: Callable[[MemoryItem, MemoryItem], bool]
) -> list[Placed]:
    """Quotes in runs of consecutive messages (``follows``: whether a message continues the
    run the other ends), the run holding the best-scored quote first and
    starting at that quote (the messages that led up to it follow as a run of their own), the
    other runs by their best quote, each run in order: the strongest evidence leads and every
    stretch still reads as said.

    On QMSum's train samples starting the best run at its best quote brought the first
    answering turn forward (MRR on pieces of 150 words +5 to +7 points at 2,000 and 4,000
    tokens) at the same recall; starting every run at its best quote gained little more and
    cost 0.1 to 0.4 points of recall (each split needs a header, and what no longer fits is
    dropped)."""
    runs = runs_of(members, follows)
    runs.sort(key=lambda run: -max(entry.hit.score for entry in run))
    if runs:
        best = runs[0]
        top = max(range(len(best)), key=lambda k: (best[k].hit.score, -k))
        if top:
            runs[:1] = [best[top:], best[:top]]
            runs.sort(key=lambda run: -max(entry.hit.score for entry in run))
    return [entry for run in runs for entry in run]
