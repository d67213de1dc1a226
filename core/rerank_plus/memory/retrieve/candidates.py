"""Step 2: each block's candidates, found level by level and by drilling down.

Every level is searched by the light stage (synthesis skips the raw messages: its quotes come
from the drill-down only); the drill-down starts from the top level (``drill_from: top``), the
best windows, or the best regions (a window with its best message and its better neighbour,
:mod:`.locate`), and reads what the picked summaries cover (:mod:`.drilldown`). What it found
and what the levels' searches found become the blocks (:mod:`.blocks`).
"""

from __future__ import annotations

from rerank_plus.memory.retrieve.blocks import assemble_blocks
from rerank_plus.memory.retrieve.drilldown import drill_down, safe_drill
from rerank_plus.memory.retrieve.final import FinalStage, on_scale
from rerank_plus.memory.retrieve.locate import NEIGHBOUR_WEIGHT, rank_regions
from rerank_plus.memory.retrieve.merging import merge
from rerank_plus.memory.retrieve.plan import QueryPlan
from rerank_plus.memory.retrieve.search import Hit

#: Candidates per level before the light stage: the dense top and the lexical top, each this many.
POOL = 64


def find_candidates(
    plan: QueryPlan, final: FinalStage | None
) -> tuple[dict[str, list[Hit]], frozenset[str]]:
    """Each block's candidates, and the ids of the items the drill-down kept."""
    by_level = search_levels(plan)
    depth = plan.memory.depth
    start = 0 if depth <= 1 else max(depth - 1, 1) if plan.policy.drill_from == "top" else 1
    ranked = by_level.get(start, [])
    if start == 1 and plan.policy.drill_from == "regions":
        ranked = _regions(plan, ranked, by_level, final)
    picks = _picks(plan, start, ranked, by_level)
    drilled = drill_down(plan, picks, plan.policy.drill_m[plan.tier])
    if plan.policy.safe_drill and plan.terms and depth > 1:
        drilled = safe_drill(plan, ranked, picks, drilled)
    return assemble_blocks(plan, by_level, start, picks, drilled)


def search_levels(plan: QueryPlan) -> dict[int, list[Hit]]:
    """The light stage's ranking of each level's pool (``POOL`` lexical and dense best)."""
    depth = plan.memory.depth
    by_level: dict[int, list[Hit]] = {}
    for level in range(depth):
        if plan.intent == "synthesis" and level == 0 and depth > 1:
            continue  # synthesis quotes come from the drill-down only
        items, dense = plan.search.pool(level, plan.terms, limit=POOL, allowed=plan.allowed(level))
        by_level[level] = plan.search.rank(plan.text, items, dense)
        plan.trace.step(
            "search",
            level=level,
            pool=len(items),
            top=[(hit.item.id, hit.score) for hit in by_level[level][:5]],
        )
    return by_level


def _regions(
    plan: QueryPlan, windows: list[Hit], by_level: dict[int, list[Hit]], final: FinalStage | None
) -> list[Hit]:
    """The windows ranked as regions. With a final stage (``final_regions``), the strong stage
    decides where a precise answer sits: the message quoted first and the region the
    drill-down starts from (by its own scores: how sure it is of its best message counts)."""
    messages = by_level.get(0, [])
    if final is not None and plan.policy.final_regions and messages:
        judged = final.judge(plan.question, messages, "regions", plan.trace)
        by_level[0] = on_scale(judged, messages, final.candidates)
        messages = judged
    ranked = rank_regions(windows, messages, plan.index.window_of, NEIGHBOUR_WEIGHT)
    plan.trace.step("regions", top=[(hit.item.id, hit.score) for hit in ranked[:5]])
    return ranked


def _picks(
    plan: QueryPlan, start: int, ranked: list[Hit], by_level: dict[int, list[Hit]]
) -> list[Hit]:
    """The summaries the drill-down starts from: the best ``drill_picks``, the first ``grow``
    of them with their neighbouring windows, and the best message's window second."""
    policy, count = plan.policy, plan.policy.drill_picks[plan.tier]
    picks = ranked[:count]
    if start == 1 and policy.grow:
        picks = grown(ranked, policy.grow)[:count]
    if start == 1 and plan.lead_quotes and by_level.get(0):
        picks = _with_lead_window(plan, picks, ranked, by_level[0][0].item.id)
    return picks


def grown(ranked: list[Hit], grow: int) -> list[Hit]:
    """The best windows, each of the first ``grow`` followed by its neighbours (the next,
    then the previous window): an answer often runs on past a window's edge."""
    row = {hit.item.index: hit for hit in ranked}
    order: list[Hit] = []
    for position, hit in enumerate(ranked):
        order.append(hit)
        if position < grow:
            order += [row[i] for i in (hit.item.index + 1, hit.item.index - 1) if i in row]
    return merge(order, [])


def _with_lead_window(plan: QueryPlan, picks: list[Hit], ranked: list[Hit], lead: str) -> list[Hit]:
    """``picks`` with the window of the best message found anywhere (``lead``) in the
    second place when it ranks above the window there: the best region's grown neighbour
    carries a long discussion on, but an answer that one message holds sharply sits in
    that message's window, and a small budget drills two windows only."""
    window = plan.index.window_of.get(lead)
    if len(picks) < 2 or window is None or any(hit.item.id == window.id for hit in picks):
        return picks
    found = next((hit for hit in ranked if hit.item.id == window.id), None)
    if found is None or found.score <= picks[1].score:
        return picks
    plan.trace.step("lead_window", message=lead, window=window.id, instead_of=picks[1].item.id)
    return [picks[0], found, *picks[2:]]
