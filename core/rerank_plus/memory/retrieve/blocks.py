"""The blocks a context is composed from: overview summaries, extracts (window summaries) and
quotes (raw messages), each a list of candidates best first.

Overview comes from the levels above the windows (those right above the picked windows first);
extracts are the drilled windows, then the best windows found anywhere; quotes are the best
``lead_quotes`` messages found anywhere (more in a chat kept over days: ``QueryPlan.lead_quotes``;
with ``lead_breadth``, the best of as many windows: one message per window, for a list spread
over the conversation), then the drilled ones, then the rest. A raw message with fewer than
two content terms is a filler and is left out of the quotes; an entity question
keeps the quotes that name its entity and puts the summaries that do first.
"""

from __future__ import annotations

from collections.abc import Sequence

from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.retrieve.merging import merge
from rerank_plus.memory.retrieve.plan import QueryPlan
from rerank_plus.memory.retrieve.search import Hit


def assemble_blocks(
    plan: QueryPlan,
    by_level: dict[int, list[Hit]],
    start: int,
    picks: list[Hit],
    drilled: dict[int, list[Hit]],
) -> tuple[dict[str, list[Hit]], frozenset[str]]:
    """Each block's candidates, and the ids of the items the drill-down kept."""
    depth, policy, entities = plan.memory.depth, plan.policy, plan.analysis.entities
    overview = [hit for level in range(depth - 1, 1, -1) for hit in by_level.get(level, [])]
    if start == 1:  # the summaries right above the picked windows are their context
        memory = plan.memory
        above = {parent.id for pick in picks for parent in memory.parents(pick.item.id)}
        overview.sort(key=lambda hit: hit.item.id not in above)
    overview = overview[: policy.overview_items[plan.tier]]
    extracts = merge(drilled.get(1, []), by_level.get(1, []) if depth > 1 else [])
    anywhere = by_level.get(0, [])
    lead = plan.lead_quotes
    leads = one_per_window(plan, anywhere, lead) if policy.lead_breadth else anywhere[:lead]
    if leads:
        plan.trace.step("lead_quotes", count=lead, ids=[hit.item.id for hit in leads])
    quotes = merge([*leads, *drilled.get(0, [])], anywhere)
    quotes = without_fillers(plan, quotes)
    if plan.intent == "entity" and entities:
        quotes = [hit for hit in quotes if names_any(hit.item, entities)]
        extracts = entity_first(extracts, entities)
        overview = entity_first(overview, entities)
    if depth <= 2:
        overview = []
    kept = frozenset(hit.item.id for hits in drilled.values() for hit in hits)
    return {"overview": overview, "extracts": extracts, "quotes": quotes}, kept


def one_per_window(plan: QueryPlan, hits: Sequence[Hit], count: int) -> list[Hit]:
    """The first ``count`` of ``hits`` from distinct windows (a message outside any window is
    its own), in the order of ``hits``: the best message of each of the best windows."""
    window_of = plan.index.window_of
    seen: set[str] = set()
    kept: list[Hit] = []
    for hit in hits:
        if len(kept) >= count:
            break
        window = window_of.get(hit.item.id)
        key = hit.item.id if window is None else window.id
        if key not in seen:
            seen.add(key)
            kept.append(hit)
    return kept


def without_fillers(plan: QueryPlan, quotes: list[Hit]) -> list[Hit]:
    """Raw messages with fewer than two content terms ("Yeah.", "Okay, right.") say nothing
    a quote needs, unless their words name an entity of the question (who said it does not
    count: asked about Maya, Maya's "Nice!" says nothing of her)."""
    counts, entities = plan.index.content_terms, plan.analysis.entities
    kept, fillers = [], []
    for hit in quotes:
        if counts.get(hit.item.id, 0) >= 2 or (entities and says_any(hit.item, entities)):
            kept.append(hit)
        else:
            fillers.append(hit)
    if not kept:  # nothing but fillers: they stay candidates
        return quotes
    for hit in fillers:
        plan.trace.reject(hit.item.id, "filler: fewer than two content terms")
    return kept


def names_any(item: MemoryItem, entities: Sequence[str]) -> bool:
    """Whether the item's text, speaker, tags or entities name one of ``entities``."""
    haystack = " ".join(
        (item.text, item.speaker or "", " ".join(item.tags), " ".join(item.entity_names))
    ).casefold()
    return any(entity.casefold() in haystack for entity in entities)


def says_any(item: MemoryItem, entities: Sequence[str]) -> bool:
    """Whether the item's own words (its text, tags or entities, not its speaker) name one of
    ``entities``."""
    haystack = " ".join((item.text, " ".join(item.tags), " ".join(item.entity_names))).casefold()
    return any(entity.casefold() in haystack for entity in entities)


def entity_first(hits: list[Hit], entities: Sequence[str]) -> list[Hit]:
    return sorted(hits, key=lambda hit: not names_any(hit.item, entities))
