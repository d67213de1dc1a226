"""A retriever kept across ``MemoryWriter.add`` answers exactly as a new one over the same memory:
its index keeps what it read of the items the add left alone (sentences, token counts,
sentence terms, embedding rows) and reads the new message and the summaries it touched anew."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory import MemoryItem, MemoryRetriever
from rerank_plus.memory.index.memory_index import MemoryIndex
from rerank_plus.memory.ingest import MemoryWriter, build_memory
from rerank_plus.memory.ingest.embedding import Embedder
from rerank_plus.scoring import BM25Reranker

from tests.memory.build_chats import TOPICS, UNSPACED_TOPICS, topic_chat

QUESTIONS = (
    ("Summarize the conversation", 300),
    ("What did we say about the venue deposit in Lyon?", 250),
    ("What did Bob say about the cloud invoices?", 400),
    ("quoi de neuf depuis hier ?", 200),
)
NOW = datetime(2024, 3, 5, 9, 0, tzinfo=UTC)


def answers(retriever: MemoryRetriever) -> list[tuple]:
    out = []
    for question, budget in QUESTIONS:
        context = retriever.retrieve(question, max_tokens=budget, now=NOW)
        out.append(
            (context.text, [(i.id, i.score, i.block) for i in context.items], context.tokens)
        )
    return out


@pytest.mark.parametrize("start", [12, 40, 100])  # from 40, an add makes a new top level
def test_a_kept_retriever_answers_after_adds_as_a_new_one(start: int) -> None:
    chat = topic_chat()
    writer = MemoryWriter.build(chat[:start])
    memory = writer.memory
    depth = memory.depth
    kept = MemoryRetriever(memory)
    answers(kept)  # its index, text caches and sentence terms read before the adds
    for message in chat[start : start + 12]:
        writer.add(message)
        assert answers(kept) == answers(MemoryRetriever(memory))
    assert memory.depth == depth + (start == 40)  # the sections of every window changed


def test_a_kept_retriever_answers_as_a_new_one_once_the_memory_spans_a_second_day() -> None:
    """Headers carry the date once the messages span two days, so every item's header costs
    more: what a broad question's fill read of the items before (their sentences' opening
    costs) must not be carried over."""
    chat = topic_chat()
    writer = MemoryWriter.build(chat[:60])
    memory = writer.memory
    kept = MemoryRetriever(memory)
    answers(kept)
    for message in chat[60:66]:
        writer.add({**message, "time": message["time"] + timedelta(days=1)})
        assert answers(kept) == answers(MemoryRetriever(memory))
    text = kept.retrieve("Summarize the conversation", max_tokens=300).text
    assert "[L2 #0 2024-03-04 09:00-10:12]" in text  # with the date, as the memory spans two


MIXED_LINES = (
    "Le budget du salon est validé à 40k.",
    "¿Qué pasó con el presupuesto?",
    "Das Budget ist genehmigt.",
    "👍👍",
    "#launch moved to March",
    "ok",
)
MIXED_QUESTIONS = (
    "Summarize the conversation",
    "总结一下这次对话",
    "What did Marie say about Lyon?",
    "where do we talk about the budget?",
    "what's new?",
    "quoi de neuf depuis hier ?",
    "What did Ana say at 11:30?",
    "👍",
)


@pytest.mark.parametrize("seed", [5, 7])
def test_a_kept_retriever_answers_as_a_new_one_over_a_random_chat(seed: int) -> None:
    """Adds in several languages and scripts, emoji, messages without a time or a speaker,
    gaps of minutes to days; after each, a random question at a random budget."""
    rng = random.Random(seed)
    chat = topic_chat(per_topic=10, topics=rng.choice([TOPICS, *UNSPACED_TOPICS.values()]))
    lines = [message["text"] for message in chat] + list(MIXED_LINES)
    writer = MemoryWriter.build(chat[:12])
    memory = writer.memory
    kept = MemoryRetriever(memory)
    moment = chat[-1]["time"]
    for message in chat[12:]:
        writer.add(message)
    for _ in range(16):
        moment += timedelta(minutes=rng.choice([1, 30, 600, 2000]))
        message = {"text": rng.choice(lines), "speaker": rng.choice(["Ana", "Marie", ""])}
        if rng.random() < 0.8:
            message["time"] = moment
        writer.add(message)
        question, budget = rng.choice(MIXED_QUESTIONS), rng.choice([30, 300, 2000])
        now = moment + timedelta(hours=1)
        got, want = (
            retriever.retrieve(question, max_tokens=budget, now=now)
            for retriever in (kept, MemoryRetriever(memory, analyzer=kept.analyzer))
        )
        assert got.text == want.text
        assert [(i.id, i.score, i.block) for i in got.items] == [
            (i.id, i.score, i.block) for i in want.items
        ]


def test_questions_asked_at_once_right_after_an_add_get_a_new_retrievers_answers() -> None:
    """Threads and ``aretrieve`` share one retriever: the first question rebuilds its index
    (under a lock) while the others wait, and all read and fill the same caches."""
    chat = topic_chat()
    writer = MemoryWriter.build(chat[:100])
    memory = writer.memory
    kept = MemoryRetriever(memory)
    answers(kept)
    writer.add(chat[100])
    jobs = [(question, budget) for question, _ in QUESTIONS for budget in (60, 2000)] * 2

    def read(context: Any) -> tuple:
        return context.text, [(i.id, i.score, i.block) for i in context.items]

    want = {job: read(MemoryRetriever(memory).retrieve(*job, now=NOW)) for job in set(jobs)}
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda job: read(kept.retrieve(*job, now=NOW)), jobs))
    assert got == [want[job] for job in jobs]
    writer.add(chat[101])
    want = {job: read(MemoryRetriever(memory).retrieve(*job, now=NOW)) for job in set(jobs)}

    async def ask_all() -> list:
        return await asyncio.gather(*(kept.aretrieve(*job, now=NOW) for job in jobs))

    assert [read(context) for context in asyncio.run(ask_all())] == [want[job] for job in jobs]


@pytest.mark.parametrize("stored", [True, False])
def test_with_embeddings_a_kept_retriever_answers_as_a_new_one(
    minilm_embedder: Embedder, stored: bool
) -> None:
    """Rows of unchanged items are kept (stored embeddings, or the retriever's own when the
    memory has none); new and changed items and windows get theirs made anew. A memory
    without embeddings is embedded by the retriever; there the model embeds each text alone:
    its vectors move in the seventh decimal with the batch a text is embedded in (a new
    retriever embeds every item in one batch, a kept one only what an add changed), and that
    is enough to swap which of two items at a pool's edge enters it, and so the pool's
    normalization of every score."""
    chat = topic_chat()
    writer = MemoryWriter.build(chat[:40], embedder=minilm_embedder if stored else None)
    memory = writer.memory

    def each_alone(texts: list[str]) -> np.ndarray:
        return np.vstack([minilm_embedder.embed([text]) for text in texts])

    embedder = minilm_embedder if stored else each_alone
    kept = MemoryRetriever(memory, embedder=embedder)
    answers(kept)
    for message in chat[40:50]:
        writer.add(message)
        assert answers(kept) == answers(MemoryRetriever(memory, embedder=embedder))


def test_a_memory_without_embeddings_is_embedded_once_then_only_what_an_add_changed(
    minilm_embedder: Embedder,
) -> None:
    embedded: list[str] = []

    def counting(texts: list[str]) -> np.ndarray:
        embedded.extend(texts)
        return minilm_embedder.embed(texts)

    chat = topic_chat()
    writer = MemoryWriter.build(chat[:40])
    memory = writer.memory
    retriever = MemoryRetriever(memory, embedder=counting)
    retriever.retrieve("Summarize the conversation", max_tokens=300)
    assert len(embedded) == len(memory.items) + 1  # every item, and the question
    before = {item.id: item for item in memory.items}
    writer.add(chat[40])
    embedded.clear()
    retriever.retrieve("Summarize the conversation", max_tokens=300)
    changed = [item for item in memory.items if before.get(item.id) is not item]
    assert sorted(embedded) == sorted(
        [item.text for item in changed] + ["Summarize the conversation"]
    )


def test_an_index_keeps_only_the_readings_of_unchanged_items() -> None:
    chat = topic_chat()
    writer = MemoryWriter.build(chat[:60])
    memory = writer.memory
    retriever = MemoryRetriever(memory)
    before = retriever.index()
    read = {item.id: before.sentence_terms(item) for item in memory.items}
    earlier = {item.id: item for item in memory.items}
    writer.add(chat[60])
    after = retriever.index()
    assert after is not before
    changed = [item for item in memory.items if earlier.get(item.id) is not item]
    assert [item.level for item in changed] == list(range(memory.depth))  # the path to the top
    for item in memory.items:
        if item in changed:
            assert after.sentence_terms(item) is not read.get(item.id)
        else:
            assert after.sentence_terms(item) is read[item.id]


def test_the_index_fits_bm25_as_fit_on_its_texts_does() -> None:
    memory = build_memory(topic_chat()[:80])
    analyzer = Analyzer()
    index = MemoryIndex(memory, None, analyzer)
    texts = [index.search_texts[item.id] for item in memory.items]
    assert index.bm25.statistics == BM25Reranker(analyzer=analyzer).fit(texts).statistics


def tables(index: MemoryIndex) -> list:
    """What an index derives over all items: per level its items and postings (terms in
    order, positions and their type), the BM25 statistics, each item's reading."""
    return [
        [
            (level.items, [(term, at.dtype, at.tolist()) for term, at in level.postings.items()])
            for level in index.levels
        ],
        index.bm25.statistics,
        index.search_texts,
        index.item_terms,
        index.content_terms,
        index.known_entities,
        (index.timed, index.spans_days),
        index.span_starts,
        index.sections,
        index.window_of,
    ]


@pytest.mark.parametrize("start", [1, 12, 40, 100])
def test_an_index_kept_across_adds_equals_one_built_anew(start: int) -> None:
    chat = topic_chat()
    writer = MemoryWriter.build(chat[:start])
    memory = writer.memory
    retriever = MemoryRetriever(memory)
    kept = retriever.index()
    for message in chat[start : start + 15]:
        writer.add(message)
        previous, kept = kept, retriever.index()
        assert kept is not previous and tables(kept) == tables(
            MemoryIndex(memory, None, Analyzer())
        )


@pytest.mark.parametrize("start", [47, 60])  # adding message 47 makes a new top level
def test_a_kept_index_carries_the_cached_text_of_unchanged_items_only(start: int) -> None:
    """What the text caches hold after an add: every entry of an item left unchanged, none of
    a replaced one; in a table of facts that depend on the item's place, only the entries of
    unchanged items whose language and section are unchanged too."""
    chat = topic_chat()
    writer = MemoryWriter.build(chat[:start])
    memory = writer.memory
    retriever = MemoryRetriever(memory)
    answers(retriever)
    before = retriever.index()
    earlier = {item.id: item for item in memory.items}
    writer.add(chat[start])
    after = MemoryIndex(memory, None, retriever.analyzer, previous=before)  # nothing read yet
    unchanged = {item.id for item in memory.items if earlier.get(item.id) is item}
    settled = {
        key
        for key in unchanged
        if before.item_terms[key][0] == after.item_terms[key][0]
        and before.sections.get(key) == after.sections.get(key)
    }
    assert (start == 47) == (settled < unchanged)  # a new top level: new sections
    assert after._sentence_terms.keys() == before._sentence_terms.keys() & settled
    assert before._text_caches
    for counter, cache in before._text_caches.items():
        kept = after._text_caches[counter]
        for name in ("_sentences", "_folded", "_whole"):
            table = getattr(cache, name)
            assert getattr(kept, name) == {k: v for k, v in table.items() if k in unchanged}
        assert kept._tokens == {
            k: v for k, v in cache._tokens.items() if isinstance(k, str) or k[0] in unchanged
        }
        assert kept._elided == {k: v for k, v in cache._elided.items() if k[0] in unchanged}
        assert cache._tables
        for name, table in cache._tables.items():
            keep = unchanged if name in cache._item_tables else settled
            assert kept._tables[name] == {k: v for k, v in table.items() if k in keep}


def reworded(items: list[MemoryItem], at: int, text: str) -> list[MemoryItem]:
    return [replace(item, text=text) if n == at else item for n, item in enumerate(items)]


CHANGES = {
    "a message in the middle reworded": lambda items: reworded(
        items, 10, "Bob said the cloud invoices for Lyon are due before the offsite."
    ),
    "a message now in French": lambda items: reworded(
        items, 20, "Nous avons réservé la salle à Lyon pour le séminaire de printemps."
    ),
    "the top level removed": lambda items: [i for i in items if i.level < items[-1].level],
    "every item copied": lambda items: [replace(item) for item in items],
}


@pytest.mark.parametrize("change", CHANGES)
def test_an_index_kept_across_any_replace_equals_one_built_anew(change: str) -> None:
    """Not only adds: a kept index after ``replace`` (items reworded in place, a language
    changed, a level gone, every item a new object) holds what an index built anew holds,
    and its retriever answers as a new one."""
    memory = build_memory(topic_chat()[:60])
    retriever = MemoryRetriever(memory)
    answers(retriever)
    memory.replace(CHANGES[change](list(memory.items)))
    fresh = MemoryIndex(memory, None, Analyzer())
    assert tables(retriever.index()) == tables(fresh)
    assert answers(retriever) == answers(MemoryRetriever(memory))
