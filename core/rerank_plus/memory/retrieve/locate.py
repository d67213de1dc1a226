"""Where in the conversation a precise answer sits: windows ranked as regions.

A window's summary matches a precise question less sharply than the one message that answers
it, and an answer often runs on over several windows. A region's score fuses the window's own
light-stage score with its best message's (the best passage speaks for its document: MaxP,
Dai and Callan, SIGIR 2019) through the library's weighted fusion, normalized as DBSF does (a
message three deviations above the rest keeps its lead), then adds ``neighbour_weight`` times
the score of the better of the windows just before and after it, so a window inside a
relevant stretch ranks above an isolated one. The better neighbour, not both: with their sum,
a middle window of a long stretch on one subject outranked the window that holds the answer
(the sharpest hit), and the first and last windows (a chat's latest) had one neighbour to
add where the others had two.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from rerank_plus.combine.fusion import WeightedFusion
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.retrieve.search import Hit

#: Each window's own score and its best message's weigh alike.
_FUSION = WeightedFusion(alpha=0.5, normalization="dbsf")
#: How much a window's better neighbour adds to its region score. A quarter: a window inside a
#: relevant stretch outranks an isolated one of nearly the same score, never a clearly better
#: one (measured with the better neighbour rather than both: on XQuAD in English gold recall
#: at 700 tokens 0.794 -> 0.902, on QMSum's train meetings within 0.6 points; docs/memory.md).
NEIGHBOUR_WEIGHT = 0.25


def rank_regions(
    windows: Sequence[Hit],
    messages: Sequence[Hit],
    window_of: Mapping[str, MemoryItem],
    neighbour_weight: float,
) -> list[Hit]:
    """``windows`` (the light stage's level-1 ranking) and the windows of ``messages`` (its
    level-0 ranking; ``window_of`` maps a message id to its window) ordered by region score,
    best first; ties keep the light stage's order. A window that one side did not rank takes
    that side's lowest score."""
    own = {hit.item.id: hit for hit in windows}
    candidates = {hit.item.id: hit.item for hit in windows}
    best: dict[str, float] = {}
    for hit in messages:
        window = window_of.get(hit.item.id)
        if window is None:
            continue
        candidates.setdefault(window.id, window)
        known = best.get(window.id)
        if known is None or hit.score > known:
            best[window.id] = hit.score
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
    region = np.array(
        [
            value + neighbour_weight * max(by_index.get(at - 1, 0.0), by_index.get(at + 1, 0.0))
            for at, value in by_index.items()
        ]
    )
    hits = []
    for n in np.argsort(-region, kind="stable").tolist():  # ties keep ids' order
        found = own.get(ids[n])
        dense = None if found is None else found.dense
        hits.append(Hit(candidates[ids[n]], float(region[n]), dense))
    return hits
