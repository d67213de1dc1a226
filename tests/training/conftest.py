"""A tiny text encoder and tiny training sets, built here: nothing is downloaded.

The encoder is a 2-layer BERT with a word-level vocabulary, saved as a transformers folder:
sentence-transformers loads it as a bi-encoder (mean pooling) and as a cross-encoder (a new
one-output head) through its own loading path, as a user's checkpoint would be.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

TOPICS = [
    "apple", "river", "engine", "violin", "glacier", "tennis", "coffee", "bridge",
    "tiger", "castle", "rocket", "garden", "pepper", "winter", "harbor", "pencil",
    "camera", "desert", "forest", "island", "ladder", "mirror", "planet", "silver",
]  # fmt: skip
FILLER = ["the", "a", "of", "and", "is", "in", "about", "this", "that", "what", "where", "how"]
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *TOPICS, *FILLER]


def passage(rng: random.Random, topic: str) -> str:
    words = [rng.choice(FILLER) for _ in range(rng.randint(6, 12))]
    for _ in range(2):
        words.insert(rng.randrange(len(words)), topic)
    return " ".join(words)


def pair_records(seed: int = 0, topics: list[str] | None = None) -> list[dict]:
    """One query per topic: "what about TOPIC", its positive mentions TOPIC twice."""
    rng = random.Random(seed)
    return [
        {"query_id": f"q-{t}", "query": f"what about {t}", "positive": passage(rng, t)}
        for t in topics or TOPICS
    ]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def tiny_encoder_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("tiny-encoder")
    (folder / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    tokenizer = transformers.BertTokenizer(str(folder / "vocab.txt"))
    config = transformers.BertConfig(
        vocab_size=len(VOCAB),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
    )
    torch.manual_seed(0)
    transformers.BertModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture
def pairs_file(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "pairs.jsonl", pair_records())


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny steps: more threads only wait on each other on a shared CPU."""
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
