"""Rerankers over a model object the caller already has, instead of a model name.

Two one-method contracts, the ones LangChain's interfaces define (so its objects fit as they
are; the adapters wrap other frameworks' objects into them): :class:`PairScorer` scores
``(query, text)`` pairs (``langchain_core.cross_encoders.BaseCrossEncoder``), and
:class:`TextEmbedder` embeds documents and queries (``langchain_core.embeddings.Embeddings``).
The rerankers add what the named-model rerankers have: bounded batches (longest pairs
together, as :mod:`rerank_plus.scoring.batching` cuts them), a cache by content (a pair or a
document scored once), and relevance in [0, 1]. Nothing here imports a framework.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from rerank_plus.analysis.cache import LRUCache, content_key
from rerank_plus.reranker import Reranker, Scores
from rerank_plus.scoring.batching import estimate_tokens, length_batches

OUTPUTS = ("probability", "logit")
#: Pair tokens one batch may hold, as the cross-encoder's CPU budget (pairs x longest pair).
BATCH_TOKENS = 16_384
_LONGEST_ESTIMATE = 512


@runtime_checkable
class PairScorer(Protocol):
    """Scores ``(query, text)`` pairs, one number per pair, higher is more relevant."""

    def score(self, text_pairs: list[tuple[str, str]]) -> list[float]: ...


@runtime_checkable
class TextEmbedder(Protocol):
    """Embeds documents in a batch and one query (models may embed the two differently)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


def object_name(model: object) -> str:
    """What results and events call the model: its own name when it has one, else its class."""
    for attribute in ("model_name", "model", "model_id"):
        value = getattr(model, attribute, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__


def _check_sizes(batch_size: int, cache_size: int) -> None:
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}.")
    LRUCache(cache_size)  # validates the size


def _numbers(values: Any, expected: int, owner: str, method: str) -> list[float]:
    numbers = [float(v) for v in values]
    if not all(math.isfinite(n) for n in numbers):
        raise ValueError(f"{owner}.{method} returned a value that is not a finite number.")
    if len(numbers) != expected:
        raise ValueError(
            f"{owner}.{method} returned {len(numbers)} values for {expected} inputs; it must "
            "return one per input, in order."
        )
    return numbers


class PairScorerReranker(Reranker):
    """Reranks with any :class:`PairScorer` (a LangChain ``BaseCrossEncoder``).

    ``outputs`` says what its numbers are: ``"probability"`` (in [0, 1], the relevance as is;
    sentence-transformers' ``CrossEncoder.predict`` gives these for one-label models) or
    ``"logit"`` (the relevance is their sigmoid). ``score`` is the scorer's number either way.
    A "probability" outside [0, 1] is an error that says to pass ``outputs="logit"``.
    """

    def __init__(
        self,
        scorer: PairScorer,
        *,
        outputs: str = "probability",
        batch_size: int = 32,
        cache_size: int = 20_000,
        name: str | None = None,
    ) -> None:
        if not callable(getattr(scorer, "score", None)):
            raise TypeError(
                f"scorer must have score(text_pairs) -> list[float] (a LangChain "
                f"BaseCrossEncoder), got {type(scorer).__name__}."
            )
        if outputs not in OUTPUTS:
            raise ValueError(f"outputs must be one of {', '.join(OUTPUTS)}, got {outputs!r}.")
        _check_sizes(batch_size, cache_size)
        self.scorer = scorer
        self.outputs = outputs
        self.batch_size = batch_size
        self.model = name or object_name(scorer)
        self._cache: LRUCache[float] = LRUCache(cache_size)

    def _relevance(self, value: float) -> float:
        if self.outputs == "logit":
            return 0.5 * (1.0 + math.tanh(value / 2.0))  # the sigmoid, without overflow
        if not 0.0 <= value <= 1.0:
            raise ValueError(
                f"{self.model} returned {value!r}, which is not a probability: if its scores "
                'are logits, rerank with PairScorerReranker(scorer, outputs="logit").'
            )
        return value

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        query_key = content_key(query)
        keys: list[Hashable] = [(query_key, content_key(text)) for text in documents]
        values: dict[Hashable, float] = {}
        todo: dict[Hashable, int] = {}  # each pair not cached, at its first position
        for position, key in enumerate(keys):
            if key not in values and key not in todo:
                cached = self._cache.get(key)
                if cached is None:
                    todo[key] = position
                else:
                    values[key] = cached
        rows = list(todo.values())
        lengths = [estimate_tokens(query, documents[i], _LONGEST_ESTIMATE) for i in rows]
        owner = type(self.scorer).__name__
        for batch in length_batches(lengths, self.batch_size, BATCH_TOKENS):
            asked = [rows[j] for j in batch]
            answers = self.scorer.score([(query, documents[i]) for i in asked])
            for i, value in zip(asked, _numbers(answers, len(asked), owner, "score"), strict=True):
                self._cache.put(keys[i], value)
                values[keys[i]] = value
        raw = [values[key] for key in keys]
        relevance = [self._relevance(value) for value in raw]
        explanations = (
            [{"model": self.model, self.outputs: value} for value in raw] if explain else None
        )
        return Scores(raw, relevance, explanations)


class EmbeddingsReranker(Reranker):
    """Reranks by the cosine of a :class:`TextEmbedder`'s query and document vectors (a
    LangChain ``Embeddings``), as :class:`rerank_plus.BiEncoderReranker` does with a named
    model: ``score`` is the cosine, ``relevance_score`` ``(1 + cosine) / 2``. Documents are
    embedded ``batch_size`` at a time and cached by content; queries are cached apart (a model
    may embed a query differently from the same text as a document)."""

    def __init__(
        self,
        embedder: TextEmbedder,
        *,
        batch_size: int = 32,
        cache_size: int = 20_000,
        name: str | None = None,
    ) -> None:
        if not all(
            callable(getattr(embedder, m, None)) for m in ("embed_documents", "embed_query")
        ):
            raise TypeError(
                "embedder must have embed_documents(texts) and embed_query(text) (a LangChain "
                f"Embeddings), got {type(embedder).__name__}."
            )
        _check_sizes(batch_size, cache_size)
        self.embedder = embedder
        self.batch_size = batch_size
        self.model = name or object_name(embedder)
        self._documents: LRUCache[np.ndarray] = LRUCache(cache_size)
        self._queries: LRUCache[np.ndarray] = LRUCache(min(cache_size, 1_000))

    @staticmethod
    def _unit(vector: Any, owner: str) -> np.ndarray:
        array = np.asarray(vector, dtype=np.float32)
        if array.ndim != 1 or not np.isfinite(array).all():
            raise ValueError(
                f"{owner} returned a vector that is not a flat list of finite numbers."
            )
        return array / max(float(np.linalg.norm(array)), 1e-12)

    def _query_vector(self, query: str) -> np.ndarray:
        owner = f"{type(self.embedder).__name__}.embed_query"
        return self._queries.get_or_compute(
            content_key(query), lambda: self._unit(self.embedder.embed_query(query), owner)
        )

    def _document_vectors(self, documents: Sequence[str]) -> list[np.ndarray]:
        keys = [content_key(text) for text in documents]
        found = {key: self._documents.get(key) for key in dict.fromkeys(keys)}
        missing = {
            key: text for key, text in zip(keys, documents, strict=True) if found[key] is None
        }
        owner = f"{type(self.embedder).__name__}.embed_documents"
        pending = list(missing.items())
        for start in range(0, len(pending), self.batch_size):
            chunk = pending[start : start + self.batch_size]
            vectors = self.embedder.embed_documents([text for _, text in chunk])
            if len(vectors) != len(chunk):
                raise ValueError(
                    f"{owner} returned {len(vectors)} vectors for {len(chunk)} texts; it must "
                    "return one per text, in order."
                )
            for (key, _), vector in zip(chunk, vectors, strict=True):
                found[key] = self._unit(vector, owner)
                self._documents.put(key, found[key])  # type: ignore[arg-type]
        return [found[key] for key in keys]  # type: ignore[misc]

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        query_vector = self._query_vector(query)
        vectors = self._document_vectors(documents)
        if any(v.shape != query_vector.shape for v in vectors):
            raise ValueError(
                f"{self.model} embedded the query and the documents in different sizes."
            )
        cosines = [float(np.clip(v @ query_vector, -1.0, 1.0)) for v in vectors]
        relevance = [(1.0 + cosine) / 2.0 for cosine in cosines]
        explanations = (
            [{"model": self.model, "cosine": cosine} for cosine in cosines] if explain else None
        )
        return Scores(cosines, relevance, explanations)
