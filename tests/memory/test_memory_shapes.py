"""A detail question's shape (time, list, current) read through its own policy: the profile's
``memory.shapes``, the lead quotes, breadth across sessions, the newest statements first."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from rerank_plus.memory import MemoryItem, MemoryRetriever, build_memory, memory_profile
from rerank_plus.memory.context.quote_order import ABOUT_THE_SUBJECT, newest_about_first
from rerank_plus.memory.context.state import Placed
from rerank_plus.memory.policy import SHAPED
from rerank_plus.memory.query.shape import SHAPES
from rerank_plus.memory.retrieve.search import Hit
from rerank_plus.memory.retrieve.shapes import NEWEST_FIRST

START = datetime(2024, 3, 4, 19, 0, tzinfo=UTC)
SMALL_TALK = [
    "The weather has been grey all week and I miss the sun.",
    "I am trying a new soup recipe tonight with red lentils.",
    "Did you watch the last episode of that detective series?",
    "My neighbour started drilling at seven this morning again.",
    "The train was late again and I stood on the platform.",
    "We ordered pizza and watched a silly comedy on the sofa.",
]
#: Per session (one a week), what Ana says besides small talk.
SAID = [
    ["Our flat in Reading is a tiny flat, but I love the quiet flat we have."],
    ["We just got back from our trip to Lisbon, the old trams were wonderful."],
    ["We adopted a dog yesterday and his name is Biscuit.", "Biscuit slept all evening."],
    ["Our weekend trip to Ghent was great, the canals were lovely at night."],
    ["Biscuit chewed one of my shoes this morning, what a dog."],
    ["We finally moved to a bigger flat in Oxford, boxes are everywhere."],
    ["Back from a trip to Kraków where the market square was full of flowers."],
]


def chat() -> list[dict[str, str]]:
    """Seven weekly sessions of eight messages: small talk around what Ana says."""
    messages = []
    for week, said in enumerate(SAID):
        moment = START + timedelta(days=7 * week)
        lines = [*said, *SMALL_TALK[: 8 - len(said)]]
        for n, text in enumerate(lines):
            speaker = "Ana" if n < len(said) or n % 2 else "Ben"
            at = (moment + timedelta(minutes=3 * n)).isoformat()
            messages.append({"speaker": speaker, "text": text, "time": at})
    return messages


@pytest.fixture(scope="module")
def retriever() -> MemoryRetriever:
    return MemoryRetriever(build_memory(chat()))


NOW = START + timedelta(days=60)


def quote_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith(("Ana:", "Ben:"))]


def test_every_shape_the_analysis_reads_but_plain_has_a_policy():
    assert set(SHAPED) == set(SHAPES) - {"plain"}


def test_every_shape_has_a_policy_built_on_detail_and_the_profile_changes_it():
    profile = memory_profile(
        {"memory": {"detail": {"min_relevance": 0.3}, "shapes": {"list": {"drill_m": 1}}}}
    )
    assert set(profile.shapes) == {"time", "list", "current"}
    for shape, policy in profile.shapes.items():
        assert (policy.intent, policy.shape) == ("detail", shape)
        assert policy.min_relevance == 0.3  # detail's, as the profile gives it
        # over days, a current state cuts nothing under the best score
        over_days = profile.policy("detail", shape, across_days=True)
        assert over_days.min_relevance == (0.0 if shape == "current" else 0.3)
        assert profile.policy("detail", shape) is policy
        assert profile.policy("synthesis", shape) is profile.policies["synthesis"]
    assert profile.shapes["list"].drill_m == {"small": 1, "medium": 1, "large": 1}
    given = memory_profile({"memory": {"shapes": {"current": {"min_relevance": 0.3}}}})
    # the profile's shape section wins, over days too
    assert given.policy("detail", "current", across_days=True).min_relevance == 0.3
    assert profile.policy("detail", "plain") is profile.policies["detail"]
    detail = profile.policies["detail"]
    # a shape's lead quotes: several best messages before any stretch; breadth for a list
    assert all(
        profile.shapes[shape].lead_quotes[tier] > detail.lead_quotes[tier]
        for shape in ("time", "list", "current")
        for tier in ("small", "medium", "large")
    )
    assert profile.shapes["list"].lead_breadth and not profile.shapes["time"].lead_breadth
    assert profile.shapes["list"].drill_order == "round_robin"
    assert profile.shapes["current"].quote_order == "newest_first"
    assert detail.quote_order == "best_first"


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"shapes": {"when": {}}}, "Unknown key 'when' in memory.shapes; valid keys: time"),
        ({"shapes": {"time": {"lead_quotes": 3}}}, "in memory.shapes.time; valid keys: quotas"),
        ({"shapes": {"list": {"mmr_lambda": 2}}}, r"memory.shapes.list.mmr_lambda must be"),
    ],
)
def test_a_bad_shape_section_names_the_place_and_the_valid_keys(section, message):
    with pytest.raises(ValueError, match=message):
        memory_profile({"memory": section})


def test_shapes_false_gives_every_detail_question_detail_s_policy(retriever):
    off = memory_profile({"memory": {"shapes": False}})
    assert off.shapes == {} and off.policy("detail", "list") is off.policies["detail"]
    plain = MemoryRetriever(retriever.memory, profile=off)
    question = "Which flat does Ana live in now?"
    ask = {"max_tokens": 400, "now": NOW, "intent": "detail"}
    assert plain.retrieve(question, shape="current", **ask).text == (
        retriever.retrieve(question, shape="plain", **ask).text
    )


def test_a_shape_given_as_a_profile_says_how_to_force_it():
    with pytest.raises(ValueError, match=r"to force a shape, retrieve\(question, shape='list'\)"):
        memory_profile("list")


def test_an_unknown_forced_shape_lists_the_shapes(retriever):
    with pytest.raises(ValueError, match="Unknown shape 'when'; choose one of plain, time, list"):
        retriever.retrieve("When did Ana adopt Biscuit?", shape="when")


def test_a_time_question_leads_with_the_best_messages_each_under_its_own_date(retriever):
    question = "When did Ana adopt the dog Biscuit?"
    context = retriever.retrieve(question, max_tokens=160, now=NOW, intent="detail", shape="time")
    lines = context.text.split("\n")
    answer = next(n for n, line in enumerate(lines) if "adopted a dog" in line)
    header = next(line for line in lines[answer::-1] if line.startswith("[L0"))
    assert "2024-03-18" in header  # the third week's session
    assert any(step["step"] == "shape" for step in context.trace.to_dict()["steps"])
    leads = [item.id for item in context.items if item.block == "quotes"]
    biscuit = [item.id for item in retriever.memory.messages if "Biscuit" in item.text]
    assert set(biscuit) <= set(leads)  # every message naming him, from two sessions


def _windows(retriever: MemoryRetriever, context) -> set[str]:
    window_of = retriever.index().window_of
    return {window_of[item.id].id for item in context.items if item.block == "quotes"}


def test_a_list_question_reads_at_least_the_sessions_a_plain_one_reads(retriever):
    """In a chat kept over days a plain question leads with single messages from anywhere too
    (``lead_quotes_across_days``); the list's leads are one per window."""
    question = "Which trips has Ana taken?"
    ask = {"max_tokens": 200, "now": NOW, "intent": "detail"}
    listed = retriever.retrieve(question, shape="list", **ask)
    plain = retriever.retrieve(question, shape="plain", **ask)
    assert len(_windows(retriever, listed)) >= len(_windows(retriever, plain))
    (leads,) = [step for step in listed.trace.steps if step["step"] == "lead_quotes"]
    window_of = retriever.index().window_of
    assert len({window_of[item].id for item in leads["ids"]}) == len(leads["ids"])
    for city in ("Lisbon", "Ghent", "Kraków"):
        assert city in listed.text


def test_a_current_question_shows_the_newest_statement_first_and_says_so(retriever):
    question = "Which flat does Ana live in?"
    ask = {"max_tokens": 400, "now": NOW, "intent": "detail"}
    current = retriever.retrieve(question, shape="current", **ask)
    lines = quote_lines(current.text)
    moved = next(n for n, line in enumerate(lines) if "flat in Oxford" in line)
    before = next(n for n, line in enumerate(lines) if "flat in Reading" in line)
    assert moved < before
    assert NEWEST_FIRST in current.guidance.notes
    plain = retriever.retrieve(question, shape="plain", **ask)
    lines = quote_lines(plain.text)  # best first: the older statement names the flat more
    assert next(n for n, line in enumerate(lines) if "flat in Reading" in line) < next(
        n for n, line in enumerate(lines) if "flat in Oxford" in line
    )
    assert NEWEST_FIRST not in plain.guidance.notes


def test_a_current_question_cuts_no_statement_under_the_best_score(retriever):
    """A changed fact's statements often share no word with the question ("first night in
    our new place in Croydon"): a word used in another sense sets the best score, so no
    statement is cut for falling far under it; a plain detail question keeps its cut-off."""
    question = "Which flat does Ana live in?"
    ask = {"max_tokens": 400, "now": NOW, "intent": "detail"}

    def cut(shape: str) -> list[str]:
        rejected = retriever.retrieve(question, shape=shape, **ask).trace.rejected
        return [entry["id"] for entry in rejected if "cutoff" in entry["reason"]]

    assert cut("plain")
    assert cut("current") == []


def test_a_current_question_of_one_sitting_keeps_detail_s_cut_off():
    """In one sitting (a meeting) a current question is one region's discussion: detail's
    settings hold."""
    sitting = [
        {**message, "time": (START + timedelta(minutes=n)).isoformat()}
        for n, message in enumerate(chat())
    ]
    retriever = MemoryRetriever(build_memory(sitting))
    question = "Which flat does Ana live in?"
    ask = {"max_tokens": 400, "now": NOW, "intent": "detail"}
    for shape in ("plain", "current"):
        rejected = retriever.retrieve(question, shape=shape, **ask).trace.rejected
        assert any("cutoff" in entry["reason"] for entry in rejected), shape


@pytest.mark.parametrize(
    ("question", "intent", "shape"),
    [
        # "aktuell" is a recency and a current-state cue: with a topic, what holds now of it
        ("Was ist der aktuelle Termin für den Start der Buchungsseite?", "detail", "current"),
        ("What is the current date of the festival?", "detail", "current"),
        ("Quelle est la date actuelle du lancement ?", "detail", "current"),
        # no topic: what is new
        ("Was gibt's Neues?", "recent", "plain"),
        ("What's new?", "recent", "plain"),
        ("Was ist aktuell?", "recent", "plain"),
    ],
)
def test_a_recency_cue_beside_a_current_state_cue_and_a_topic_asks_what_holds_now(
    retriever, question, intent, shape
):
    result = retriever.retrieve(question, max_tokens=400, now=NOW)
    read = result.trace.steps[0]
    assert (read["intent"], read["shape"]) == (intent, shape), read["reason"]


def consecutive(before: MemoryItem, after: MemoryItem) -> bool:
    return after.index == before.index + 1


def placed(index: int, score: float, day: int) -> Placed:
    item = MemoryItem(f"m{index}", 0, index, f"message {index}", time=START + timedelta(days=day))
    return Placed(Hit(item, score), "quotes", item.text)


def test_stretches_about_the_subject_come_newest_first_the_rest_best_first():
    members = [
        placed(1, 0.9, 1),  # the best, said first
        placed(2, 0.2, 1),  # its stretch goes on
        placed(10, 0.6, 9),  # about the subject, said last
        placed(20, 0.3, 20),  # newest of all, but small talk
        placed(30, 0.4, 12),
    ]
    order = [entry.hit.item.index for entry in newest_about_first(members, consecutive)]
    assert order == [10, 1, 2, 30, 20]
    assert 0.3 < ABOUT_THE_SUBJECT * 0.9 <= 0.6
    assert newest_about_first([], consecutive) == []


def test_statements_of_one_sitting_or_without_times_stay_best_first():
    untimed = [MemoryItem(f"m{i}", 0, i, f"message {i}") for i in (3, 8)]
    members = [
        Placed(Hit(item, score), "quotes", "")
        for item, score in zip(untimed, (1, 0.9), strict=True)
    ]
    assert [e.hit.item.index for e in newest_about_first(members, consecutive)] == [3, 8]
    same_day = [placed(3, 1.0, 2), placed(8, 0.9, 2)]
    assert [e.hit.item.index for e in newest_about_first(same_day, consecutive)] == [3, 8]


def test_every_shape_keeps_the_budget_and_quotes_each_message_once(retriever):
    for shape in ("plain", "time", "list", "current"):
        for budget in (40, 160, 700):
            context = retriever.retrieve(
                "Which cities has Ana visited?", max_tokens=budget, now=NOW, shape=shape
            )
            assert context.tokens <= budget
            ids = [item.id for item in context.items]
            assert len(ids) == len(set(ids))
            assert not re.search(r"\n\n\n", context.text)


def _lead_count(retriever: MemoryRetriever, question: str, max_tokens: int) -> int:
    context = retriever.retrieve(question, max_tokens=max_tokens, now=NOW, shape="plain")
    steps = [step for step in context.trace.steps if step["step"] == "lead_quotes"]
    return steps[0]["count"] if steps else 0


@pytest.mark.parametrize("max_tokens", [200, 2000, 5000])
def test_a_chat_kept_over_days_leads_with_more_single_messages_than_one_sitting(max_tokens):
    """The same messages said over seven weeks or within one evening: over days, a precise
    question's best single messages from anywhere lead (at least ``lead_quotes_across_days``,
    never fewer than ``lead_quotes``); in one sitting, detail's ``lead_quotes``."""
    over_days = MemoryRetriever(build_memory(chat()))
    one_evening = MemoryRetriever(
        build_memory(
            [
                {**message, "time": (START + timedelta(minutes=n)).isoformat()}
                for n, message in enumerate(chat())
            ]
        )
    )
    detail = over_days.profile.policy("detail")
    tier = over_days.profile.tier(max_tokens)
    question = "Which flat does Ana live in?"
    assert _lead_count(one_evening, question, max_tokens) == detail.lead_quotes[tier]
    assert _lead_count(over_days, question, max_tokens) == max(
        detail.lead_quotes[tier], detail.lead_quotes_across_days[tier]
    )
    assert detail.lead_quotes_across_days[tier] >= detail.lead_quotes[tier]
