"""Decoder-reranker prompts assembled from cached token ids.

A generative reranker's prompt is a recipe's pieces (``decoder_recipes``) around the query and
the document. Each piece is tokenized alone, as the family's reference code does: the fixed
pieces once, each query once per call, each document once (kept by content, since RAG reranks
the same chunks for many queries). A prompt is then the concatenation of id arrays, the
document cut at its end to fit ``max_length``: a head shared by every document of the query
(template, instruction, query) and a tail of its own (document, template's end). Tails are
padded on the right to run after their query's head (``prefix_cache``); whole prompts, for
models that cannot share a head, are padded on the left so that every row ends on its own
last token, the one whose next-token logits are the score.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from rerank_plus.analysis.cache import LRUCache
from rerank_plus.scoring.decoder_recipes import DecoderRecipe
from rerank_plus.scoring.pair_tokens import PairBatch, Tokens, cached_and_missing

_FIELD = re.compile(r"\{(instruction|query|document)\}")


def fill(template: str, **values: str) -> str:
    """``template`` with its ``{instruction}``, ``{query}``, ``{document}`` fields filled in one
    pass (so braces inside the texts stay as they are)."""
    return _FIELD.sub(lambda match: values[match.group(1)], template)


def model_window(tokenizer: Any, config: Any) -> int | None:
    """Tokens the model reads at most: the tokenizer's limit where it states a real one, else
    the configuration's positions."""
    limit = getattr(tokenizer, "model_max_length", None)
    if isinstance(limit, int) and limit <= 1_000_000:
        return limit
    positions = getattr(config, "max_position_embeddings", None)
    return positions if isinstance(positions, int) else None


class PromptTokenizer:
    """Encodes (query, document) prompts of one recipe exactly as its reference code does.

    Args:
        tokenizer: the model's Hugging Face fast tokenizer (its Rust tokenizer is copied).
        recipe: the family's prompt.
        instruction: the instruction; None takes the recipe's default.
        max_length: what the recipe's ``budget`` bounds, cut to the model's ``window``.
        window: tokens the model reads at most (None: no limit known).
        cache_size: documents whose token ids are kept (by content); 0 turns it off.
    """

    def __init__(
        self,
        tokenizer: Any,
        recipe: DecoderRecipe,
        instruction: str | None,
        max_length: int,
        window: int | None = None,
        cache_size: int = 20_000,
    ) -> None:
        from tokenizers import Tokenizer

        backend = getattr(tokenizer, "backend_tokenizer", None)
        if backend is None:
            raise ValueError(
                f"{type(tokenizer).__name__} is not a fast (Rust) tokenizer: the "
                f"{recipe.name} recipe needs the model's tokenizer.json."
            )
        self._tokenizer = Tokenizer.from_str(backend.to_str())
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        self.recipe = recipe
        chosen = recipe.default_instruction if instruction is None else instruction
        self.instruction = recipe.instruction_text(chosen)
        self.prefix = self._pieces(recipe.prefix)
        self.separator = self._pieces(recipe.separator)
        self.suffix = self._pieces(recipe.suffix)
        self.bos = self._bos(tokenizer) if recipe.bos else ()
        self.scored_ids = tuple(self._single(tokenizer, text) for text, _ in recipe.scored)
        self.pad_id = _pad_id(tokenizer)
        fixed = len(self.prefix) + len(self.suffix)
        if recipe.budget == "prompt":
            self.max_length = min(max_length, window or max_length)
            self.room = self.max_length - fixed - len(self.separator) - len(self.bos)
        else:
            self.max_length = min(max_length, (window or max_length + fixed) - fixed)
            self.room = self.max_length - len(self.separator) - len(self.bos)
        if self.room < 1:
            raise ValueError(
                f"max_length {max_length} leaves no room for the query and the document beside "
                f"the {recipe.name} template's {fixed + len(self.separator)} tokens: raise it."
            )
        share = recipe.query_share
        self.query_limit = math.floor(self.max_length * share) if share else None
        self._documents: LRUCache[Tokens] = LRUCache(cache_size)

    def _encode(self, texts: Sequence[str]) -> list[list[int]]:
        if not texts:
            return []
        return [e.ids for e in self._tokenizer.encode_batch(list(texts), add_special_tokens=False)]

    def _pieces(self, pieces: Sequence[str]) -> tuple[int, ...]:
        texts = [fill(piece, instruction=self.instruction) for piece in pieces]
        return tuple(token for ids in self._encode(texts) for token in ids)

    def _bos(self, tokenizer: Any) -> tuple[int, ...]:
        bos = getattr(tokenizer, "bos_token_id", None)
        if bos is None:
            raise ValueError(
                f"The {self.recipe.name} recipe starts the query with the BOS token, but the "
                "tokenizer has none: load the model's own tokenizer."
            )
        return (int(bos),)

    def _single(self, tokenizer: Any, text: str) -> int:
        ids = self._encode([text])[0]
        if len(ids) != 1:
            raise ValueError(
                f"The {self.recipe.name} recipe scores the token {text!r}, but this tokenizer "
                f"splits it into {len(ids)} tokens {ids}: the model is not of this family "
                "(pass the right recipe=, or another model)."
            )
        return ids[0]

    def queries(self, texts: Sequence[str]) -> list[Tokens]:
        """Each query's piece (with the instruction where the recipe puts it), BOS first where
        the recipe has one, cut to the recipe's share of ``max_length``."""
        pieces = [fill(self.recipe.query, instruction=self.instruction, query=t) for t in texts]
        encoded = []
        for text, ids in zip(texts, self._encode(pieces), strict=True):
            if self.query_limit is not None:
                ids = ids[: self.query_limit]
            if len(ids) > self.room:
                raise ValueError(
                    f"The query {text[:60]!r} takes {len(ids)} tokens with the "
                    f"{self.recipe.name} template's, more than max_length {self.max_length} "
                    "leaves for a query and a document: shorten the query or raise max_length."
                )
            tokens = np.asarray([*self.bos, *ids], dtype=np.int64)
            encoded.append(Tokens(tokens, len(tokens)))
        return encoded

    def documents(self, texts: Sequence[str]) -> list[Tokens]:
        """Each document's piece, from the cache where it was tokenized before; cut at
        ``max_length`` since no prompt keeps more."""
        keys, found, missing = cached_and_missing(self._documents, texts)
        pieces = [fill(self.recipe.document, document=text) for text in missing.values()]
        for key, ids in zip(missing, self._encode(pieces), strict=True):
            tokens = Tokens(np.asarray(ids[: self.max_length], dtype=np.int64), len(ids))
            self._documents.put(key, tokens)
            found[key] = tokens
        return [found[key] for key in keys]

    def _kept(self, query: Tokens, document: Tokens) -> int:
        """Document tokens kept: its head, as many as the budget leaves after the query."""
        return max(0, min(document.length, self.room + len(self.bos) - query.length))

    def length(self, query: Tokens, document: Tokens) -> int:
        """Tokens of the assembled prompt."""
        fixed = len(self.prefix) + len(self.separator) + len(self.suffix)
        return fixed + query.length + self._kept(query, document)

    def head(self, query: Tokens) -> np.ndarray:
        """The ids every prompt of ``query`` starts with: the template's head, the query
        piece (with the instruction where the recipe puts it there) and the separator."""
        return np.concatenate([self.prefix, query.ids, self.separator]).astype(np.int64)

    def tail(self, query: Tokens, document: Tokens) -> np.ndarray:
        """The ids after the head: the document's kept head and the template's end (never
        empty: every recipe ends on the text where the model answers)."""
        kept = self._kept(query, document)
        return np.concatenate([document.ids[:kept], self.suffix]).astype(np.int64)

    def prompt(self, query: Tokens, document: Tokens) -> np.ndarray:
        """The ids of one prompt: its head and its tail, each piece tokenized alone, so the
        split is exact."""
        return np.concatenate([self.head(query), self.tail(query, document)])

    def batch(self, rows: list[int], pairs: Sequence[tuple[Tokens, Tokens]]) -> PairBatch:
        """The left-padded inputs of ``pairs[row]`` for each of ``rows``."""
        prompts = [self.prompt(*pairs[row]) for row in rows]
        width = max(len(ids) for ids in prompts)
        input_ids = np.full((len(rows), width), self.pad_id, dtype=np.int64)
        attention = np.zeros((len(rows), width), dtype=np.int64)
        for row, ids in enumerate(prompts):
            input_ids[row, width - len(ids) :] = ids
            attention[row, width - len(ids) :] = 1
        return PairBatch(rows, {"input_ids": input_ids, "attention_mask": attention})

    def tails(self, rows: list[int], tails: Sequence[np.ndarray]) -> PairBatch:
        """The right-padded ``tails[row]`` for each of ``rows``, read after their query's
        head (``prefix_cache``); ``attention_mask`` marks each row's real tokens."""
        width = max(len(tails[row]) for row in rows)
        input_ids = np.full((len(rows), width), self.pad_id, dtype=np.int64)
        attention = np.zeros((len(rows), width), dtype=np.int64)
        for row, index in enumerate(rows):
            input_ids[row, : len(tails[index])] = tails[index]
            attention[row, : len(tails[index])] = 1
        return PairBatch(rows, {"input_ids": input_ids, "attention_mask": attention})


def _pad_id(tokenizer: Any) -> int:
    """The pad token, else EOS: padded positions are masked, so the score does not depend on
    which id fills them."""
    for name in ("pad_token_id", "eos_token_id"):
        value = getattr(tokenizer, name, None)
        if isinstance(value, int):
            return value
    raise ValueError(
        "The tokenizer has neither a pad token nor an EOS token to pad prompts with: set "
        "tokenizer.pad_token (any token; padded positions are masked) and save it with the model."
    )
