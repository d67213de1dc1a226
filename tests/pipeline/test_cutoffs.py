"""Dynamic cutoffs at their edges: equal drops, a drop equal to ``min_gap``, ``min_keep`` past
the list, and the exact messages and defaults of both rules."""

from __future__ import annotations

import re

import pytest
from rerank_plus import GapCutoff, RatioCutoff
from rerank_plus.selection import build_cutoff


@pytest.mark.parametrize(
    ("cutoff", "relevance", "kept"),
    [
        (GapCutoff(min_gap=0.25), [1.0, 0.5, 0.0], 1),  # equal drops: the first one cuts
        (GapCutoff(min_gap=0.5), [1.0, 0.5], 1),  # a drop of exactly min_gap cuts
        (GapCutoff(min_gap=0.5), [1.0, 0.75, 0.5], 3),  # smaller drops do not
        (GapCutoff(min_gap=0.25, min_keep=2), [1.0, 0.5, 0.5, 0.0], 3),  # head kept whole
        (GapCutoff(min_gap=0.25, min_keep=5), [1.0, 0.0], 2),
        (GapCutoff(min_gap=0.0), [0.5, 0.5, 0.5], 3),  # no drop at all, no cut
        (GapCutoff(min_gap=0.0), [0.5, 0.25, 0.0], 1),
        (GapCutoff(), [0.5], 1),
        (GapCutoff(), [0.9, 0.76, 0.62], 3),  # default min_gap 0.15: drops of 0.14
        (GapCutoff(), [0.9, 0.74, 0.6], 1),
        (RatioCutoff(ratio=0.5), [0.8, 0.4, 0.3], 2),  # exactly half the best is kept
        (RatioCutoff(ratio=0.0), [0.5, 0.0], 2),
        (RatioCutoff(ratio=1.0, min_keep=5), [0.9, 0.1], 2),
        (RatioCutoff(ratio=0.5, min_keep=2), [1.0, 0.9, 0.2, 0.1], 2),
        (RatioCutoff(), [1.0, 0.5, 0.49], 2),  # default ratio 0.5
        (RatioCutoff(), [0.5], 1),
    ],
)
def test_cutoffs_at_their_edges(cutoff, relevance: list[float], kept: int) -> None:
    assert cutoff.keep(relevance) == kept


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: GapCutoff(min_gap=2), "min_gap must be a number in [0, 1], got 2."),
        (lambda: GapCutoff(min_gap=-0.1), "min_gap must be a number in [0, 1], got -0.1."),
        (lambda: GapCutoff(min_gap=True), "min_gap must be a number in [0, 1], got True."),
        (lambda: GapCutoff(min_gap="0.2"), "min_gap must be a number in [0, 1], got '0.2'."),
        (lambda: RatioCutoff(ratio=1.01), "ratio must be a number in [0, 1], got 1.01."),
        (lambda: GapCutoff(min_keep=0), "min_keep must be a positive int, got 0."),
        (lambda: GapCutoff(min_keep=True), "min_keep must be a positive int, got True."),
        (lambda: RatioCutoff(min_keep=1.0), "min_keep must be a positive int, got 1.0."),
        (lambda: build_cutoff("cliff"), "Unknown cutoff 'cliff'; choose one of gap, ratio."),
    ],
)
def test_bad_cutoffs_give_the_whole_message(build, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        build()


def test_the_ends_of_each_range_are_accepted() -> None:
    assert GapCutoff(min_gap=0).min_gap == 0.0 and GapCutoff(min_gap=1).min_gap == 1.0
    assert RatioCutoff(ratio=0).ratio == 0.0 and RatioCutoff(ratio=1).ratio == 1.0
    assert GapCutoff(min_keep=1).min_keep == 1


def test_cutoffs_by_name_keep_their_options_and_say_them() -> None:
    assert repr(build_cutoff("gap")) == "GapCutoff(min_gap=0.15, min_keep=1)"
    assert repr(build_cutoff({})) == "GapCutoff(min_gap=0.15, min_keep=1)"
    ratio = build_cutoff({"method": "ratio", "ratio": 0.6, "min_keep": 2})
    assert repr(ratio) == "RatioCutoff(ratio=0.6, min_keep=2)"
    assert (GapCutoff.name, RatioCutoff.name) == ("gap", "ratio")
    # the TypeError's own words name the function (as Python spells it), then the keyword
    message = r"^Bad options for cutoff 'ratio': .+\(\) got an unexpected keyword argument 'gap'\.$"
    with pytest.raises(ValueError, match=message):
        build_cutoff({"method": "ratio", "gap": 0.1})
