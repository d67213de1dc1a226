"""Whether the embedding model tells a memory's messages apart, and the fusion that follows.

An embedding model reads the languages it learned; on others it maps every message to nearly
the same direction, and its cosine ranks by noise. How alike two different messages of the
memory are on average (:func:`message_likeness`) shows it without knowing the model or the
language: all-MiniLM-L6-v2 gives 0.16 to 0.29 on each of QMSum's 143 English meetings and 0.22
on XQuAD's German passages, which it partly reads, but 0.41, 0.49 and 0.62 on the Thai, Chinese
and Arabic ones. Past :data:`BLIND_LIKENESS`, in a memory of :data:`MIN_MESSAGES` messages or
more (:func:`reads_blind`), the light stage's fusion gives the lexical score
:data:`LEXICAL_WEIGHT` of the weight (:func:`leaning_lexical`): on XQuAD read as a
conversation that took gold recall at 2,000 tokens from 0.55 to 0.85 in Thai and from 0.87 to
0.94 in Chinese, where the dense half had pulled noise to the top.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

#: Two different messages this alike on average: the model does not read the memory's language.
BLIND_LIKENESS = 0.35
#: The fewest messages whose likeness is read: a few consecutive messages are about one subject,
#: and alike even to a model that reads them. Stretches of n consecutive English QMSum turns
#: pass BLIND_LIKENESS under all-MiniLM-L6-v2 at n = 3 in 20% of cases, at 16 in 5%, at 32 in
#: 2.2%, at 48 in none of 360, where stretches of Thai, Chinese and Arabic passages still pass
#: in 92.5%, 100% and 100% (``python benchmarks/memory_dense_trust.py --meetings 12 --turns 200
#: --stretches 30``).
MIN_MESSAGES = 48
#: The lexical score's weight in the fusion then.
LEXICAL_WEIGHT = 0.9
#: The most messages the likeness reads.
SAMPLED_ROWS = 2048
#: The weights each fusion method takes (the lexical reranker's, against the dense cosine).
_WEIGHTS = {
    "weighted": ("alpha",),
    "rrf": ("alpha",),
    "adaptive": ("alpha", "unread_alpha", "unknown_alpha", "unread_script_alpha"),
}


def message_likeness(vectors: np.ndarray | None) -> float | None:
    """The mean cosine of two different rows of ``vectors`` (unit rows), or None with fewer
    than two: the sum over all pairs is the squared norm of the rows' sum, less the n pairs of
    a row with itself. Read on at most :data:`SAMPLED_ROWS` rows, evenly spaced: their two
    million pairs give the mean as well as all of a large memory's, at a bounded cost.

    >>> message_likeness(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]))
    0.3333333333333333
    """
    if vectors is None or len(vectors) < 2:
        return None
    rows = vectors[:: -(-len(vectors) // SAMPLED_ROWS)]
    count = len(rows)
    total = rows.sum(axis=0, dtype=np.float64)
    norms = np.einsum("ij,ij->", rows, rows, dtype=np.float64)  # n for unit rows, less for zeros
    return float((total @ total - norms) / (count * (count - 1)))


def reads_blind(likeness: float, messages: int) -> bool:
    """Whether a memory of ``messages`` messages whose :func:`message_likeness` is
    ``likeness`` shows a model that does not read its language (never below
    :data:`MIN_MESSAGES`).

    >>> reads_blind(0.5, 3), reads_blind(0.5, 200), reads_blind(0.2, 200)
    (False, True, False)
    """
    return messages >= MIN_MESSAGES and likeness > BLIND_LIKENESS


def leaning_lexical(fusion: Mapping[str, Any] | str) -> Mapping[str, Any] | str:
    """``fusion`` with the lexical score's weight raised to :data:`LEXICAL_WEIGHT` (kept where
    it is higher); a fusion of another kind is returned as it is.

    >>> leaning_lexical("rrf")
    {'method': 'rrf', 'alpha': 0.9}
    >>> leaning_lexical({"method": "weighted", "normalization": "dbsf", "alpha": 0.95})
    {'method': 'weighted', 'normalization': 'dbsf', 'alpha': 0.95}
    """
    settings: dict[str, Any] = {"method": fusion} if isinstance(fusion, str) else dict(fusion)
    names = _WEIGHTS.get(settings.get("method", "adaptive"))
    if names is None:
        return fusion
    for name in names:
        settings[name] = max(float(settings.get(name, 0.0)), LEXICAL_WEIGHT)
    return settings
