"""Diversity by maximal marginal relevance (Carbonell & Goldstein, SIGIR 1998).

Greedy: the next result is the candidate maximising

    lambda * relevance(d) - (1 - lambda) * max over already chosen c of similarity(d, c)

so a near-duplicate of a chosen result loses its place to something new. ``lambda=1`` is the
plain relevance order; ``lambda=0`` only novelty.

Similarity is lexical by default (cosine over the analyzer's term counts: lemmatized,
stop-word-free terms; no embedding model needed) or the cosine of a bi-encoder's embeddings.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from rerank_plus.analysis import Analyzer


class Similarity(Protocol):
    def matrix(self, texts: Sequence[str]) -> list[list[float]] | np.ndarray:
        """Pairwise similarity of ``texts``, in [0, 1] (1 on the diagonal): rows of floats or
        one square array."""
        ...


def _cosine(a: Mapping[str, int], b: Mapping[str, int], norms: tuple[float, float]) -> float:
    """The cosine of two term counts whose norms are known (each text's norm once, not once
    per pair: MMR compares every pair of its candidates). The shared terms are found by one
    set intersection; counts are ints, so the dot product is exact in any order."""
    dot = sum(a[term] * b[term] for term in a.keys() & b.keys())
    if not dot:
        return 0.0
    return min(1.0, dot / (norms[0] * norms[1]))


def _norm(counts: Mapping[str, int]) -> float:
    return math.sqrt(sum(v * v for v in counts.values()))


class LexicalSimilarity:
    """Cosine over term counts from :class:`~rerank_plus.Analyzer` (each text in its language).

    Two texts without any term (empty, only stop words) are similar to nothing.
    """

    name = "lexical"

    def __init__(self, analyzer: Analyzer | None = None) -> None:
        self.analyzer = analyzer if analyzer is not None else Analyzer()

    def matrix(self, texts: Sequence[str]) -> list[list[float]]:
        _, languages = self.analyzer.languages_for("", texts)
        counts = [
            self.analyzer.analyze(text, language).term_frequencies
            for text, language in zip(texts, languages, strict=True)
        ]
        norms = [_norm(count) for count in counts]
        n = len(texts)
        out = [[0.0] * n for _ in range(n)]
        for i in range(n):
            out[i][i] = 1.0
            for j in range(i + 1, n):
                out[i][j] = out[j][i] = _cosine(counts[i], counts[j], (norms[i], norms[j]))
        return out


class EmbeddingSimilarity:
    """Cosine of a bi-encoder's embeddings (``BiEncoderReranker`` or anything with ``embed``),
    clipped to [0, 1]."""

    name = "embedding"

    def __init__(self, encoder: Any) -> None:
        if not callable(getattr(encoder, "embed", None)):
            raise TypeError(
                f"EmbeddingSimilarity needs an object with embed(texts), such as "
                f"BiEncoderReranker(); got {type(encoder).__name__}."
            )
        self.encoder = encoder

    def matrix(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self.encoder.embed(list(texts))
        return [[min(1.0, max(0.0, float(v))) for v in row] for row in (vectors @ vectors.T)]


#: Similarity kinds by the name configurations use; "embedding" needs a bi-encoder.
SIMILARITIES: dict[str, type] = {"embedding": EmbeddingSimilarity, "lexical": LexicalSimilarity}


class MaximalMarginalRelevance:
    """Reorder results for novelty; ``lambda_`` in [0, 1] weighs relevance against it.

    >>> mmr = MaximalMarginalRelevance(lambda_=0.5)
    >>> docs = ["red apples and pears", "red apples and pears", "green grapes"]
    >>> mmr.order([0.9, 0.85, 0.6], docs)
    [0, 2, 1]
    """

    def __init__(self, lambda_: float = 0.7, similarity: Similarity | None = None) -> None:
        if (
            isinstance(lambda_, bool)
            or not isinstance(lambda_, (int, float))
            or not 0 <= lambda_ <= 1
        ):
            raise ValueError(f"lambda_ must be a number in [0, 1], got {lambda_!r}.")
        self.lambda_ = float(lambda_)
        self.similarity = similarity if similarity is not None else LexicalSimilarity()

    def order(
        self, relevance: Sequence[float], texts: Sequence[str], limit: int | None = None
    ) -> list[int]:
        """Positions of ``texts`` (given best first) in MMR order.

        After ``limit`` picks, the rest follow in their given order (no need to diversify what
        top-n will drop anyway). Equal MMR values keep the given order.
        """
        chosen, _ = self._picked(relevance, texts, limit)
        return chosen + _rest(len(texts), chosen)

    def order_explained(
        self, relevance: Sequence[float], texts: Sequence[str], limit: int | None = None
    ) -> tuple[list[int], list[float]]:
        """:meth:`order`, and for each position its highest similarity to the results picked
        before it (what MMR held against it)."""
        chosen, columns = self._picked(relevance, texts, limit)
        held = [0.0] * len(texts) if columns is None else _held(columns, chosen)
        return chosen + _rest(len(texts), chosen), held

    def _picked(
        self, relevance: Sequence[float], texts: Sequence[str], limit: int | None
    ) -> tuple[list[int], np.ndarray | None]:
        """The greedy picks, and the similarity matrix's columns as rows (None, and no pick,
        when there is nothing to diversify).

        A candidate's penalty, ``(1 - lambda)`` times its closest similarity to the picks (0.0
        before any), is kept as the highest of the picks' weighted columns: the same values
        (a positive weight keeps the order of what it multiplies, rounding included), without
        a product per pick.
        """
        n = len(texts)
        if self.lambda_ == 1.0 or n < 2:
            return [], None
        # + 0.0 turns a -0.0 similarity into 0.0: the closest similarity starts at 0.0 and
        # only a larger value replaces it
        columns = np.array(self.similarity.matrix(texts), dtype=np.float64).T + 0.0
        weighted = columns * (1 - self.lambda_)
        gain = self.lambda_ * np.asarray(relevance, dtype=np.float64)
        penalty = np.zeros(n)
        value = np.empty(n)
        chosen: list[int] = []
        for _ in range(n if limit is None else min(limit, n)):
            best = int(np.subtract(gain, penalty, out=value).argmax())  # the first of equals
            chosen.append(best)
            gain[best] = -np.inf  # picked: never again
            np.maximum(penalty, weighted[best], out=penalty)
        return chosen, columns

    def __repr__(self) -> str:
        return f"MaximalMarginalRelevance(lambda_={self.lambda_})"


def _rest(n: int, chosen: list[int]) -> list[int]:
    """The positions not picked, in their given order."""
    return sorted(set(range(n)).difference(chosen))


def _held(columns: np.ndarray, chosen: list[int]) -> list[float]:
    """Each pick's highest similarity to the picks before it, each other position's to all of
    them (0.0 where there are none): the maxima in the order the picks were made."""
    # row k: the closest similarities after k picks
    closest = np.maximum.accumulate(np.vstack([np.zeros(len(columns)), columns[chosen]]), axis=0)
    held: list[float] = closest[-1].tolist()
    for k, best in enumerate(chosen):
        held[best] = closest.item(k, best)
    return held
