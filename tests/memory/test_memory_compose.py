"""Composition: the budget is never exceeded, no sentence is shown twice, blocks are ordered."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from rerank_plus.memory.context.compose import Composer, context_items
from rerank_plus.memory.context.texts import ELISION
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.retrieve.search import Hit
from rerank_plus.memory.trace import Trace
from rerank_plus.selection.budget import approximate_tokens

from tests.memory.compose_cases import composition_cases, hits_by_block, shown_once

QUOTAS = {"overview": 0.3, "extracts": 0.3, "quotes": 0.4}
ORDER = ("quotes", "extracts", "overview")


def composer(starts: dict[str, int] | None = None) -> Composer:
    return Composer(approximate_tokens, starts or {}, with_date=False)


def quote(index: int, text: str, speaker: str | None = "Ana") -> MemoryItem:
    return MemoryItem(f"m{index}", 0, index, text, speaker=speaker)


def test_blocks_in_reading_order_quotes_in_runs_from_their_best_quote() -> None:
    summary = MemoryItem("w0", 1, 0, "The team fixed the price at 25 euros.", covers=("m0",))
    hits = {
        "extracts": [Hit(summary, 0.5)],
        "quotes": [
            Hit(quote(5, "We should ship in March."), 0.9),
            Hit(quote(3, "The audit found two issues."), 0.8),
            Hit(quote(4, "I can fix both by Friday.", "Ben"), 0.7),
        ],
    }
    result = composer({"w0": 0, "m3": 3, "m4": 4, "m5": 5}).compose(
        hits, QUOTAS, ORDER, 200, 0.0, Trace("q")
    )
    assert result.text.splitlines() == [
        "Extracts (window summaries):",
        "[L1 #0] The team fixed the price at 25 euros.",
        "Quotes (verbatim messages):",
        "[L0 #5]",
        "Ana: We should ship in March.",
        "[L0 #3-4]",
        "Ana: The audit found two issues.",
        "Ben: I can fix both by Friday.",
    ]
    assert result.tokens == approximate_tokens(result.text) <= 200
    assert next(item.id for item in context_items(result.placed)) == "w0"


def test_show_order_puts_the_quotes_first_when_asked() -> None:
    summary = MemoryItem("w0", 1, 0, "The team fixed the price at 25 euros.", covers=("m0",))
    hits = {"extracts": [Hit(summary, 0.5)], "quotes": [Hit(quote(3, "We ship in March."), 0.9)]}
    result = composer({"w0": 0, "m3": 3}).compose(
        hits, QUOTAS, ORDER, 200, 0.0, Trace("q"), show_order=("quotes", "extracts", "overview")
    )
    assert result.text.splitlines() == [
        "Quotes (verbatim messages):",
        "[L0 #3]",
        "Ana: We ship in March.",
        "Extracts (window summaries):",
        "[L1 #0] The team fixed the price at 25 euros.",
    ]
    assert [item.id for item in context_items(result.placed)] == ["m3", "w0"]


def test_a_quote_inside_a_chosen_summary_is_not_repeated_and_overlaps_are_elided() -> None:
    summary = MemoryItem("w0", 1, 0, "Price is 25 euros. Launch in March.", covers=("m0", "m1"))
    hits = {
        "overview": [],
        "extracts": [Hit(summary, 0.9)],
        "quotes": [
            Hit(quote(0, "Price is 25 euros."), 0.8),
            Hit(quote(1, "Launch in March. Marketing agrees."), 0.7),
        ],
    }
    trace = Trace("q")
    result = composer().compose(hits, QUOTAS, ("extracts", "quotes", "overview"), 400, 0.0, trace)
    assert f"Ana: {ELISION} Marketing agrees." in result.text
    assert result.text.count("Price is 25 euros.") == 1
    assert {"id": "m0", "reason": "already in the context", "block": "quotes"} in trace.rejected


def test_an_item_that_does_not_fit_is_skipped_and_the_fill_goes_on() -> None:
    long_quote = quote(0, " ".join(["word"] * 80) + ".")
    hits = {"quotes": [Hit(long_quote, 0.9), Hit(quote(1, "Short and relevant."), 0.5)]}
    trace = Trace("q")
    result = composer().compose(hits, {**QUOTAS, "quotes": 1.0}, ORDER, 40, 0.0, trace)
    assert [p.hit.item.id for p in result.placed] == ["m1"]
    assert trace.rejected[0]["id"] == "m0" and trace.rejected[0]["reason"] == "does not fit"


def test_unused_quota_spills_to_the_next_block_and_the_cutoff_drops_weak_items() -> None:
    hits = {
        "quotes": [],
        "extracts": [
            Hit(MemoryItem(f"w{i}", 1, i, f"Window {i} talks about topic {i}."), 1.0 - i / 10)
            for i in range(6)
        ],
    }
    trace = Trace("q")
    result = composer().compose(hits, QUOTAS, ORDER, 120, 0.65, trace)
    kept = [p.hit.item.id for p in result.placed]
    assert kept == ["w0", "w1", "w2", "w3"]  # its own 0.3 of 120 tokens holds two
    assert {"id": "w4", "reason": "below the dynamic cutoff", "block": "extracts"} in trace.rejected


def test_a_budget_smaller_than_a_header_gives_an_empty_context() -> None:
    hits = {"quotes": [Hit(quote(0, "Hello there, everyone."), 1.0)]}
    result = composer().compose(hits, QUOTAS, ORDER, 3, 0.0, Trace("q"))
    assert result.text == "" and result.tokens == 0 and result.placed == []


def test_a_counter_that_is_not_additive_still_holds_the_budget() -> None:
    def sneaky(text: str) -> int:  # charges 5 extra tokens per line break
        return approximate_tokens(text) + 5 * text.count("\n")

    hits = {
        "quotes": [
            Hit(quote(i * 2, f"Point number {i} is important."), 1 - i / 10) for i in range(5)
        ]
    }
    trace = Trace("q")
    result = Composer(sneaky, {}, with_date=False).compose(
        hits, {**QUOTAS, "quotes": 1.0}, ORDER, 60, 0.0, trace
    )
    assert sneaky(result.text) <= 60
    assert any(r["reason"] == "over the budget once rendered" for r in trace.rejected)


SENTENCES = st.sampled_from(
    ["Price is 25 euros.", "Launch in March.", "Ben disagrees.", "We need a logo.", "Yes.", "🙂"]
)


@settings(max_examples=150, deadline=None)
@composition_cases(SENTENCES, 12)
def test_property_never_over_budget_and_no_sentence_twice(
    texts: list[str], levels: list[int], budget: int
) -> None:
    hits = hits_by_block(texts, levels)
    result = composer().compose(hits, QUOTAS, ORDER, budget, 0.0, Trace("q"))
    assert approximate_tokens(result.text) <= budget
    assert shown_once(result.placed)


@settings(max_examples=150, deadline=None)
@composition_cases(SENTENCES, 12)
def test_property_tokens_are_what_the_counter_gives_the_text(
    texts: list[str], levels: list[int], budget: int
) -> None:
    """The default counter's total is summed from the lines' counts, not the text scanned
    again: it must still be the text's count (summaries with speakers, elided repeats)."""
    hits = hits_by_block(texts, levels, speakers=True)
    result = composer().compose(hits, QUOTAS, ORDER, budget, 0.0, Trace("q"))
    assert result.tokens == approximate_tokens(result.text)


def test_quote_stretches_come_best_first_each_in_order() -> None:
    hits = {
        "quotes": [
            Hit(quote(20, "The supplier confirmed the rubber casing."), 0.9),
            Hit(quote(21, "It costs two euros more per unit.", "Ben"), 0.5),
            Hit(quote(3, "We met the designers on Monday."), 0.6),
            Hit(quote(4, "They showed three prototypes.", "Ben"), 0.4),
        ],
    }
    result = composer().compose(hits, {"quotes": 1.0}, ("quotes",), 200, 0.0, Trace("q"))
    assert result.text.splitlines() == [
        "Quotes (verbatim messages):",
        "[L0 #20-21]",
        "Ana: The supplier confirmed the rubber casing.",
        "Ben: It costs two euros more per unit.",
        "[L0 #3-4]",
        "Ana: We met the designers on Monday.",
        "Ben: They showed three prototypes.",
    ]
    assert [item.id for item in context_items(result.placed)] == ["m20", "m21", "m3", "m4"]


@settings(max_examples=100, deadline=None)
@composition_cases(SENTENCES, 10, 200)
def test_property_items_prepared_in_advance_compose_as_items_met_cold(
    texts: list[str], levels: list[int], budget: int
) -> None:
    hits = hits_by_block(texts, levels, speakers=True)
    prepared = composer()
    prepared.prepare(hit.item for pool in hits.values() for hit in pool)
    outcomes = []
    for each in (composer(), prepared, prepared):  # cold, prepared, then warm from a query
        trace = Trace("q")
        result = each.compose(hits, QUOTAS, ORDER, budget, 0.0, trace)
        shown = [(p.hit.item.id, p.block, p.shown) for p in result.placed]
        outcomes.append((result.text, result.tokens, result.spend, shown, trace.rejected))
    assert outcomes[0] == outcomes[1] == outcomes[2]
