"""Step 2: drill down from the best summaries into what they cover, and only that.

From the best items of a level, a second search runs over the union of their covers one level
down; each cover group (the items under one parent) gives at most ``m`` items, and the kept items
are the parents of the next step, down to the raw messages. Kept items come round-robin across
groups (each parent's best first), so a context built from them spans every picked summary, or
grouped (the best parent's items first), so it reads a contiguous stretch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from rerank_plus.memory.retrieve.merging import merge
from rerank_plus.memory.retrieve.plan import QueryPlan
from rerank_plus.memory.retrieve.search import Hit

T = TypeVar("T")


def round_robin(groups: Sequence[Sequence[T]]) -> list[T]:
    """The first of every group, then the second of every group, ...

    >>> from rerank_plus.memory.model.items import MemoryItem
    >>> a, b, c = (Hit(MemoryItem(i, 0, n, i), 1.0) for n, i in enumerate("abc"))
    >>> [hit.item.id for hit in round_robin([[a, b], [c]])]
    ['a', 'c', 'b']
    """
    out: list[T] = []
    for rank in range(max((len(group) for group in groups), default=0)):
        out.extend(group[rank] for group in groups if rank < len(group))
    return out


def drill_down(plan: QueryPlan, picks: Sequence[Hit], m: int) -> dict[int, list[Hit]]:
    """Items kept at each level below ``picks`` (all on one level), best-covered first; at
    most what the context could read of a level (``plan.readable``: without it, a deep
    memory's drill grows by ``m`` times a level, to thousands of messages)."""
    search, grouped, most = plan.search, plan.policy.drill_order == "grouped", plan.readable
    found: dict[int, list[Hit]] = {}
    level = picks[0].item.level if picks else 0
    while picks and level > 0 and m > 0:
        # each covered item's first pick (the later picks' entries are overwritten)
        parent_of = {covered: pick.item.id for pick in picks[::-1] for covered in pick.item.covers}
        items, dense = search.pool(
            level - 1,
            plan.terms,
            limit=len(parent_of) or 1,
            allowed=plan.allowed(level - 1),
            within=parent_of,
        )
        ranking = search.ranking(plan.text, items, dense)
        groups = _best_per_parent(ranking.order, ranking.ids, parent_of, picks, m)
        chosen = (
            [position for group in groups for position in group] if grouped else round_robin(groups)
        )
        kept = ranking.hits(chosen[:most])  # hits only for the kept
        plan.trace.step(
            "drill_down",
            from_level=level,
            to_level=level - 1,
            parents=[pick.item.id for pick in picks],
            covered=len(parent_of),
            kept=[hit.item.id for hit in kept],
            m=m,
        )
        found[level - 1] = kept
        picks = kept
        level -= 1
    return found


def safe_drill(
    plan: QueryPlan, ranked: list[Hit], picks: list[Hit], drilled: dict[int, list[Hit]]
) -> dict[int, list[Hit]]:
    """A detail query whose drilled quotes hold none of its keywords drills again, from the
    next best summaries."""
    wanted = set(plan.terms)
    kept = plan.index.item_terms  # each message's terms, as the light stage read them
    if any(not wanted.isdisjoint(kept[hit.item.id][1]) for hit in drilled.get(0, [])):
        return drilled
    more = ranked[len(picks) : len(picks) + max(1, plan.policy.drill_picks[plan.tier])]
    if not more:
        return drilled
    again = drill_down(plan, more, plan.policy.drill_m[plan.tier])
    plan.trace.step(
        "safe_drill",
        reason="no keyword in the drilled quotes",
        parents=[hit.item.id for hit in more],
    )
    return {
        level: merge(drilled.get(level, []), again.get(level, []))
        for level in set(drilled) | set(again)
    }


def _best_per_parent(
    order: Sequence[int],
    ids: Sequence[str],
    parent_of: Mapping[str, str],
    picks: Sequence[Hit],
    m: int,
) -> list[list[int]]:
    """For each pick, in order, the best ``m`` positions of the pool (whose items' ids are
    ``ids``) under it (``order`` is the pool's ranking, best first)."""
    groups: dict[str, list[int]] = {pick.item.id: [] for pick in picks}
    parents = list(map(parent_of.__getitem__, ids))
    room = m * len(groups)  # what the groups can still take: none left, the rest is passed
    for position in order:
        group = groups[parents[position]]
        if len(group) < m:
            group.append(position)
            room -= 1
            if not room:
                break
    return list(groups.values())
