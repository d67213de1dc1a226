"""Coverage fill: sentences picked for the terms they add, per token, spread over sections."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from rerank_plus.memory import Memory, MemoryRetriever, build_memory
from rerank_plus.memory.context.compose import Composer
from rerank_plus.memory.context.coverage import Candidate, Coverage, Timeline, pick
from rerank_plus.memory.context.texts import ELISION
from rerank_plus.memory.index.salience import salience
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.sentences import split_sentences
from rerank_plus.memory.retrieve.search import Hit
from rerank_plus.memory.trace import Trace
from rerank_plus.selection.budget import approximate_tokens

from tests.memory.compose_cases import composition_cases, hits_by_block, shown_once


def candidate(
    sentence: int,
    terms: str,
    tokens: int = 5,
    item: str = "w0",
    section: str | None = None,
    form: str = "",
) -> Candidate:
    """A sentence of ``item`` whose header costs 2 tokens."""
    return Candidate(item, sentence, frozenset(terms.split()), tokens, 2, section, form)


def test_salience_grows_with_the_messages_that_use_a_term_but_damped() -> None:
    weights = salience({"budget": 99, "venue": 9, "lyon": 1})
    assert weights["budget"] > weights["venue"] > weights["lyon"] > 0
    assert weights["budget"] / weights["lyon"] < 10  # 99 times the messages, not the weight


def test_pick_prefers_new_weight_per_token_and_stops_when_nothing_is_new() -> None:
    weights = {"budget": 3.0, "venue": 2.0, "lyon": 1.0}
    short = candidate(0, "budget venue", tokens=4)
    long = candidate(1, "budget venue lyon", tokens=20)
    same = candidate(2, "budget", tokens=2)
    covered: set[str] = set()
    picked = pick([long, short, same], weights, 100, covered)
    assert [c.sentence for c in picked] == [0, 1]  # "budget" alone adds nothing after them
    assert covered == {"budget", "venue", "lyon"}


def test_pick_holds_the_allowance_header_included() -> None:
    weights = {"a": 1.0, "b": 1.0}
    first = candidate(0, "a", tokens=5)
    second = candidate(1, "b", tokens=5, item="w1")
    # 5 tokens + 2 for the header each: only one fits in 10
    assert len(pick([first, second], weights, 10, set())) == 1
    assert pick([first], weights, 6, set()) == []


def test_terms_already_shown_add_nothing() -> None:
    weights = {"budget": 5.0}
    assert pick([candidate(0, "budget")], weights, 100, {"budget"}) == []


def test_a_section_not_shown_yet_draws_the_next_pick() -> None:
    weights = {"budget": 3.0, "cost": 2.5, "logo": 1.0}
    first = candidate(0, "budget", section="s1")
    same_section = candidate(1, "cost", section="s1")
    other_section = candidate(2, "logo", section="s2", item="w1")
    # without the reward "cost" (2.5 per 5 tokens) beats "logo" (1 per 7: its header too)
    assert [c.sentence for c in pick([first, same_section, other_section], weights, 14, set())] == [
        0,
        2,
    ]
    assert [
        c.sentence for c in pick([first, same_section, other_section], weights, 14, set(), reward=0)
    ] == [0, 1]


def test_the_timeline_reward_grows_with_the_distance_to_what_is_shown_up_to_the_gap() -> None:
    timeline = Timeline({}, gap=0.2, weight=3.0)
    assert timeline.reward(0.5, [0.5]) == 0.0  # where something is shown already
    assert timeline.reward(0.6, [0.0, 0.5, 1.0]) == pytest.approx(1.5)  # half the gap away
    assert timeline.reward(0.1, [0.5]) == timeline.reward(0.9, [0.5]) == 3.0  # past the gap
    assert timeline.reward(0.3, []) == 3.0  # nothing shown: every place is far


def test_a_place_far_from_what_is_shown_draws_the_next_pick() -> None:
    weights = {"budget": 3.0, "cost": 2.5, "petition": 1.0}
    first = candidate(0, "budget", item="m0")
    next_door = candidate(0, "cost", item="m1")
    far_away = candidate(0, "petition", item="m9")
    timeline = Timeline({"m0": 0.5, "m1": 0.52, "m9": 0.0}, gap=0.1, weight=3.0)
    pool = [first, next_door, far_away]
    # by weight alone "cost" (2.5) comes next; the opening, far from the first pick, wins
    assert [c.item for c in pick(pool, weights, 14, set(), reward=0)] == ["m0", "m1"]
    shown: list[float] = []
    picked = pick(pool, weights, 14, set(), reward=0, timeline=timeline, shown_places=shown)
    assert [c.item for c in picked] == ["m0", "m9"]
    assert shown == [0.0, 0.5]  # the places shown, kept sorted for the next block's fill
    # what an earlier block showed counts: with the opening shown, the two others are picked
    again = pick(pool, weights, 14, set(), reward=0, timeline=timeline, shown_places=[0.0, 0.5])
    assert sorted(c.item for c in again) == ["m0", "m1"]


def test_relevance_multiplies_the_gain() -> None:
    weights = {"budget": 2.0, "logo": 2.0}
    a = candidate(0, "budget")
    b = candidate(1, "logo", item="w1")
    picked = pick([a, b], weights, 7, set(), relevance={"w0": 0.2, "w1": 1.0})
    assert [c.sentence for c in picked] == [1]


def test_a_sentence_said_twice_is_picked_once() -> None:
    weights = {"budget": 1.0}
    twice = [
        candidate(0, "budget", section="s1", form="budget agreed"),
        candidate(0, "budget", section="s2", form="budget agreed", item="w1"),
    ]
    assert len(pick(twice, weights, 100, set())) == 1


def test_no_candidate_gives_no_pick() -> None:
    assert pick([], {"a": 1.0}, 100, set()) == []


def coverage_of(
    items: list[MemoryItem],
    sections: dict[str, str] | None = None,
    timeline: Timeline | None = None,
) -> Coverage:
    """Terms: the lower-cased words of four letters or more of each sentence."""

    def terms_of(item: MemoryItem) -> tuple[frozenset[str], ...]:
        return tuple(
            frozenset(w.strip(".,!?").lower() for w in s.split() if len(w.strip(".,!?")) > 3)
            for s in split_sentences(item.text)
        )

    counts: Counter[str] = Counter()
    for item in items:
        counts.update(set().union(*terms_of(item)))
    weights = salience(counts)
    return Coverage(
        frozenset({"extracts", "quotes"}),
        weights,
        terms_of,
        False,
        sections or {},
        max(weights.values(), default=0.0),
        timeline,
    )


def test_a_coverage_block_shows_the_sentences_that_add_most_and_elides_the_rest() -> None:
    window = MemoryItem(
        "w0",
        1,
        0,
        "Yeah right okay then. The venue in Lyon costs nine hundred euros. "
        "The venue in Lyon costs nine hundred euros indeed. Marketing moves the launch to March.",
    )
    trace = Trace("q")
    result = Composer(approximate_tokens, {}, with_date=False).compose(
        {"extracts": [Hit(window, 1.0)]},
        {"overview": 0.0, "extracts": 1.0, "quotes": 0.0},
        ("extracts", "quotes", "overview"),
        60,
        0.0,
        trace,
        coverage=coverage_of([window]),
    )
    shown = result.placed[0].shown
    assert "Marketing moves the launch to March." in shown
    assert shown.count("The venue in Lyon") == 1 and "Yeah right" not in shown
    assert ELISION in shown
    assert result.tokens == approximate_tokens(result.text) <= 60
    assert any(step["step"] == "coverage" for step in trace.steps)


SENTENCES = st.sampled_from(
    [
        "The venue in Lyon costs nine hundred euros.",
        "Marketing wants the launch moved to March.",
        "The audit found two security issues today.",
        "Yes.",
        "🙂 🙂 🙂 🙂 🙂",
        "Ben will fix both payment issues by Friday.",
    ]
)


@settings(max_examples=150, deadline=None)
@composition_cases(SENTENCES, 10)
def test_property_coverage_never_over_budget_and_no_sentence_twice(
    texts: list[str], levels: list[int], budget: int
) -> None:
    hits = hits_by_block(texts, levels, speakers=True)
    items = [hit.item for pool in hits.values() for hit in pool]
    sections = {item.id: f"s{item.index // 3}" for item in items if item.level < 2}
    # every level on one timeline (a memory gives summaries above windows none)
    places = {item.id: item.index / max(len(items), 1) for item in items}
    result = Composer(approximate_tokens, {}, with_date=False).compose(
        hits,
        {"overview": 0.3, "extracts": 0.3, "quotes": 0.4},
        ("overview", "extracts", "quotes"),
        budget,
        0.0,
        Trace("q"),
        coverage=coverage_of(items, sections, Timeline(places, gap=0.2, weight=2.0)),
    )
    assert result.tokens == approximate_tokens(result.text) <= budget
    assert shown_once(result.placed)


TOPICS = {
    "venue": [
        "The venue in Lyon costs nine hundred euros for two days.",
        "Lyon venue has a stage, a kitchen and parking for the vans.",
        "We should book the Lyon venue before the prices rise in spring.",
    ],
    "audit": [
        "The security audit found two issues in the payment module.",
        "Both audit issues are in the payment module's refund path.",
        "Ben will patch the payment module before the audit closes.",
    ],
    "logo": [
        "The new logo stays green and white, like the old logo.",
        "Designers sent three logo drafts with a rounder font.",
        "Chloe prefers the second logo draft with the darker green.",
    ],
}


def three_topic_memory() -> Memory:
    return build_memory(
        [
            {"text": f"{line} " + "Yeah okay. " * 2, "speaker": ("Ana", "Ben", "Chloe")[n % 3]}
            for topic in TOPICS.values()
            for _ in range(4)
            for n, line in enumerate(topic)
        ],
        window_words=120,
    )


@pytest.mark.parametrize("budget", [120, 250])
def test_a_broad_question_covers_every_part_of_the_conversation(budget: int) -> None:
    context = MemoryRetriever(three_topic_memory()).retrieve(
        "Summarize the whole conversation", budget
    )
    assert context.intent == "synthesis"
    assert context.tokens <= budget
    for topic in TOPICS:
        assert topic in context.text.lower()


def test_a_broad_question_that_names_a_topic_covers_that_topic() -> None:
    context = MemoryRetriever(three_topic_memory()).retrieve(
        "the security audit of the payment module", 150, intent="synthesis"
    )
    extracts = [item.shown.lower() for item in context.items if item.block != "overview"]
    assert extracts and all("audit" in shown or "payment" in shown for shown in extracts)
    assert "logo" not in context.text.lower() and context.tokens <= 150


def test_ties_break_the_same_whatever_the_hash_seed() -> None:
    """Gains are summed over sets of terms, whose order follows the string hash seed: two
    sentences whose weights add up alike must tie in every process (the first in the pool
    wins), not differ in the last bit by the order they were summed in."""
    script = (
        "from rerank_plus.memory.context.coverage import Candidate, pick\n"
        "weights = {'a': 0.1, 'b': 0.2, 'c': 0.3, 'd': 0.3, 'e': 0.2, 'f': 0.1}\n"
        "first = Candidate('w0', 0, frozenset('abc'), 5, 0)\n"
        "second = Candidate('w1', 0, frozenset('def'), 5, 0)\n"
        "print(pick([first, second], weights, 5, set(), reward=0)[0].item)\n"
    )
    winners = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout.strip()
        for seed in range(12)
    }
    assert winners == {"w0"}
