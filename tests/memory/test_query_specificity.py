"""How specific a question is for the memory asked: a summary whose leftover words the memory
uses everywhere, or never, is broad; one that names a rare word, a number, an unknown name, a
topic after "about", or asks when or which, is precise; without a memory only the cues decide.
Scope phrases to date ("so far", "bis heute") are no topic and set no window."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory import MemoryRetriever, build_memory
from rerank_plus.memory.query import Vocabulary, analyze_query
from rerank_plus.memory.query.specificity import COMMON_MESSAGES, COMMON_SHARE

from tests.memory.query_moment import NOW, analyze

#: A chat where "mate" is everywhere and "kayak" said once.
LINES = [
    "cheers mate, see you at the pub",
    "mate the match was brilliant",
    "we should book the kayak trip for June",
    "no worries mate",
    "the train was late again",
    "mate did you get the tickets",
    "my sister moved to Leeds",
    "proper rainy day mate",
    "I fixed the bike brakes",
    "lunch on Friday mate?",
    "the new flat has a garden",
    "mate you won't believe it",
]


@pytest.fixture(scope="module")
def retriever() -> MemoryRetriever:
    start = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
    messages = [
        {"speaker": ("Tom", "Sam")[i % 2], "text": text, "time": start.replace(hour=9 + i)}
        for i, text in enumerate(LINES)
    ]
    return MemoryRetriever(build_memory(messages))


def _asked(retriever: MemoryRetriever, query: str):
    index = retriever.index()
    return analyze_query(
        query,
        NOW,
        known_entities=index.known_entities,
        analyzer=retriever.analyzer,
        vocabulary=index.vocabulary,
    )


def test_a_word_is_common_from_its_share_of_the_messages_and_a_few_messages() -> None:
    needed = max(COMMON_MESSAGES, round(COMMON_SHARE * 120 + 0.5))
    vocabulary = Vocabulary(120, {"often": needed, "seldom": needed - 1})
    assert vocabulary.is_common("often") and not vocabulary.is_common("seldom")
    assert vocabulary.share("often") == needed / 120
    small = Vocabulary(10, {"twice": COMMON_MESSAGES - 1})
    assert not small.is_common("twice")  # 20% of ten messages, but said twice only
    assert Vocabulary(0, {}).share("x") == 0.0


def test_the_index_counts_a_speaker_as_a_word_of_each_message_they_wrote(
    retriever: MemoryRetriever,
) -> None:
    vocabulary = retriever.index().vocabulary
    assert vocabulary.messages == len(LINES)
    assert vocabulary.counts["tom"] == len(LINES) // 2
    assert vocabulary.counts["kayak"] == 1


def test_a_summary_left_with_a_word_common_in_the_memory_is_synthesis(
    retriever: MemoryRetriever, analyzer: Analyzer
) -> None:
    asked = _asked(retriever, "Give me the overview, mate")
    assert asked.intent == "synthesis"
    assert "unspecific to this memory" in asked.reason and "'mate'" in asked.reason
    # read alone, no memory says "mate" is common: the cue lists decide
    assert analyze("Give me the overview, mate", analyzer).intent == "detail"


def test_a_summary_left_with_a_word_no_message_uses_is_synthesis(
    retriever: MemoryRetriever,
) -> None:
    """Nothing in the memory is about "whatnot": it narrows nothing."""
    asked = _asked(retriever, "Give me the overview and whatnot")
    assert asked.intent == "synthesis"
    assert "'whatnot' 0%" in asked.reason


@pytest.mark.parametrize(
    "query",
    [
        "Give me the overview of the kayak trip",  # a word one message says
        "Summarize what was said about mate",  # a topic named after "about"
        "Give me the overview, mate, of 2019",  # a number
        "Give me the overview, mate, of Kubernetes",  # a name the memory does not know
        "When did they summarize the match, mate?",  # a time cue
    ],
)
def test_a_summary_narrowed_by_a_rare_word_a_topic_or_a_number_is_detail(
    retriever: MemoryRetriever, query: str
) -> None:
    assert _asked(retriever, query).intent == "detail"


@pytest.mark.parametrize(
    ("query", "language"),
    [
        ("what's the big picture so far", "en"),
        ("Can you give me a summary of everything until now?", "en"),
        ("Fais-moi un résumé de tout ce qui a été dit jusqu'ici", "fr"),
        ("Worum ging es bisher?", "de"),
        ("¿Qué pasó hasta ahora?", "es"),
        ("至今他们聊了什么?", "zh"),
    ],
)
def test_a_phrase_to_date_is_scope_not_the_topic(
    query: str, language: str, analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert (qa.intent, qa.keywords, qa.window) == ("synthesis", (), None), qa.reason


def test_a_scope_phrase_that_holds_a_time_sets_no_window(analyzer: Analyzer) -> None:
    """ "bis heute" is the memory to date, not today's messages only."""
    qa = analyze("zusammenfassen was bis heute besprochen wurde", analyzer)
    assert (qa.intent, qa.window) == ("synthesis", None)
    assert analyze("was wurde heute besprochen", analyzer).window is not None


def test_the_trace_of_a_retrieval_names_the_shape(retriever: MemoryRetriever) -> None:
    context = retriever.retrieve("When did Tom's sister move to Leeds?", 200, now=NOW)
    (step,) = [step for step in context.trace.steps if step["step"] == "query"]
    assert step["shape"] == "time"
    assert "time question" in step["reason"]
