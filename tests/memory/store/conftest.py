"""Fixtures of the store tests: a store URL per backend (SQLite file, ``memory://``, and a
real PostgreSQL server), and a small deterministic embedder."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

#: The backends every store test runs against.
BACKENDS = ("sqlite", "memory")


def hashed_embedder(texts: list[str]) -> np.ndarray:
    """Bag of lowercased words hashed into 32 buckets (similar words, similar vectors); a
    text embeds the same alone or in a batch, so stores and writers agree exactly."""
    rows = np.zeros((len(texts), 32), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().split():
            rows[row, zlib.crc32(word.encode()) % 32] += 1.0
        rows[row, 0] += 0.01
    return rows


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A URL of an empty store of each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'memory.db'}"
    return "memory://"
