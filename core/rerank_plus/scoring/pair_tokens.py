"""Query-document pairs as the model's own fast tokenizer encodes them, documents tokenized once.

``CrossEncoder.predict`` hands every batch to the Hugging Face tokenizer with ``padding=True,
return_tensors="pt"``: it re-tokenizes the query once per pair and pads in Python, which costs
more than the forward pass of a small model. Here the query is tokenized once per request, each
document once (and kept by content, since RAG reranks the same chunks for many queries), and a
pair is assembled from the two id arrays with the tokenizer's own pair template (learned from
its post-processor) and its ``longest_first`` truncation, then padded into numpy arrays. The
result equals the tokenizer's pair encoding id for id (tests/neural/test_pair_tokens.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rerank_plus.analysis.cache import LRUCache, content_key


@dataclass(frozen=True, slots=True)
class Tokens:
    """One text's token ids (no special tokens), cut at ``max_length`` since a pair never
    keeps more, and its full length, which decides which side of a pair is cut first."""

    ids: np.ndarray
    length: int


def cached_and_missing(
    cache: LRUCache[Tokens], texts: Sequence[str]
) -> tuple[list[str | bytes], dict[str | bytes, Tokens], dict[str | bytes, str]]:
    """Each text's cache key, the token ids the cache holds, and the texts (once each) it does
    not: what both the encoder and the decoder paths tokenize documents from."""
    keys = [content_key(text) for text in texts]
    found: dict[str | bytes, Tokens] = {}
    missing: dict[str | bytes, str] = {}
    for key, text in zip(keys, texts, strict=True):
        if key in found or key in missing:
            continue
        cached = cache.get(key)
        if cached is None:
            missing[key] = text
        else:
            found[key] = cached
    return keys, found, missing


@dataclass(frozen=True, slots=True)
class PairTemplate:
    """Where the special tokens go around the two sequences, and the type id of each part:
    ``[CLS] A [SEP] B [SEP]`` for BERT, ``<s> A </s></s> B </s>`` for XLM-R."""

    prefix: tuple[int, ...]
    middle: tuple[int, ...]
    suffix: tuple[int, ...]
    prefix_types: tuple[int, ...]
    middle_types: tuple[int, ...]
    suffix_types: tuple[int, ...]
    first_type: int
    second_type: int

    @property
    def added(self) -> int:
        """Special tokens one pair adds."""
        return len(self.prefix) + len(self.middle) + len(self.suffix)

    @classmethod
    def of(cls, tokenizer: Any) -> PairTemplate:
        """Read the template from what ``tokenizer`` (a ``tokenizers.Tokenizer``) makes of a
        probe pair; a post-processor of another shape raises ``ValueError``."""
        first = tokenizer.encode("a", add_special_tokens=False)
        second = tokenizer.encode("b", add_special_tokens=False)
        if not first.ids or not second.ids:
            raise ValueError("the tokenizer makes no tokens of a one-letter text")
        pair = tokenizer.post_process(first, second, add_special_tokens=True)
        special = pair.special_tokens_mask
        # Walk the probe: specials before A, A, specials between, B, specials after.
        parts: list[list[int]] = [[], [], []]
        stage = 0  # 0: before A, 1: in A, 2: between, 3: in B, 4: after B
        in_first: list[int] = []
        in_second: list[int] = []
        for position, is_special in enumerate(special):
            if is_special:
                stage = {1: 2, 3: 4}.get(stage, stage)
                parts[stage // 2].append(position)
            elif stage <= 1:
                stage = 1
                in_first.append(position)
            elif stage <= 3:
                stage = 3
                in_second.append(position)
            else:
                raise ValueError(f"a pair template with special tokens at {special} is unsupported")
        if len(in_first) != len(first.ids) or len(in_second) != len(second.ids):
            raise ValueError("the pair template does not keep the two texts apart")
        ids, types = pair.ids, pair.type_ids
        return cls(
            prefix=tuple(ids[i] for i in parts[0]),
            middle=tuple(ids[i] for i in parts[1]),
            suffix=tuple(ids[i] for i in parts[2]),
            prefix_types=tuple(types[i] for i in parts[0]),
            middle_types=tuple(types[i] for i in parts[1]),
            suffix_types=tuple(types[i] for i in parts[2]),
            first_type=types[in_first[0]],
            second_type=types[in_second[0]],
        )


def longest_first(first: int, second: int, room: int) -> tuple[int, int]:
    """Tokens kept of each sequence under the ``longest_first`` strategy of Hugging Face
    tokenizers (``truncate_encodings`` in tokenizers/src/utils/truncation.rs): the longer
    sequence is cut first; when both exceed half the room, each keeps half (the second one
    the odd token)."""
    if first + second <= room:
        return first, second
    short = min(first, second)
    keep_long = short if short > room else max(short, room - short)
    keep_short = short
    if keep_short + keep_long > room:
        keep_short = room // 2
        keep_long = keep_short + room % 2
    if first > second:
        return min(first, keep_long), min(second, keep_short)
    return min(first, keep_short), min(second, keep_long)


@dataclass(frozen=True, slots=True)
class PairBatch:
    """Padded model inputs for some pairs (rows in the order of ``rows``)."""

    rows: list[int]
    features: dict[str, np.ndarray]


class PairTokenizer:
    """Encodes (query, document) pairs exactly like the tokenizer's pair call with
    ``truncation="longest_first"`` and ``max_length``, tokenizing each distinct document once.

    Args:
        tokenizer: a Hugging Face fast tokenizer (``PreTrainedTokenizerFast`` or any with a
            ``backend_tokenizer``); its Rust tokenizer is copied, so its settings stay its own.
        max_length: tokens per pair, special tokens included.
        cache_size: documents whose token ids are kept (by content); 0 turns it off.
    """

    def __init__(self, tokenizer: Any, max_length: int, cache_size: int = 20_000) -> None:
        from tokenizers import Tokenizer

        backend = getattr(tokenizer, "backend_tokenizer", None)
        if backend is None:
            raise ValueError(f"{type(tokenizer).__name__} is not a fast (Rust) tokenizer")
        self._tokenizer = Tokenizer.from_str(backend.to_str())
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        self.template = PairTemplate.of(self._tokenizer)
        if max_length <= self.template.added:
            raise ValueError(f"max_length {max_length} leaves no room beside the special tokens")
        self.max_length = max_length
        self.room = max_length - self.template.added
        self.pad_id = int(getattr(tokenizer, "pad_token_id", None) or 0)
        self.pad_type_id = int(getattr(tokenizer, "pad_token_type_id", 0) or 0)
        self.pad_left = getattr(tokenizer, "padding_side", "right") == "left"
        names = getattr(tokenizer, "model_input_names", None) or ["input_ids", "attention_mask"]
        self.with_types = "token_type_ids" in names
        self._documents: LRUCache[Tokens] = LRUCache(cache_size)

    def encode(self, texts: Sequence[str]) -> list[Tokens]:
        """Each text alone, tokenized in one parallel call of the Rust tokenizer."""
        if not texts:
            return []
        encoded = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [
            Tokens(np.asarray(encoding.ids[: self.max_length], dtype=np.int64), len(encoding.ids))
            for encoding in encoded
        ]

    def queries(self, texts: Sequence[str]) -> list[Tokens]:
        """Token ids of each query (queries change from call to call: not cached)."""
        return self.encode(texts)

    def documents(self, texts: Sequence[str]) -> list[Tokens]:
        """Token ids of each document, from the cache where it was tokenized before."""
        keys, found, missing = cached_and_missing(self._documents, texts)
        for key, ids in zip(missing, self.encode(list(missing.values())), strict=True):
            self._documents.put(key, ids)
            found[key] = ids
        return [found[key] for key in keys]

    def length(self, first: Tokens, second: Tokens) -> int:
        """Tokens of the assembled pair, special tokens included."""
        return sum(longest_first(first.length, second.length, self.room)) + self.template.added

    def pair(self, first: Tokens, second: Tokens) -> tuple[np.ndarray, np.ndarray]:
        """The ids and type ids of one pair, as the tokenizer's pair encoding has them."""
        t = self.template
        keep_first, keep_second = longest_first(first.length, second.length, self.room)
        ids = np.concatenate(
            [t.prefix, first.ids[:keep_first], t.middle, second.ids[:keep_second], t.suffix]
        ).astype(np.int64)
        types = np.concatenate(
            [
                t.prefix_types,
                np.full(keep_first, t.first_type),
                t.middle_types,
                np.full(keep_second, t.second_type),
                t.suffix_types,
            ]
        ).astype(np.int64)
        return ids, types

    def batch(self, rows: list[int], pairs: Sequence[tuple[Tokens, Tokens]]) -> PairBatch:
        """The padded inputs of ``pairs[row]`` for each of ``rows``."""
        assembled = [self.pair(*pairs[row]) for row in rows]
        width = max(len(ids) for ids, _ in assembled)
        input_ids = np.full((len(rows), width), self.pad_id, dtype=np.int64)
        attention = np.zeros((len(rows), width), dtype=np.int64)
        types = np.full((len(rows), width), self.pad_type_id, dtype=np.int64)
        for row, (ids, type_ids) in enumerate(assembled):
            span = slice(width - len(ids), width) if self.pad_left else slice(0, len(ids))
            input_ids[row, span] = ids
            attention[row, span] = 1
            types[row, span] = type_ids
        features = {"input_ids": input_ids, "attention_mask": attention}
        if self.with_types:
            features["token_type_ids"] = types
        return PairBatch(rows, features)
