"""LLM and precomputed summaries: real LlamaIndex and LangChain model classes, the prompt,
the cache, failures and the extractive fallback."""

from __future__ import annotations

import pytest
from rerank_plus.memory.ingest import (
    LLMSummarizer,
    PrecomputedSummaries,
    SummaryError,
    build_memory,
)
from rerank_plus.memory.model.sentences import split_sentences

from tests.memory.build_chats import topic_chat


class CountingLLM:
    """A callable model that counts its calls and answers with the prompt's first line."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return f"Summary {len(self.prompts)}: Ann and Bob discussed Lyon."


class BrokenLLM:
    def complete(self, prompt: str) -> object:
        raise ConnectionError("model server unreachable")


def test_a_llamaindex_llm_summarizes_every_level_with_the_prompt() -> None:
    llms = pytest.importorskip("llama_index.core.llms")
    memory = build_memory(topic_chat(per_topic=20), summarizer=llms.MockLLM())
    assert memory.depth >= 2
    window = memory.level(1)[0]
    # MockLLM echoes its prompt: the default prompt asks to keep names and numbers, and
    # carries the window's lines with their speakers.
    assert "Keep every name" in window.text and "number" in window.text
    assert "Ann: The offsite venue in Lyon can host thirty people in March." in window.text
    assert window.extras["summarizer"] == "llm"
    assert "kept_sentences" not in window.extras


def test_a_langchain_llm_and_chat_model_summarize_with_their_answers() -> None:
    fake = pytest.importorskip("langchain_core.language_models")
    chat = topic_chat(per_topic=20)
    answers = [f"Window summary number {i}." for i in range(40)]
    memory = build_memory(chat, summarizer=LLMSummarizer(fake.FakeListLLM(responses=answers)))
    texts = [item.text for item in memory.items if item.level]
    assert texts == answers[: len(texts)]
    chat_model = fake.FakeListChatModel(responses=answers)
    memory = build_memory(chat, summarizer=chat_model)
    assert [item.text for item in memory.items if item.level] == texts


def test_prompts_are_cached_by_content() -> None:
    llm = CountingLLM()
    summarizer = LLMSummarizer(llm, prompt="Summarize in {words} words:\n{text}")
    chat = topic_chat(per_topic=10)
    build_memory(chat, summarizer=summarizer)
    calls = len(llm.prompts)
    assert llm.prompts[0].startswith("Summarize in ")
    build_memory(chat, summarizer=summarizer)
    assert len(llm.prompts) == calls


def test_a_failing_llm_raises_a_summary_error_naming_the_summary() -> None:
    with pytest.raises(SummaryError, match=r"the LLM summarizer failed on L1\.0 \(ConnectionError"):
        build_memory(topic_chat(per_topic=5), summarizer=LLMSummarizer(BrokenLLM()))


def test_a_failing_llm_falls_back_to_extractive_summaries_when_asked() -> None:
    chat = topic_chat(per_topic=20)
    memory = build_memory(chat, summarizer=BrokenLLM(), on_summary_error="extractive")
    sources = {s for message in chat for s in split_sentences(message["text"])}
    for item in memory.items:
        if item.level:
            assert item.extras["summarizer"] == "extractive"
            assert "model server unreachable" in item.extras["summary_error"]
            assert set(split_sentences(item.text)) <= sources


def test_an_empty_answer_is_a_failure() -> None:
    with pytest.raises(SummaryError, match=r"answered nothing for L1\.0"):
        build_memory(["We ship on Thursday."], summarizer=lambda prompt: "  ")


def test_a_summarizer_that_is_not_an_llm_summarizer_is_reported_too() -> None:
    class Failing:
        def summarize(self, request: object) -> str:
            raise KeyError("x")

    with pytest.raises(SummaryError, match=r"the summarizer failed on L1\.0 \(KeyError"):
        build_memory(["We ship on Thursday."], summarizer=Failing())


@pytest.mark.parametrize(
    ("prompt", "message"),
    [
        ("Summarize this.", r"prompt needs a \{text\} placeholder"),
        ("{text} {language}", r"prompt has unknown placeholders \['language'\]"),
        ("{text} {", r"prompt is not a valid format string"),
    ],
)
def test_prompts_are_checked(prompt: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LLMSummarizer(CountingLLM(), prompt=prompt)


def test_a_model_without_a_known_method_is_refused() -> None:
    with pytest.raises(TypeError, match=r"cannot summarize with int; pass a LlamaIndex LLM"):
        LLMSummarizer(3)


def test_an_answer_without_text_is_refused() -> None:
    summarizer = LLMSummarizer(lambda prompt: 42)
    with pytest.raises(SummaryError, match=r"TypeError: the LLM answered with int"):
        build_memory(["We ship on Thursday."], summarizer=summarizer)


def test_precomputed_summaries_by_id_covers_and_level() -> None:
    chat = ["We book Lyon.", "Bob pays the deposit.", "Chloé sends the agenda."]
    by_id = build_memory(chat, summarizer=PrecomputedSummaries({"L1.0": "Lyon is booked."}))
    assert by_id.level(1)[0].text == "Lyon is booked."
    assert by_id.level(1)[0].extras["summarizer"] == "precomputed"
    by_covers = build_memory(chat, summarizer=PrecomputedSummaries({("m0", "m1", "m2"): "Plan."}))
    assert by_covers.level(1)[0].text == "Plan."
    by_level = build_memory(chat, summarizer=PrecomputedSummaries([["All set."]]))
    assert by_level.level(1)[0].text == "All set."


def test_a_missing_precomputed_summary_raises_or_falls_back() -> None:
    chat = ["We book Lyon for the offsite in March.", "Bob pays the deposit on Friday."]
    with pytest.raises(
        SummaryError, match=r"no precomputed summary for L1\.0 \(covering m0\.\.m1\)"
    ):
        build_memory(chat, summarizer=PrecomputedSummaries({}))
    memory = build_memory(chat, summarizer=PrecomputedSummaries({}), on_summary_error="extractive")
    assert memory.level(1)[0].extras["summarizer"] == "extractive"
    assert set(split_sentences(memory.level(1)[0].text)) <= set(chat)


@pytest.mark.parametrize(
    ("summaries", "message"),
    [
        ({"L1.0": 3}, r"summaries\['L1\.0'\] must be a str summary, got int"),
        ({1: "x"}, r"summary key 1 must be a summary id"),
        (["x"], r"summaries\[0\] must be the list of level-1 summaries, got str"),
        (5, r"summaries must be a mapping"),
    ],
)
def test_bad_precomputed_summaries_are_named(summaries: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        PrecomputedSummaries(summaries)  # type: ignore[arg-type]
