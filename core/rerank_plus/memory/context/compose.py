"""Step 4: the annotated context, filled block by block within ``max_tokens``.

Three blocks: ``overview`` (high-level summaries), ``extracts`` (window summaries under them),
``quotes`` (verbatim messages), shown in the policy's ``show_order``. Each item gets a header
with its level, index and time (a summary's: the span it covers); consecutive quotes share one
header (a new session, or a new day where headers carry dates, starts a new one) and each line
names its speaker. Summaries are chronological inside their block; quotes come in stretches of
consecutive messages, each stretch chronological, the stretch with the best-scored quote
first and starting at that quote (what led up to it follows as a stretch of its own): the
strongest evidence leads (readers and models attend most to the start of a context). The
budget is filled in the policy's ``fill_order`` with each block's quota; what a block leaves
unused goes to the next one (and what is left after the last block goes round once more, to any
block that can use it), and an item that does not fit is skipped, not the end of the fill.

No text twice: a sentence already shown (say, inside a chosen summary) is not repeated; an
item's repeated sentences are elided with ``…``, and an item with nothing new is left out.
A broad question's blocks may be filled sentence by sentence instead, for the terms each adds
(:mod:`rerank_plus.memory.context.coverage`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rerank_plus.memory.context.coverage import Coverage
from rerank_plus.memory.context.coverage_fill import CoverageFill
from rerank_plus.memory.context.quote_order import QUOTE_ORDERS
from rerank_plus.memory.context.render import TITLES, render
from rerank_plus.memory.context.result import ContextItem
from rerank_plus.memory.context.state import FillState, Placed
from rerank_plus.memory.context.texts import ItemTexts
from rerank_plus.memory.context.time_notes import TimeNotes
from rerank_plus.memory.index.text_cache import TextCache
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.policy import BLOCKS
from rerank_plus.memory.retrieve.search import Hit
from rerank_plus.memory.trace import Trace
from rerank_plus.selection.budget import TOKENS_PER_PIECE, approximate_tokens

#: The score of every item of a context where none scored (no embedder) when the question has
#: nothing to match ("summarize the meeting"): the policy's choice answers it as a whole, and a
#: similarity cutoff after the retriever keeps the context whole.
UNSCORED = 1.0
#: ... and when no item holds a word of the question: on the lexical scale, where a message
#: holding each of the question's words once scores about 0.4 (``BM25Reranker``'s relevance),
#: low enough that a cutoff drops the context as it would drop unrelated text.
UNMATCHED = 0.01


@dataclass
class Composition:
    text: str
    placed: list[Placed]
    tokens: int
    spend: dict[str, dict[str, int]] = field(default_factory=dict)


class Composer:
    """Fills the blocks of one context (see the module docstring)."""

    def __init__(
        self,
        counter: Callable[[str], int],
        span_start: Mapping[str, int],
        with_date: bool,
        cache: TextCache | None = None,
        *,
        session_starts: Collection[int] = frozenset(),
        notes: TimeNotes | None = None,
    ) -> None:
        """``with_date``, ``session_starts``, ``notes``: how quotes are dated (see
        :class:`ItemTexts`)."""
        self.counter = counter
        self.span_start = span_start
        self.texts = ItemTexts(
            counter, with_date, cache, session_starts=session_starts, notes=notes
        )
        self.coverage_fill = CoverageFill(self.texts)

    def prepare(self, items: Iterable[MemoryItem], coverage: Coverage | None = None) -> None:
        """Split, fold and count each of ``items`` now, when the index is built, rather than on
        the first query that reads it (the cache keeps them for every later query); with
        ``coverage``, also each item's sentences as a coverage fill reads them (a message as a
        quote, a summary as a summary), the most of a broad question's first reading."""
        tables = {quoted: self.coverage_fill.table(quoted) for quoted in (False, True)}
        for item in items:
            self.texts.known(item)
            table = tables[item.level == 0]
            if coverage is not None and item.id not in table:  # kept from before an add
                table[item.id] = self.coverage_fill.sentences_of(item, item.level == 0, coverage)

    def compose(
        self,
        candidates: Mapping[str, Sequence[Hit]],
        quotas: Mapping[str, float],
        fill_order: Sequence[str],
        max_tokens: int,
        min_relevance: float,
        trace: Trace,
        *,
        show_order: Sequence[str] = BLOCKS,
        coverage: Coverage | None = None,
        drilled: Collection[str] = frozenset(),
        quote_order: str = "best_first",
    ) -> Composition:
        """The context: each block filled in ``fill_order`` with its quota, item by item in
        the order of its candidates, or, for the blocks ``coverage`` names, sentence by
        sentence for what they add (:mod:`rerank_plus.memory.context.coverage`). The dynamic cutoff
        passes the items the drill-down kept (``drilled``, ids): a drilled stretch is read
        whole, and its messages that share no word with the question (a lexical-only memory
        scores them 0) are where the answer runs on. ``quote_order`` names how the quotes are
        shown (:data:`~rerank_plus.memory.context.quote_order.QUOTE_ORDERS`)."""
        state = FillState(min_relevance=min_relevance, drilled=drilled, coverage=coverage)

        def fill(block: str, allowance: float, step: Trace | None) -> float:
            pool = candidates.get(block, ())
            if coverage is not None and block in coverage.blocks:
                if allowance <= state.coverage_left.get(block, -1.0):
                    return allowance  # what did not fit or add anything then still does not
                left = self.coverage_fill.fill(block, pool, allowance, state, coverage, step)
                state.coverage_left[block] = left
                return left
            return self._fill(block, pool, allowance, state, step)

        carry = 0.0
        for block in fill_order:  # each block its quota, plus what the blocks before it left
            carry = fill(block, quotas[block] * max_tokens + carry, trace)
        for block in fill_order:  # what is still left, to whichever block can use it
            if carry < 1:
                break
            carry = fill(block, carry, None)
        return self._render(state.accepted, max_tokens, trace, show_order, quote_order)

    def _fill(
        self,
        block: str,
        pool: Sequence[Hit],
        allowance: float,
        state: FillState,
        trace: Trace | None,
    ) -> float:
        """Accept ``pool``'s items in order while they fit ``allowance``; what is left."""
        min_relevance, drilled, coverage = state.min_relevance, state.drilled, state.coverage
        best = max((hit.score for hit in pool), default=0.0)
        title = self.texts.cache.tokens(TITLES[block])
        for hit in pool:
            opened = block in state.opened
            if allowance < (1 if opened else title + 1):
                break
            item = hit.item
            if item.id in state.placed_ids:
                continue
            if best > 0 and hit.score < min_relevance * best and item.id not in drilled:
                if trace:
                    trace.reject(item.id, "below the dynamic cutoff", block=block)
                continue
            known = self.texts.known(item)
            found = self.texts.new_text(item, known, state.shown)
            if found is None:
                if trace:
                    trace.reject(item.id, "already in the context", block=block)
                continue
            text, cost = found
            joins = block == "quotes" and self._joins(item, state)
            cost += 0 if joins else known.header_tokens
            cost += 0 if opened else title
            if cost > allowance:
                if trace:
                    trace.reject(item.id, "does not fit", block=block, tokens=cost)
                continue
            allowance -= cost
            state.opened.add(block)
            state.placed_ids.add(item.id)
            state.accepted.append(Placed(hit, block, text))
            state.shown.update(known.folded)
            if coverage is not None:
                state.covered.update(*coverage.terms_of(item))
            if block == "quotes":
                state.quotes[item.index] = item
        return max(0.0, allowance)

    def _joins(self, item: MemoryItem, state: FillState) -> bool:
        """Whether quote ``item`` joins a stretch already accepted (and needs no header)."""
        before = state.quotes.get(item.index - 1)
        after = state.quotes.get(item.index + 1)
        follows = self.texts.follows
        return (before is not None and follows(before, item)) or (
            after is not None and follows(item, after)
        )

    def _render(
        self,
        placed: list[Placed],
        max_tokens: int,
        trace: Trace,
        show_order: Sequence[str],
        quote_order: str,
    ) -> Composition:
        order = QUOTE_ORDERS[quote_order]
        while True:
            text, spend, shown_order, pieces = render(
                self.texts, self.span_start, placed, show_order, order
            )
            if not text:
                tokens = 0
            elif self.counter is approximate_tokens:  # as it counts the text, not scanned again
                tokens = math.ceil(pieces * TOKENS_PER_PIECE)
            else:
                tokens = self.counter(text)
            if tokens <= max_tokens or not placed:
                trace.placed({entry.hit.item.id for entry in placed})
                return Composition(text, shown_order, tokens, spend)
            # A counter that is not additive over lines: drop the weakest item until it fits.
            weakest = min(range(len(placed)), key=lambda i: (placed[i].hit.score, -i))
            trace.reject(placed[weakest].hit.item.id, "over the budget once rendered")
            placed = placed[:weakest] + placed[weakest + 1 :]


def context_items(placed: Sequence[Placed], *, to_match: bool = True) -> tuple[ContextItem, ...]:
    """The placed items as the caller sees them (a composition's are in shown order).

    An item placed without a score of its own (0: a drilled message that shares no word with
    the question, a summary picked for coverage or recency) carries the weakest score of its
    block's scored items, else of the context's: it stands with the weakest evidence beside
    it, so a similarity cutoff after the retriever (LlamaIndex's ``SimilarityPostprocessor``)
    keeps it with the matches around it or drops them together. Where no item scored, each
    carries :data:`UNMATCHED` if the question had words ``to_match``, else :data:`UNSCORED`.
    The composition itself reads the light stage's scores."""
    weakest: dict[str | None, float] = {}
    for entry in placed:
        score = entry.hit.score
        if score > 0:
            for key in (entry.block, None):
                weakest[key] = min(score, weakest.get(key, score))
    unscored = weakest.get(None, UNMATCHED if to_match else UNSCORED)
    return tuple(
        ContextItem(
            entry.hit.item,
            entry.hit.score if entry.hit.score > 0 else weakest.get(entry.block, unscored),
            entry.block,
            entry.shown,
        )
        for entry in placed
    )
