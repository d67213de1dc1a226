"""Tiny generative rerankers built offline: Qwen3, Gemma and Qwen2 decoders with tokenizers of
the real families' shape, saved to a folder and loaded through the real loading paths.

The tokenizers are trained here with the ``tokenizers`` library on a small corpus: a byte-level
BPE with the Qwen2 pre-tokenizer regex and the Qwen chat special tokens (``Qwen2Tokenizer``), and
a SentencePiece-style BPE with byte fallback, ``▁`` for spaces and a BOS token
(``GemmaTokenizer``). "yes", "no", "Yes", "0" and "1" are single tokens, as in the real
vocabularies. The weights are random (a wide initialization, so that scores spread), which is
enough to compare a fast path with the reference procedure number for number.

The benchmarks import this module too (benchmarks/cross_encoder.py).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

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
    "marathon",
    "runner",
    "race",
    "capital",
    "of",
    "China",
    "is",
    "Beijing",
    "what",
    "gravity",
    "explain",
    "explains",
    "how",
    "why",
    "when",
    "where",
    "who",
    "answer",
    "query",
    "passage",
    "document",
    "relevant",
    "search",
    "web",
    "retrieve",
    "passages",
    "that",
]
#: Texts every tokenizer learns from: the recipes' fixed text (so it takes few tokens, as in
#: the real vocabularies), the scored answers, and filler sentences.
TEMPLATE_TEXT = [
    "Judge whether the Document meets the requirements based on the Query and the Instruct "
    'provided. Note that the answer can only be "yes" or "no".',
    "<Instruct>: Given a web search query, retrieve relevant passages that answer the query",
    "<Query>: <Document>: system user assistant",
    "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.",
    "You are a search relevance expert who evaluates how well documents match search queries. "
    "For each query-document pair, carefully analyze the semantic relationship between them, "
    "then provide your binary relevance judgment (0 for not relevant, 1 for relevant).",
    "Relevance: instruction: query: document:",
    "Given a query A and a passage B, determine whether the passage contains an answer to the "
    "query by providing a prediction of either 'Yes' or 'No'.",
    "A: B:",
]
ANSWERS = ["yes", "no", "Yes", "No", "0", "1"]
QWEN_SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
QWEN_ADDED = ["<think>", "</think>"]
#: A chat template that renders a (query, document) pair as the Qwen3-Reranker prompt, the way
#: sentence-transformers maps pairs to messages (roles "query" and "document"; a "system"
#: message carries the instruction).
QWEN3_RERANKER_TEMPLATE = (
    "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query "
    'and the Instruct provided. Note that the answer can only be "yes" or "no".<|im_end|>\n'
    "<|im_start|>user\n<Instruct>: "
    '{{ messages | selectattr("role", "eq", "system") | map(attribute="content") | first '
    '| default("Given a web search query, retrieve relevant passages that answer the query") }}'
    '\n<Query>: {{ messages | selectattr("role", "eq", "query") | map(attribute="content") '
    "| first }}\n<Document>: "
    '{{ messages | selectattr("role", "eq", "document") | map(attribute="content") | first }}'
    # Jinja drops a template's final newline: the last two are written as an expression.
    '<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>{{ "\\n\\n" }}'
)


def corpus(seed: int = 0, sentences: int = 400) -> list[str]:
    rng = random.Random(seed)
    texts = TEMPLATE_TEXT * 20 + [" ".join(ANSWERS)] * 50 + ANSWERS * 50
    for _ in range(sentences):
        words = [rng.choice(FILLER) for _ in range(rng.randint(3, 15))]
        texts.append(" ".join(words) + rng.choice([".", "?", "!", ""]))
    return texts


def _trained(
    tokenizer: Any, special: list[str], vocab_size: int, texts: list[str] | None
) -> tuple[dict, list]:
    from tokenizers import trainers

    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=special,
        show_progress=False,
        initial_alphabet=_alphabet(tokenizer),
    )
    tokenizer.train_from_iterator(corpus() + (texts or []), trainer)
    merges = json.loads(tokenizer.to_str())["model"]["merges"]
    return tokenizer.get_vocab(), [
        tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in merges
    ]


def _alphabet(tokenizer: Any) -> list[str]:
    from tokenizers import pre_tokenizers

    if isinstance(tokenizer.pre_tokenizer, pre_tokenizers.Sequence):
        return pre_tokenizers.ByteLevel.alphabet()
    return []


def qwen_tokenizer(vocab_size: int = 1200, texts: list[str] | None = None) -> Any:
    """A Qwen2-family tokenizer (byte-level BPE, the Qwen2 regex, NFC) with the chat tokens,
    trained on the built-in corpus and ``texts``."""
    from tokenizers import AddedToken, Regex, Tokenizer, models, normalizers, pre_tokenizers
    from transformers import Qwen2Tokenizer
    from transformers.models.qwen2.tokenization_qwen2 import PRETOKENIZE_REGEX

    bpe = Tokenizer(models.BPE())
    bpe.normalizer = normalizers.NFC()
    bpe.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(PRETOKENIZE_REGEX), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    vocab, merges = _trained(bpe, ["<|endoftext|>"], vocab_size, texts)
    tokenizer = Qwen2Tokenizer(vocab=vocab, merges=merges, model_max_length=32768)
    tokenizer.add_special_tokens(
        {"additional_special_tokens": [AddedToken(t, special=True) for t in QWEN_SPECIAL[1:]]}
    )
    tokenizer.add_tokens([AddedToken(t, special=False) for t in QWEN_ADDED])
    return tokenizer


def gemma_tokenizer(vocab_size: int = 1200, texts: list[str] | None = None) -> Any:
    """A Gemma-family tokenizer: SentencePiece-style BPE with byte fallback and a BOS token."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
    from transformers import GemmaTokenizer

    bpe = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True))
    bpe.normalizer = normalizers.Replace(" ", "▁")
    bpe.pre_tokenizer = pre_tokenizers.Split("▁", behavior="merged_with_next")
    special = ["<pad>", "<eos>", "<bos>", "<unk>", "<mask>"]
    special += [f"<0x{b:02X}>" for b in range(256)]
    vocab, merges = _trained(bpe, special, vocab_size, texts)
    return GemmaTokenizer(vocab=vocab, merges=merges, model_max_length=8192)


def build(
    family: str,
    folder: Path,
    *,
    layers: int = 2,
    hidden: int = 32,
    seed: int = 0,
    vocab_size: int | None = None,
    chat_template: str | None = None,
    texts: list[str] | None = None,
    tokenizer_size: int = 1200,
) -> Path:
    """A random ``family`` ("qwen3", "gemma", "qwen2") decoder with its tokenizer in ``folder``.

    ``vocab_size`` pads the model's vocabulary beyond the tokenizer's (the real models' output
    layer: 151,936 rows for Qwen), for benchmarks that should pay for it; a tokenizer of
    ``tokenizer_size`` tokens trained on ``texts`` too splits those texts about as finely as a
    real one (some 1.3 tokens per English word at 8,000 tokens).
    """
    import torch
    import transformers

    make = gemma_tokenizer if family == "gemma" else qwen_tokenizer
    tokenizer = make(tokenizer_size, texts)
    if chat_template is not None:
        tokenizer.chat_template = chat_template
    shape = {
        "vocab_size": max(len(tokenizer), vocab_size or 0),
        "hidden_size": hidden,
        "intermediate_size": hidden * 2,
        "num_hidden_layers": layers,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": hidden // 4,
        "max_position_embeddings": 4096,
        "initializer_range": 0.3,
        "pad_token_id": tokenizer.pad_token_id,
        "bos_token_id": tokenizer.bos_token_id,
        "eos_token_id": tokenizer.eos_token_id,
    }
    config, model_class = {
        "qwen3": (transformers.Qwen3Config, transformers.Qwen3ForCausalLM),
        "gemma": (transformers.GemmaConfig, transformers.GemmaForCausalLM),
        "qwen2": (transformers.Qwen2Config, transformers.Qwen2ForCausalLM),
    }[family]
    torch.manual_seed(seed)
    model = model_class(config(**shape)).eval()
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
