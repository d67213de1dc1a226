"""MemoryRetriever end to end on hand-made memories: intents, windows, entities, budgets, trace."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import BM25Reranker, Cascade, Reranker
from rerank_plus.memory import (
    Memory,
    MemoryItem,
    MemoryProfile,
    MemoryRetriever,
    build_memory,
    memory_profile,
)
from rerank_plus.memory.context.texts import ELISION
from rerank_plus.memory.index.text_cache import fold
from rerank_plus.memory.model.sentences import split_sentences
from rerank_plus.memory.retrieve.blocks import names_any, says_any
from rerank_plus.selection.budget import approximate_tokens

NOW = datetime(2024, 5, 10, 12, 0, tzinfo=UTC)

MESSAGES = [
    ("Ana", "Welcome everyone, today we plan the product launch in Lyon."),
    ("Ben", "The venue in Lyon costs 900 euros for two days."),
    ("Ana", "Marketing wants the launch moved to March because of the audit."),
    ("Chloe", "The audit found two security issues in the payment module."),
    ("Ben", "I can fix both payment issues by Friday."),
    ("Ana", "Then we keep March and announce the date next week."),
    ("Chloe", "The logo will be green and white, like the old one."),
    ("Ben", "Deploy command is make release at 00:18 tonight."),
]


def timed_memory(day_step: timedelta = timedelta(hours=12)) -> Memory:
    """Eight messages half a day apart (the last one at 00:18 on NOW's day), two windows, one
    top summary."""
    start = NOW.replace(hour=0, minute=18) - day_step * (len(MESSAGES) - 1)
    messages = [
        MemoryItem(f"m{i}", 0, i, text, speaker=speaker, time=start + day_step * i)
        for i, (speaker, text) in enumerate(MESSAGES)
    ]
    first, second = messages[:4], messages[4:]
    windows = [
        MemoryItem(
            "w0",
            1,
            0,
            f"{MESSAGES[0][1]}\n{MESSAGES[2][1]}",
            covers=tuple(m.id for m in first),
            time=first[0].time,
            end_time=first[-1].time,
        ),
        MemoryItem(
            "w1",
            1,
            1,
            f"{MESSAGES[4][1]}\n{MESSAGES[6][1]}",
            covers=tuple(m.id for m in second),
            time=second[0].time,
            end_time=second[-1].time,
        ),
    ]
    top = MemoryItem(
        "t0",
        2,
        0,
        f"{MESSAGES[0][1]}\n{MESSAGES[4][1]}",
        covers=("w0", "w1"),
        time=first[0].time,
        end_time=second[-1].time,
    )
    return Memory([*messages, *windows, top])


def untimed_memory() -> Memory:
    return Memory(
        [
            MemoryItem(
                item.id, item.level, item.index, item.text, covers=item.covers, speaker=item.speaker
            )
            for item in timed_memory().items
        ]
    )


@pytest.fixture(scope="module")
def retriever() -> MemoryRetriever:
    return MemoryRetriever(timed_memory())


def test_a_detail_question_gets_the_verbatim_line(retriever: MemoryRetriever) -> None:
    context = retriever.retrieve("How much does the venue cost?", max_tokens=300, now=NOW)
    assert context.intent == "detail"
    quotes = [item for item in context.items if item.block == "quotes"]
    assert quotes[0].id == "m1" and quotes[0].speaker == "Ben" and quotes[0].level == 0
    assert "Ben: The venue in Lyon costs 900 euros for two days." in context.text
    assert "Quotes (verbatim messages):" in context.text
    assert context.tokens == approximate_tokens(context.text) <= 300
    assert context.guidance.quotes >= 1
    assert quotes[0].metadata()["block"] == "quotes"


def test_a_question_about_the_whole_memory_is_answered_from_summaries(
    retriever: MemoryRetriever,
) -> None:
    context = retriever.retrieve("Summarize the whole meeting.", max_tokens=400, now=NOW)
    assert context.intent == "synthesis"
    blocks = [item.block for item in context.items]
    assert blocks[0] == "overview" and context.items[0].id == "t0"
    assert "Overview (summaries):" in context.text.splitlines()[0]
    assert context.guidance.summaries >= 1
    assert "summaries" in context.guidance.basis


def test_since_yesterday_keeps_messages_and_windows_inside_the_window(
    retriever: MemoryRetriever,
) -> None:
    context = retriever.retrieve("What's new since yesterday?", max_tokens=400, now=NOW)
    assert context.intent == "recent"
    start = datetime(2024, 5, 9, tzinfo=UTC)
    for item in context.items:
        if item.level <= 1:
            assert (item.item.end_time or item.time) >= start
    window = next(s for s in context.trace.steps if s["step"] == "time_window")
    assert window["applied"] is True


def test_a_french_clock_time_finds_the_command(retriever: MemoryRetriever) -> None:
    context = retriever.retrieve("quelle commande à 00:18 ?", max_tokens=300, now=NOW)
    assert context.intent == "detail"
    assert "make release" in context.text


def test_recent_without_times_falls_back_to_the_latest_messages_and_says_so() -> None:
    context = MemoryRetriever(untimed_memory()).retrieve("what's new?", max_tokens=300, now=NOW)
    assert context.intent == "recent"
    assert "recency is read from the order of messages" in str(context.guidance)
    assert all(item.index >= 6 for item in context.items if item.level == 0)


def test_an_entity_question_quotes_only_messages_that_name_it(retriever: MemoryRetriever) -> None:
    context = retriever.retrieve("Where do we talk about Lyon?", max_tokens=400, now=NOW)
    assert context.intent == "entity"
    quotes = [item for item in context.items if item.block == "quotes"]
    assert quotes and all("Lyon" in item.text for item in quotes)


def test_a_forced_intent_wins_over_the_reading(retriever: MemoryRetriever) -> None:
    context = retriever.retrieve("payment issues", max_tokens=400, intent="synthesis", now=NOW)
    assert context.intent == "synthesis"
    assert context.trace.to_dict()["steps"][0]["detected_intent"] == "detail"


def test_the_final_reranker_orders_the_best_candidates(retriever: MemoryRetriever) -> None:
    staged = MemoryRetriever(timed_memory(), final_reranker=BM25Reranker(), final_candidates=3)
    context = staged.retrieve("payment issues by Friday", max_tokens=300, now=NOW)
    steps = [s for s in context.trace.to_dict()["steps"] if s["step"] == "final_rerank"]
    assert steps and all(len(step["scores"]) <= 3 for step in steps)
    assert "payment issues by Friday" in context.text


def test_what_a_cascade_final_stage_cuts_is_kept_after_what_it_returns() -> None:
    said = [
        f"The payment of invoice {n} is due on Friday, says the supplier."
        if n % 3 == 0
        else f"We discussed the venue and the catering for day {n} of the trip."
        for n in range(36)
    ]
    memory = build_memory(said, window_words=40, min_window_words=20)
    question = "When is the payment of the invoice due?"

    def stages(final: Reranker) -> tuple[list[list[object]], set[str]]:
        retriever = MemoryRetriever(memory, final_reranker=final, final_candidates=6)
        context = retriever.retrieve(question, max_tokens=3000, intent="detail")
        steps = context.trace.to_dict()["steps"]
        scores = [s["scores"] for s in steps if s["step"] == "final_rerank"]
        return scores, {item.id for item in context.items}

    judged_all, everything = stages(BM25Reranker())
    judged_one, kept = stages(Cascade([BM25Reranker()], keep=[1]))
    assert max(len(scores) for scores in judged_all) == 6
    assert all(len(scores) == 1 for scores in judged_one)
    assert kept == everything  # what the cut left out still reaches the blocks


def test_the_trace_is_json_and_is_logged(
    retriever: MemoryRetriever, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="rerank_plus.memory"):
        context = retriever.retrieve("When is the launch?", max_tokens=120, now=NOW)
    data = json.loads(json.dumps(context.trace.to_dict()))
    steps = [s["step"] for s in data["steps"]]
    assert steps[0] == "query" and "search" in steps
    assert data["steps"][0]["shape"] == "current"  # "when is" a date that may still move
    assert steps[1] == "shape"  # the shape's policy, named
    assert set(data["timings_ms"]) >= {"query", "search", "compose"}
    assert any(r["reason"] for r in data["rejected"])
    assert data.get("spend")
    assert any("memory query" in record.getMessage() for record in caplog.records)


def test_aretrieve_gives_the_same_context(retriever: MemoryRetriever) -> None:
    sync = retriever.retrieve("When is the launch?", max_tokens=200, now=NOW)
    result = asyncio.run(retriever.aretrieve("When is the launch?", max_tokens=200, now=NOW))
    assert result.text == sync.text


def test_a_memory_that_grows_is_reindexed() -> None:
    memory = untimed_memory()
    retriever = MemoryRetriever(memory)
    assert "kiwi" not in retriever.retrieve("kiwi", max_tokens=200).text
    memory.replace([*memory.items, MemoryItem("m8", 0, 8, "We ordered kiwi juice.")])
    assert "kiwi juice" in retriever.retrieve("kiwi juice", max_tokens=200).text


# -- bad input ---------------------------------------------------------------------------------


def test_an_empty_memory_gives_an_empty_context_that_says_so() -> None:
    context = MemoryRetriever(Memory()).retrieve("anything", max_tokens=100)
    assert context.text == "" and context.items == ()
    assert context.guidance.notes == ("The memory is empty.",)


@pytest.mark.parametrize("query", ["", "   ", "\n\t "])
@pytest.mark.parametrize("intent", [None, "detail", "entity"])
def test_an_empty_question_gives_an_empty_context_that_says_so(
    retriever: MemoryRetriever, query: str, intent: str | None
) -> None:
    """Not the memory's opening messages under "Answer from verbatim quotes": nothing, and
    the guidance says why and what to ask instead."""
    context = retriever.retrieve(query, max_tokens=150, intent=intent, now=NOW)
    assert (context.text, context.items, context.tokens) == ("", (), 0)
    assert context.intent == (intent or "detail")
    assert context.guidance.basis == "nothing"
    (note,) = context.guidance.notes
    assert note.startswith("The question is empty: nothing was retrieved.")
    assert "intent='synthesis'" in note and "intent='recent'" in note
    assert context.trace.to_dict()["steps"][-1] == {"step": "empty", "reason": note}


@pytest.mark.parametrize("intent", ["synthesis", "recent"])
def test_an_empty_question_with_an_intent_that_needs_no_subject_gets_its_context(
    retriever: MemoryRetriever, intent: str
) -> None:
    context = retriever.retrieve("", max_tokens=150, intent=intent, now=NOW)
    assert context.items and context.intent == intent and 0 < context.tokens <= 150


def test_a_budget_smaller_than_a_header_gives_nothing_and_says_why(
    retriever: MemoryRetriever,
) -> None:
    context = retriever.retrieve("venue cost", max_tokens=2, now=NOW)
    assert context.text == ""
    assert "smaller than one item with its header" in str(context.guidance)


def test_a_naive_now_is_taken_as_utc(retriever: MemoryRetriever) -> None:
    naive = retriever.retrieve(
        "What's new since yesterday?", max_tokens=300, now=NOW.replace(tzinfo=None)
    )
    aware = retriever.retrieve("What's new since yesterday?", max_tokens=300, now=NOW)
    assert naive.text == aware.text


def stretch_memory(talk_goes_on: bool = True) -> Memory:
    """Three windows that keep talking about the venue deposit (or the second turns to small
    talk), and one short message, in a window about catering, that gives its amount."""
    venue = [
        "The venue deposit terms in euros are in the contract.",
        "The venue deposit in euros covers chairs.",
        "The venue opens its doors at nine.",
        "Parking at the venue is free for guests.",
        "The venue manager wants the final plan soon.",
        "Lights at the venue are included.",
    ]
    catering = [
        "Catering sends the menu tomorrow.",
        "The menu has a vegan option.",
        "Dessert will be a lemon tart.",
        "Coffee comes after the speeches.",
        "Venue deposit: 400 euros.",
        "Waiters arrive at six.",
    ]
    return windows_of_six(
        [
            *catering[:4],
            "Tickets go on sale in April.",
            "The poster is nearly done.",
            *venue,
            *(venue[::-1] if talk_goes_on else SMALL_TALK),
            *[text.replace("venue", "hall") for text in venue],
            *catering,
        ]
    )


SMALL_TALK = [
    "Tickets go on sale in April.",
    "The poster is nearly done.",
    "The band rehearses on Friday.",
    "Flyers go out next week.",
    "The website lists the speakers.",
    "Photos will be shared after.",
]


def windows_of_six(texts: list[str]) -> Memory:
    """Messages in windows of six, each summarized by its first two messages."""
    messages = [MemoryItem(f"m{i}", 0, i, text) for i, text in enumerate(texts)]
    windows = [
        MemoryItem(
            f"w{w}",
            1,
            w,
            " ".join(texts[w * 6 : w * 6 + 2]),
            covers=tuple(f"m{i}" for i in range(w * 6, w * 6 + 6)),
        )
        for w in range(len(texts) // 6)
    ]
    return Memory([*messages, *windows])


#: No lead quote at any size tier.
NONE = {"small": 0, "medium": 0, "large": 0}


def detail_strategy(**changes: object) -> MemoryProfile:
    """The ready-made profile with the detail intent's strategy changed (it is no setting)."""
    ready = memory_profile()
    policies = {**ready.policies, "detail": replace(ready.policies["detail"], **changes)}
    return MemoryProfile(policies, ready.tiers, ready.fusion)


def test_the_best_message_found_anywhere_leads_a_small_detail_context() -> None:
    """The region drilled first (the stretch about the deposit) fills a small budget; the one
    message that answers sits elsewhere and still comes first."""
    question = "How many euros is the venue deposit?"
    context = MemoryRetriever(stretch_memory()).retrieve(question, max_tokens=80)
    assert context.intent == "detail"
    assert context.items[0].id == "m28"  # the message that answers, before the drilled stretch
    drill_only = MemoryRetriever(
        stretch_memory(), profile=detail_strategy(lead_quotes=NONE)
    ).retrieve(question, max_tokens=80)
    assert "400 euros" not in drill_only.text and "400 euros" in context.text
    regions = next(step for step in context.trace.to_dict()["steps"] if step["step"] == "regions")
    assert regions["top"][0][0] == "w1"  # the answer's window (w4) is not the region drilled


def test_a_small_budget_drills_the_lead_s_window_over_a_neighbour_off_the_subject() -> None:
    """The best region's next window turns to small talk: the window of the message that
    answers ranks above it and is drilled in its place; without a lead quote it is not."""
    question = "How many euros is the venue deposit?"

    def drilled(profile: MemoryProfile | None = None) -> list[str]:
        retriever = MemoryRetriever(stretch_memory(talk_goes_on=False), profile=profile)
        steps = retriever.retrieve(question, max_tokens=80).trace.to_dict()["steps"]
        return next(step for step in steps if step["step"] == "drill_down")["parents"]

    assert drilled() == ["w1", "w4"]
    steps = MemoryRetriever(stretch_memory(talk_goes_on=False)).retrieve(question, max_tokens=80)
    swap = next(s for s in steps.trace.to_dict()["steps"] if s["step"] == "lead_window")
    assert swap == {"step": "lead_window", "message": "m28", "window": "w4", "instead_of": "w2"}
    assert drilled(detail_strategy(lead_quotes=NONE)) == ["w1", "w2"]
    # where the talk goes on, the next window ranks above the answer's and stays
    steps = MemoryRetriever(stretch_memory()).retrieve(question, max_tokens=80).trace.to_dict()
    assert next(s for s in steps["steps"] if s["step"] == "drill_down")["parents"] == ["w1", "w2"]


def test_a_drilled_window_is_read_whole_though_its_words_miss_the_question() -> None:
    """Lexical only, the messages around the answer score 0: the dynamic cutoff passes them
    in a drilled window (the answer's neighbours), and still stops the others."""
    context = MemoryRetriever(stretch_memory(talk_goes_on=False)).retrieve(
        "How many euros is the venue deposit?", max_tokens=400
    )
    shown = [item.id for item in context.items]
    assert {"m24", "m25", "m26", "m27", "m28", "m29"} <= set(shown)  # the answer's window
    cut = {
        rejected["id"]
        for rejected in context.trace.to_dict()["rejected"]
        if rejected["reason"] == "below the dynamic cutoff"
    }
    assert "m0" in cut and not cut & set(shown)


def test_a_memory_of_raw_messages_alone_is_answered_from_them() -> None:
    memory = Memory([MemoryItem(f"m{i}", 0, i, text) for i, (_, text) in enumerate(MESSAGES)])
    context = MemoryRetriever(memory).retrieve("Summarize the meeting", max_tokens=200)
    assert context.items and all(item.level == 0 for item in context.items)
    assert "The memory has no summaries" in str(context.guidance)


def test_mixed_languages_and_emoji(retriever: MemoryRetriever) -> None:
    memory = Memory(
        [
            MemoryItem("m0", 0, 0, "Der Termin ist am Montag in Berlin."),
            MemoryItem("m1", 0, 1, "La réunion est reportée à jeudi."),
            MemoryItem("m2", 0, 2, "\U0001f389\U0001f389\U0001f389"),
            MemoryItem("m3", 0, 3, "The meeting moved to Thursday."),
        ]
    )
    mixed = MemoryRetriever(memory)
    assert "Berlin" in mixed.retrieve("Wann ist der Termin?", max_tokens=100).text
    assert "jeudi" in mixed.retrieve("quand est la réunion ?", max_tokens=100).text
    assert mixed.retrieve("\U0001f389", max_tokens=100).tokens <= 100


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda r: r.retrieve(42), TypeError, "query must be a str, got int."),
        (lambda r: r.retrieve("q", max_tokens=0), ValueError, "max_tokens must be a positive int"),
        (lambda r: r.retrieve("q", max_tokens=1.5), ValueError, "max_tokens must be a positive"),
        (lambda r: r.retrieve("q", intent="vague"), ValueError, "Unknown intent 'vague'; choose"),
        (lambda r: r.retrieve("q", now="tomorrow"), ValueError, "now: 'tomorrow' is not a time"),
    ],
)
def test_bad_arguments_say_how_to_fix(
    retriever: MemoryRetriever, call, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        call(retriever)


def test_bad_constructor_arguments_say_how_to_fix() -> None:
    with pytest.raises(
        TypeError, match=re.escape("memory must be a rerank_plus.memory.Memory, got list")
    ):
        MemoryRetriever([])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="reranker must be a rerank_plus Reranker"):
        MemoryRetriever(Memory(), reranker="bm25")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="token_counter must be a callable"):
        MemoryRetriever(Memory(), token_counter=5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="final_candidates must be an int >= 1"):
        MemoryRetriever(Memory(), final_candidates=0)


@pytest.mark.slow
def test_a_fifty_thousand_message_memory() -> None:
    words = ("alpha", "budget", "venue", "logo", "audit", "payment", "launch", "Lyon")
    messages = [
        MemoryItem(f"m{i}", 0, i, f"Note {i}: {words[i % 8]} and {words[(i * 3) % 8]} item {i}.")
        for i in range(50_000)
    ]
    windows = [
        MemoryItem(
            f"w{j}",
            1,
            j,
            messages[j * 50].text,
            covers=tuple(m.id for m in messages[j * 50 : j * 50 + 50]),
        )
        for j in range(1_000)
    ]
    top = [
        MemoryItem(
            f"t{k}",
            2,
            k,
            windows[k * 100].text,
            covers=tuple(w.id for w in windows[k * 100 : k * 100 + 100]),
        )
        for k in range(10)
    ]
    retriever = MemoryRetriever(Memory([*messages, *windows, *top]))
    context = retriever.retrieve("What did note 49999 say?", max_tokens=500)
    assert context.tokens <= 500 and "Note 49999" in context.text


# -- properties ----------------------------------------------------------------------------------

WORDS = ("launch", "venue", "Lyon", "audit", "logo", "payment", "March", "green", "Friday")
SENTENCE = st.lists(st.sampled_from(WORDS), min_size=1, max_size=7).map(
    lambda words: " ".join(words).capitalize() + "."
)


@st.composite
def memories(draw: st.DrawFn) -> Memory:
    texts = draw(st.lists(st.lists(SENTENCE, min_size=1, max_size=3), min_size=1, max_size=14))
    messages = [MemoryItem(f"m{i}", 0, i, " ".join(s)) for i, s in enumerate(texts)]
    size = draw(st.integers(2, 5))
    windows = []
    for j, start in enumerate(range(0, len(messages), size)):
        covered = messages[start : start + size]
        picked = [split_sentences(m.text)[0] for m in covered]
        windows.append(
            MemoryItem(f"w{j}", 1, j, "\n".join(picked), covers=tuple(m.id for m in covered))
        )
    return Memory([*messages, *windows])


@settings(max_examples=60, deadline=None)
@given(
    memory=memories(),
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join),
    budget=st.integers(1, 400),
    intent=st.sampled_from([None, "synthesis", "detail", "recent", "entity"]),
)
def test_property_within_budget_and_no_text_twice(
    memory: Memory, query: str, budget: int, intent: str | None
) -> None:
    context = MemoryRetriever(memory).retrieve(query, max_tokens=budget, intent=intent)
    assert approximate_tokens(context.text) <= budget
    owner: dict[str, str] = {}
    for item in context.items:
        assert item.shown and item.shown in context.text
        for sentence in {fold(s) for s in split_sentences(item.shown) if s != ELISION}:
            assert owner.setdefault(sentence, item.id) == item.id, "a sentence shown twice"


def test_a_summary_whose_summarizer_failed_is_named_in_the_guidance() -> None:
    def failing(text: str) -> str:
        raise RuntimeError("the LLM is down")

    from rerank_plus.memory import LLMSummarizer, build_memory

    memory = build_memory(
        [text for _, text in MESSAGES],
        summarizer=LLMSummarizer(failing),
        on_summary_error="extractive",
    )
    context = MemoryRetriever(memory).retrieve("Summarize the meeting", max_tokens=400)
    assert context.items
    assert "extractive stand-ins" in str(context.guidance)


def test_a_named_speakers_filler_does_not_name_them() -> None:
    """Asked about Ana, Ana's "Nice!" says nothing of her: the filler rule reads what a
    message says (``says_any``), not who said it (``names_any``)."""
    nice = MemoryItem("m1", 0, 1, "Nice!", speaker="Ana")
    called = MemoryItem("m2", 0, 2, "Ana?", speaker="Ben")
    assert names_any(nice, ["Ana"]) and not says_any(nice, ["Ana"])
    assert says_any(called, ["ana"])
