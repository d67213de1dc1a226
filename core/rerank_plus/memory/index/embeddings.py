"""The embeddings of a memory's items as one matrix of unit rows, level by level.

A window summary (L1) is searched by its text and the messages it covers (see
:func:`~rerank_plus.memory.index.tables.search_texts`), so its row is moved toward its
messages'. After a change, the rows of the items the change left alone are kept: an add embeds
only what it made.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from rerank_plus.memory.ingest.embedding import Embedder
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory


def unit_rows(items: Sequence[MemoryItem], embedder: Embedder | None) -> np.ndarray | None:
    """One unit row per item: stored embeddings where every item has one, else embedded
    (only the items without one) when an embedder is given, else None."""
    if not items:
        return None
    stored = [item.embedding for item in items]
    missing = [i for i, vector in enumerate(stored) if vector is None]
    if not missing:
        fresh = None
    elif embedder is None:
        return None
    else:
        fresh = embedder.embed([items[i].text for i in missing])
    width = len(next(v for v in stored if v is not None)) if len(missing) < len(items) else 0
    width = width or (fresh.shape[1] if fresh is not None else 0)
    matrix = np.zeros((len(items), width), dtype=np.float32)
    for i, vector in enumerate(stored):
        if vector is not None:
            if len(vector) != width:
                raise ValueError(
                    f"item {items[i].id!r} has an embedding of {len(vector)} values, others "
                    f"{width}; embed every item with the same model."
                )
            matrix[i] = vector
    if fresh is not None:
        matrix[missing] = fresh
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


def window_rows(
    memory: Memory, vectors: np.ndarray | None, windows: Collection[str] | None = None
) -> np.ndarray | None:
    """Window rows moved toward their messages: the unit mean of the summary's vector and
    its covered messages' vectors, matching what a window is searched by. Only the
    ``windows`` named, when given (the others' rows are moved already)."""
    if vectors is None or memory.depth < 2:
        return vectors
    row_of = {item.id: row for row, item in enumerate(memory.items)}
    out = vectors.copy()
    for window in memory.level(1):
        if windows is not None and window.id not in windows:
            continue
        rows = [row_of[window.id]] + [row_of[c] for c in window.covers if memory.get(c).level == 0]
        mean = vectors[rows].mean(axis=0)
        out[row_of[window.id]] = mean / max(float(np.linalg.norm(mean)), 1e-12)
    return out


def rows_since(
    memory: Memory,
    embedder: Embedder | None,
    made: set[str],
    before: Sequence[MemoryItem] = (),
    before_rows: np.ndarray | None = None,
) -> np.ndarray | None:
    """The rows of every item of ``memory`` (:func:`unit_rows`, windows moved toward their
    messages): ``before_rows`` for the items ``before`` held (a window unchanged covers the
    same messages, so its row is too), so an add embeds and averages only the items it
    ``made`` (new or replaced; by id)."""
    items = memory.items
    if before_rows is None or not made or len(made) == len(items):
        return window_rows(memory, unit_rows(items, embedder))
    kept = [n for n, item in enumerate(items) if item.id not in made]
    made_rows = [n for n, item in enumerate(items) if item.id in made]
    fresh = unit_rows([items[n] for n in made_rows], embedder)
    if fresh is None or fresh.shape[1] != before_rows.shape[1]:
        # rows that do not mix (new items without embeddings, another width): every row
        # made anew, which says what is wrong
        return window_rows(memory, unit_rows(items, embedder))
    row_before = {item.id: row for row, item in enumerate(before)}
    matrix = np.empty((len(items), fresh.shape[1]), dtype=np.float32)
    matrix[kept] = before_rows[[row_before[items[n].id] for n in kept]]
    matrix[made_rows] = fresh
    return window_rows(memory, matrix, made)
