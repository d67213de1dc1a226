"""Items as stored: each message as one row, the summaries as one snapshot value.

A message row holds the item as the memory file's JSON object (``id``, ``text``, ``time``...;
see :mod:`~rerank_plus.memory.model.artifacts`) without its embedding, which is a binary
column: a type byte (``f`` float32, ``d`` float64) and the numbers, so a vector comes back as
the very floats it was (an embedder's float32 rows stay 4 bytes a number).

The summaries of a snapshot are one zlib-compressed JSON value (``levels``: a list per level
1, 2, ...; ``embedded``: for each item in that order, whether it has an embedding) followed by
the embeddings of the items that have one, as float64 rows (summary vectors are means
computed in float64; float32 would change them).
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from rerank_plus.memory.model.artifact_shape import item_to_dict
from rerank_plus.memory.model.artifact_validation import item_from_dict
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.store.errors import StoreError

_TYPES = {b"f": np.float32, b"d": np.float64}
_HEADER = struct.Struct("<I")


def vector_bytes(vector: Sequence[float] | None) -> bytes | None:
    """An embedding as stored (None stays None): float32 when that keeps every number."""
    if vector is None:
        return None
    wide = np.asarray(vector, dtype=np.float64)
    narrow = wide.astype(np.float32)
    if np.array_equal(narrow.astype(np.float64), wide):
        return b"f" + narrow.tobytes()
    return b"d" + wide.tobytes()


def vector_of(data: Any) -> tuple[float, ...] | None:
    """The embedding :func:`vector_bytes` stored."""
    if data is None:
        return None
    raw = bytes(data)
    kind = _TYPES.get(raw[:1])
    if kind is None:
        raise StoreError("a stored embedding has an unknown type; the store is damaged.")
    return tuple(np.frombuffer(raw[1:], dtype=kind).tolist())


def message_row(item: MemoryItem) -> tuple[str, str, bytes | None]:
    """A message's id, JSON and embedding columns."""
    data = item_to_dict(item, f"message {item.id!r}", embeddings=False)
    del data["index"]
    return item.id, json.dumps(data, ensure_ascii=False), vector_bytes(item.embedding)


def message_of(seq: int, text: str, embedding: Any) -> MemoryItem:
    """The message :func:`message_row` stored at ``seq``."""
    item = item_from_dict(json.loads(text), 0, seq, f"stored message {seq}")
    vector = vector_of(embedding)
    if vector is None:
        return item
    return replace(item, embedding=vector)


def summaries_blob(levels: Sequence[Sequence[MemoryItem]]) -> bytes:
    """Summaries (levels 1 and up, each a list in index order) as one snapshot value."""
    rows = [
        [item_to_dict(item, f"summary {item.id!r}", embeddings=False) for item in level]
        for level in levels
    ]
    vectors = [item.embedding for level in levels for item in level]
    header = {"levels": rows, "embedded": [vector is not None for vector in vectors]}
    packed = zlib.compress(json.dumps(header, ensure_ascii=False).encode("utf-8"))
    kept = [vector for vector in vectors if vector is not None]
    matrix = np.asarray(kept, dtype=np.float64).tobytes() if kept else b""
    return _HEADER.pack(len(packed)) + packed + matrix


def summaries_of(blob: Any) -> list[MemoryItem]:
    """The summaries :func:`summaries_blob` stored, level by level."""
    raw = bytes(blob)
    (length,) = _HEADER.unpack_from(raw)
    header = json.loads(zlib.decompress(raw[_HEADER.size : _HEADER.size + length]))
    flags = header["embedded"]
    matrix = np.frombuffer(raw[_HEADER.size + length :], dtype=np.float64)
    count = sum(flags)
    rows = matrix.reshape(count, -1).tolist() if count else []
    vectors = iter(rows)
    items: list[MemoryItem] = []
    for level, row in enumerate(header["levels"], start=1):
        for index, data in enumerate(row):
            item = item_from_dict(data, level, index, f"stored summary L{level}[{index}]")
            if flags[len(items)]:
                item = replace(item, embedding=tuple(next(vectors)))
            items.append(item)
    return items
