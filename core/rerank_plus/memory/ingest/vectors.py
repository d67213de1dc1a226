"""Similarity without a model: term weights (tf * idf over messages), and one cosine for term
weights and embedding rows alike.

The idf is ``log((n + 1) / (df + 1)) + 1`` (the smoothed form scikit-learn uses), with ``df``
the number of messages a term occurs in: words said everywhere ("yeah", "okay", "think") weigh
little, so they neither join two topics nor make a filler sentence central.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import cast

import numpy as np

from rerank_plus.memory.ingest.requests import Vector


class TermStatistics:
    """How many messages each term occurs in, updated one message at a time."""

    def __init__(self) -> None:
        self.documents = 0
        self.frequencies: Counter[str] = Counter()

    def add(self, terms: Iterable[str]) -> None:
        self.documents += 1
        self.frequencies.update(set(terms))

    def idf(self, term: str) -> float:
        return math.log((self.documents + 1) / (self.frequencies.get(term, 0) + 1)) + 1.0

    def weigh(self, counts: Mapping[str, int]) -> dict[str, float]:
        """Term counts -> tf * idf weights."""
        return {term: count * self.idf(term) for term, count in counts.items()}

    def copy(self) -> TermStatistics:
        twin = TermStatistics()
        twin.documents = self.documents
        twin.frequencies = self.frequencies.copy()
        return twin


def cosine(left: Vector, right: Vector) -> float:
    """Cosine of two embedding rows or two term-weight mappings (0 when either is empty)."""
    if isinstance(left, np.ndarray) and isinstance(right, np.ndarray):
        norms = float(np.linalg.norm(left) * np.linalg.norm(right))
        return float(left @ right) / norms if norms else 0.0
    assert isinstance(left, Mapping) and isinstance(right, Mapping)
    if len(left) > len(right):
        left, right = right, left
    dot = sum(weight * right.get(term, 0.0) for term, weight in left.items())
    if not dot:
        return 0.0
    norms = math.sqrt(sum(w * w for w in left.values()) * sum(w * w for w in right.values()))
    return dot / norms


def add_into(total: Vector | None, vector: Vector) -> Vector:
    """``total + vector`` (a new object; ``total`` None starts a sum)."""
    if isinstance(vector, np.ndarray):
        return vector.astype(np.float32, copy=True) if total is None else total + vector
    summed: dict[str, float] = dict(total) if isinstance(total, Mapping) else {}
    for term, weight in vector.items():
        summed[term] = summed.get(term, 0.0) + weight
    return summed


def unit_matrix(vectors: Sequence[Vector]) -> np.ndarray:
    """Rows of unit length (zero rows stay zero): embeddings as they are, term weights over
    the vocabulary of these vectors alone."""
    if not vectors:
        return np.zeros((0, 0), dtype=np.float32)
    if isinstance(vectors[0], np.ndarray):
        matrix = np.vstack(cast(Sequence[np.ndarray], vectors)).astype(np.float32, copy=False)
    else:
        vocabulary: dict[str, int] = {}
        for vector in vectors:
            for term in vector:
                vocabulary.setdefault(term, len(vocabulary))
        matrix = np.zeros((len(vectors), max(len(vocabulary), 1)), dtype=np.float32)
        for row, vector in enumerate(vectors):
            assert isinstance(vector, Mapping)
            for term, weight in vector.items():
                matrix[row, vocabulary[term]] = weight
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


def unit_mean(vectors: Sequence[np.ndarray]) -> np.ndarray:
    """The mean of embedding rows, scaled to unit length (a zero mean stays zero)."""
    mean: np.ndarray = np.vstack(vectors).astype(np.float32, copy=False).mean(axis=0)
    return mean / max(float(np.linalg.norm(mean)), 1e-12)
