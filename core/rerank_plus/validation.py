"""Input checks shared by every reranker: bad input fails early, naming the bad item."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any


def check_query(query: Any) -> str:
    if not isinstance(query, str):
        raise TypeError(f"query must be a str, got {type(query).__name__}.")
    return query


def check_documents(documents: Any) -> list[str]:
    """Return the documents as a list of str, or say which item is not a string."""
    if isinstance(documents, (str, bytes)) or not isinstance(documents, Sequence):
        raise TypeError(
            "documents must be a sequence of str (a list or tuple), "
            f"got {type(documents).__name__}. Wrap a single document in a list."
        )
    for position, document in enumerate(documents):
        if not isinstance(document, str):
            raise TypeError(
                f"documents[{position}] is {type(document).__name__}, not str. "
                "Pass the text of each document (use '' for a document without text)."
            )
    return list(documents)


def check_top_n(top_n: Any) -> int | None:
    if top_n is None:
        return None
    if isinstance(top_n, bool) or not isinstance(top_n, int) or top_n < 1:
        raise ValueError(f"top_n must be a positive int or None, got {top_n!r}.")
    return top_n


def check_threshold(threshold: Any) -> float | None:
    if threshold is None:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise TypeError(f"threshold must be a number in [0, 1] or None, got {threshold!r}.")
    if math.isnan(threshold) or not 0.0 <= threshold <= 1.0:
        raise ValueError(
            "threshold must lie in [0, 1] (it is compared with relevance_score), "
            f"got {threshold!r}."
        )
    return float(threshold)


#: The type of nearly every first-stage score list's items, checked without a per-item loop.
_PLAIN_FLOAT = frozenset({float})


def check_first_stage_scores(scores: Any, n_documents: int) -> list[float] | None:
    """The first stage's scores as floats, one per document, or None when not given.

    Any finite float is accepted (fusion keeps the order of finite values over the whole range);
    NaN and infinities are rejected here, where the error can name the position.
    """
    if scores is None:
        return None
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise TypeError(f"first_stage_scores must be a sequence of numbers, got {scores!r}.")
    if len(scores) != n_documents:
        raise ValueError(
            f"first_stage_scores has {len(scores)} values for {n_documents} documents; "
            "pass one score per document, in the same order."
        )
    if {*map(type, scores)} <= _PLAIN_FLOAT:  # the common case, checked in two passes
        values = list(scores)
        if math.isfinite(sum(values)):  # a sum is finite only if every value is
            return values
    values = []
    for position, value in enumerate(scores):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            raise TypeError(f"first_stage_scores[{position}] is {value!r}, not a number.")
        if not math.isfinite(value):
            raise ValueError(
                f"first_stage_scores[{position}] is {value!r}; scores must be finite. Clip "
                "infinite scores to a finite bound (finite values of any size keep their order)."
            )
        values.append(float(value))
    return values


def check_metadata(metadata: Any, n_documents: int) -> list[Mapping[str, Any]]:
    """One mapping per document (``None`` items count as empty), or say which item is wrong."""
    if isinstance(metadata, (str, bytes, Mapping)) or not isinstance(metadata, Sequence):
        raise TypeError(
            "metadata must be a sequence of mappings, one per document, "
            f"got {type(metadata).__name__}."
        )
    if len(metadata) != n_documents:
        raise ValueError(
            f"metadata has {len(metadata)} items for {n_documents} documents; "
            "pass one mapping per document, in the same order ({} for none)."
        )
    items: list[Mapping[str, Any]] = []
    for position, item in enumerate(metadata):
        if item is None:
            item = {}
        if not isinstance(item, Mapping):
            raise TypeError(
                f"metadata[{position}] is {type(item).__name__}, not a mapping (dict); "
                "use {} for a document without metadata."
            )
        items.append(item)
    return items
