"""Cross-encoder reranking on sentence-transformers ``CrossEncoder``: batched, cached, long-aware.

A cross-encoder reads the query and the document together, so it catches paraphrase and
synonyms that BM25 cannot; it is also the slowest stage, so every distinct (query, text) pair
is scored once, scores are cached, and pairs are batched by length under a budget of padded
tokens (see ``batching``), then put back in input order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.cache import LRUCache, content_key
from rerank_plus.reranker import Reranker, Scores
from rerank_plus.scoring.batching import estimate_tokens, length_batches
from rerank_plus.scoring.devices import pick_device, use_half_precision
from rerank_plus.scoring.models import (
    LOAD_LOCK,
    default_cross_encoder,
    load_model,
    require_sentence_transformers,
)
from rerank_plus.scoring.passages import windows

LONG_DOCUMENT_MODES = ("truncate", "max_passage")
#: Padded tokens per batch when ``batch_tokens=None``: CPUs gain nothing from big batches and
#: lose to padding; GPUs want full batches.
BATCH_TOKENS = {"cpu": 4096, "mps": 8192, "cuda": 32768}


class CrossEncoderReranker(Reranker):
    """Reranks by a cross-encoder's relevance probability.

    ``relevance_score`` is the model's probability: the sigmoid of its logit for single-output
    models (all MS MARCO cross-encoders), the softmax probability of the positive class (label
    1) for two-label models. ``score`` is the logit (the positive class's logit).

    Args:
        model: a Hugging Face model name or a local folder. ``None`` picks a default per query
            language (see ``DEFAULT_CROSS_ENCODERS``).
        device: ``None`` picks CUDA, then MPS, then CPU.
        batch_size: at most this many pairs per forward pass.
        batch_tokens: at most this many padded tokens per forward pass (pairs x the longest
            pair), so long pairs go in small batches and short pairs in large ones. ``None``
            picks by device: 4096 on CPU, 8192 on MPS, 32768 on CUDA.
        max_length: tokens per pair (query + document); ``None`` keeps the model's own.
        long_documents: ``"truncate"`` scores the start of a long document (what the model sees
            within ``max_length``); ``"max_passage"`` scores overlapping windows of
            ``passage_words`` words and keeps the best window (named in the explanation).
        half_precision: run in float16 on CUDA (ignored on CPU and MPS).
        cache_size: (model, query, text) scores kept; 0 turns the cache off.
        trust_remote_code: let the model run code from its repository (off unless you ask).
        language: force the language used to pick the default model.

    >>> reranker = CrossEncoderReranker("cross-encoder/ms-marco-MiniLM-L6-v2")  # doctest: +SKIP
    >>> reranker.rank("How do I make Python faster?", ["Cython speeds up Python.", "Snakes"])
    ... # doctest: +SKIP
    [RankedResult(index=0, ...), RankedResult(index=1, ...)]
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        device: str | None = None,
        batch_size: int = 32,
        batch_tokens: int | None = None,
        max_length: int | None = None,
        long_documents: str = "truncate",
        passage_words: int = 160,
        passage_overlap: int = 40,
        half_precision: bool = True,
        cache_size: int = 20_000,
        trust_remote_code: bool = False,
        language: str | None = None,
        analyzer: Analyzer | None = None,
    ) -> None:
        if long_documents not in LONG_DOCUMENT_MODES:
            raise ValueError(
                f"long_documents must be one of {', '.join(LONG_DOCUMENT_MODES)}, "
                f"got {long_documents!r}."
            )
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}.")
        if batch_tokens is not None and batch_tokens < 1:
            raise ValueError(f"batch_tokens must be >= 1 or None, got {batch_tokens}.")
        windows("", passage_words, passage_overlap)  # validates the window settings
        self.model = str(model) if model is not None else None
        self.device = device
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self.max_length = max_length
        self.long_documents = long_documents
        self.passage_words = passage_words
        self.passage_overlap = passage_overlap
        self.half_precision = half_precision
        self.trust_remote_code = trust_remote_code
        self.language = language
        self._analyzer = analyzer
        self._models: dict[str, Any] = {}
        self._cache: LRUCache[tuple[float, float, int, int]] = LRUCache(cache_size)

    def model_for(self, query: str, documents: Sequence[str] = ()) -> str:
        """The model that scores ``query``: the one given, or the default for its language.

        The language is the query's, or, when the query is too short to tell, the candidates'
        dominant language (the core's fallback rule).
        """
        if self.model is not None:
            return self.model
        if self.language is not None:
            return default_cross_encoder(self.language)
        if self._analyzer is None:
            self._analyzer = Analyzer()
        return default_cross_encoder(self._analyzer.languages_for(query, documents)[0])

    def load(self, name: str) -> Any:
        """The loaded ``CrossEncoder`` for ``name`` (loaded once per reranker, also when threads
        ask for it at the same time)."""
        if name in self._models:
            return self._models[name]
        with LOAD_LOCK:
            if name in self._models:
                return self._models[name]
            sentence_transformers = require_sentence_transformers("CrossEncoderReranker")
            device = pick_device(self.device)

            def build() -> Any:
                model = sentence_transformers.CrossEncoder(
                    name,
                    device=device,
                    max_length=self.max_length,
                    trust_remote_code=self.trust_remote_code,
                )
                if use_half_precision(device, self.half_precision):
                    model.half()
                return model

            self._models[name] = load_model("cross-encoder", name, build)
        return self._models[name]

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        name = self.model_for(query, documents)
        keys = [(name, query, content_key(d), self.long_documents) for d in documents]
        found = {key: self._cache.get(key) for key in dict.fromkeys(keys)}
        missing = {key: text for key, text in zip(keys, documents, strict=True) if not found[key]}
        if missing:
            predicted = self._predict(name, query, list(missing.values()))
            for key, value in zip(missing, predicted, strict=True):
                self._cache.put(key, value)
                found[key] = value
        values = [found[key] or (0.0, 0.0, 0, 1) for key in keys]
        explanations = None
        if explain:
            explanations = [_explanation(name, *value) for value in values]
        return Scores([v[0] for v in values], [v[1] for v in values], explanations)

    def _predict(
        self, name: str, query: str, texts: list[str]
    ) -> list[tuple[float, float, int, int]]:
        """Score distinct texts: whole, or window by window keeping each text's best window."""
        import torch

        model = self.load(name)
        if self.long_documents == "max_passage":
            pieces = [windows(t, self.passage_words, self.passage_overlap) for t in texts]
        else:
            pieces = [[t] for t in texts]
        pairs = [(query, piece) for group in pieces for piece in group]
        limit = getattr(model, "max_seq_length", None) or 512
        lengths = [estimate_tokens(query, piece, limit) for _, piece in pairs]
        budget = self.batch_tokens or BATCH_TOKENS.get(str(model.device.type), 4096)
        logits: list[Any] = [None] * len(pairs)
        for batch in length_batches(lengths, self.batch_size, budget):
            outputs = model.predict(
                [pairs[i] for i in batch],
                batch_size=len(batch),
                activation_fn=torch.nn.Identity(),
                show_progress_bar=False,
            )
            for i, output in zip(batch, outputs, strict=True):
                logits[i] = output
        results: list[tuple[float, float, int, int]] = []
        position = 0
        for group in pieces:
            scored = [_logit_and_probability(logits[position + i]) for i in range(len(group))]
            best = max(range(len(group)), key=lambda i: (scored[i][1], -i))
            results.append((scored[best][0], scored[best][1], best, len(group)))
            position += len(group)
        return results


def _explanation(name: str, logit: float, probability: float, window: int, windows: int) -> dict:
    explanation: dict[str, Any] = {
        "model": name,
        "cross_encoder_logit": logit,
        "cross_encoder_probability": probability,
    }
    if windows > 1:  # long_documents="max_passage" split this document
        explanation["best_window"] = window
        explanation["windows"] = windows
    return explanation


def _logit_and_probability(output: Any) -> tuple[float, float]:
    """One output of the model: a single logit (sigmoid), or two (softmax, class 1)."""
    values = np.atleast_1d(np.asarray(output, dtype=float)).tolist()
    if len(values) == 1:
        logit = values[0]
        return logit, _sigmoid(logit)
    if len(values) == 2:
        return values[1], _sigmoid(values[1] - values[0])  # softmax of two classes
    raise ValueError(
        f"The cross-encoder returns {len(values)} scores per pair; rerank-plus needs a model "
        "with one output (a relevance logit) or two (not relevant / relevant)."
    )


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)
