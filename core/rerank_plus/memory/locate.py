"""Where in the conversation a precise answer sits: windows ranked as regions.

A window's summary matches a precise question less sharply than the one message that answers
it, and an answer often runs on over several windows. A region's score fuses the window's own
light-stage score with its best message's (the best passage speaks for its document: MaxP,
Dai and Callan, SIGIR 2019) through the library's weighted fusion, normalized as DBSF does (a
message three deviations above the rest keeps its lead), then adds ``neighbour_weight`` times
the scores of the windows just before and after it, so a window inside a relevant stretch
ranks above an isolated one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rerank_plus.combine.fusion import WeightedFusion
from rerank_plus.memory.items import MemoryItem
from rerank_plus.memory.search import Hit

#: Each window's own score and its best message's weigh alike.
_FUSION = WeightedFusion(alpha=0.5, normalization="dbsf")


def rank_regions(
    windows: Sequence[Hit],
    messages: Sequence[Hit],
    parents: Callable[[str], Sequence[MemoryItem]],
    neighbour_weight: float,
) -> list[Hit]:
    """``windows`` (the light stage's level-1 ranking) and the windows of ``messages`` (its
    level-0 ranking; ``parents`` gives a message's summaries) ordered by region score, best
    first; ties keep the light stage's order. A window that one side did not rank takes that
    side's lowest score."""
    own = {hit.item.id: hit for hit in windows}
    best: dict[str, float] = {}
    candidates: dict[str, MemoryItem] = {hit.item.id: hit.item for hit in windows}
    for hit in messages:
        for parent in parents(hit.item.id):
            if parent.level == 1:
                candidates.setdefault(parent.id, parent)
                best[parent.id] = max(best.get(parent.id, hit.score), hit.score)
    if not candidates:
        return []
    floor_own = min((hit.score for hit in windows), default=0.0)
    floor_best = min(best.values(), default=0.0)
    ids = list(candidates)
    fused = _FUSION.fuse(
        [own[i].score if i in own else floor_own for i in ids],
        [best.get(i, floor_best) for i in ids],
    ).values
    by_index = {candidates[i].index: value for i, value in zip(ids, fused, strict=True)}
    region = [
        value + neighbour_weight * (by_index.get(index - 1, 0.0) + by_index.get(index + 1, 0.0))
        for index, value in by_index.items()
    ]
    order = sorted(range(len(ids)), key=lambda n: -region[n])  # stable: ties keep ids' order
    return [
        Hit(candidates[ids[n]], region[n], own[ids[n]].dense if ids[n] in own else None)
        for n in order
    ]
