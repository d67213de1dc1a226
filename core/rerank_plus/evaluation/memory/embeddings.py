"""Embeddings computed once: each text once per run, and across runs from a folder on disk.

Embedding the meetings is what an evaluation spends its time on; judging and the methods'
own work are cheap. :class:`EmbeddingCache` wraps any :class:`~rerank_plus.memory.Embedder`
and keys every vector by a digest of its text, under a folder named after the model (a digest
of the model's vector for a fixed probe text, so two models never share vectors). New vectors
go to disk in shards (``.npz``, written to a temporary name and renamed, so an interrupted
run leaves no half file).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rerank_plus.memory.ingest.embedding import Embedder

_PROBE = "rerank-plus memory evaluation: which model made these vectors?"
#: New vectors written to disk together (queries come one at a time).
SHARD_SIZE = 512


def text_key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class EmbeddingCache:
    """A callable from texts to unit vectors (so :class:`Embedder` and ``build_memory`` take
    it), each text embedded once; with ``folder``, vectors persist between runs.

    ``embedded`` counts the texts the model actually embedded (cache misses).
    """

    def __init__(self, model: Any, folder: str | Path | None = None) -> None:
        self.embedder = Embedder(model)
        self._vectors: dict[str, np.ndarray] = {}
        self._pending: dict[str, np.ndarray] = {}
        self.embedded = 0
        self.folder: Path | None = None
        if folder is not None:
            probe = self.embedder.embed([_PROBE])[0]
            model_key = hashlib.blake2b(
                np.round(probe, 4).astype(np.float32).tobytes(), digest_size=8
            ).hexdigest()
            self.folder = Path(folder) / f"model-{model_key}"
            self.folder.mkdir(parents=True, exist_ok=True)
            self._load()

    def _load(self) -> None:
        assert self.folder is not None
        for shard in sorted(self.folder.glob("*.npz")):
            with np.load(shard) as data:
                for key, vector in zip(data["keys"], data["vectors"], strict=True):
                    self._vectors[str(key)] = vector

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        keys = [text_key(text) for text in texts]
        missing = {key: text for key, text in zip(keys, texts, strict=True)}
        missing = {key: text for key, text in missing.items() if key not in self._vectors}
        if missing:
            vectors = self.embedder.embed(list(missing.values()))
            self.embedded += len(missing)
            for key, vector in zip(missing, vectors, strict=True):
                self._vectors[key] = vector
                self._pending[key] = vector
            if len(self._pending) >= SHARD_SIZE:
                self.flush()
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._vectors[key] for key in keys])

    def embed_query(self, text: str) -> np.ndarray:
        return self([text])[0]

    def flush(self) -> None:
        """Write the vectors computed since the last flush to a new shard."""
        if self.folder is None or not self._pending:
            self._pending.clear()
            return
        keys = np.array(list(self._pending))
        vectors = np.stack(list(self._pending.values()))
        name = hashlib.blake2b("".join(keys).encode(), digest_size=8).hexdigest()
        handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        with os.fdopen(handle, "wb") as file:
            np.savez(file, keys=keys, vectors=vectors)
        os.replace(temporary, self.folder / f"shard-{name}.npz")
        self._pending.clear()
