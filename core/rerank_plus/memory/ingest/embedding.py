"""One embedder shape for the memory layer, from whatever model the user already has.

Accepted: a :class:`~rerank_plus.BiEncoderReranker` (its cache is reused), a
sentence-transformers ``SentenceTransformer``, a LlamaIndex embedding
(``get_text_embedding_batch`` / ``get_query_embedding``), a LangChain ``Embeddings``
(``embed_documents`` / ``embed_query``), a model name (loaded as a ``BiEncoderReranker``), or a
callable from a list of texts to vectors. Recognized by duck typing, so the core imports no
framework. Vectors come back as unit-length float32 rows, so a dot product is the cosine.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def _unit_rows(vectors: Any, expected: int) -> np.ndarray:
    array = np.asarray(vectors, dtype=np.float32)
    if array.ndim != 2 or array.shape[0] != expected:
        raise ValueError(
            f"the embedder returned an array of shape {array.shape} for {expected} texts; "
            "it must return one vector per text."
        )
    if not np.all(np.isfinite(array)):
        raise ValueError("the embedder returned NaN or infinite values.")
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return array / np.maximum(norms, 1e-12)


class Embedder:
    """Texts and queries to unit vectors through one of the accepted model kinds.

    >>> embedder = Embedder(lambda texts: [[len(t), 1.0] for t in texts])
    >>> embedder.embed(["ab", "abcd"]).shape
    (2, 2)
    """

    def __init__(self, model: Any) -> None:
        if isinstance(model, Embedder):
            model = model.model
        self.model: Any = model
        self._documents, self._query = self._methods(model)

    @staticmethod
    def _methods(model: Any) -> tuple[Callable[[list[str]], Any], Callable[[str], Any]]:
        if isinstance(model, (str, os.PathLike)):  # a model name, or a saved model's folder
            from rerank_plus.scoring.bi_encoder import BiEncoderReranker

            model = BiEncoderReranker(os.fspath(model))
        if callable(getattr(model, "embed", None)) and hasattr(model, "load"):
            return model.embed, lambda text: model.embed([text])[0]
        if callable(getattr(model, "get_text_embedding_batch", None)):
            return model.get_text_embedding_batch, model.get_query_embedding
        if callable(getattr(model, "embed_documents", None)):
            return model.embed_documents, model.embed_query
        if callable(getattr(model, "encode", None)):

            def encode(texts: list[str]) -> Any:
                return model.encode(texts, normalize_embeddings=True, show_progress_bar=False)

            return encode, lambda text: encode([text])[0]
        if callable(model):
            return model, lambda text: model([text])[0]
        raise TypeError(
            f"cannot embed with {type(model).__name__}; pass a sentence-transformers model or "
            "name, a BiEncoderReranker, a LlamaIndex or LangChain embedding, or a callable "
            "from a list of texts to vectors."
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length row per text (an empty list gives a 0-row array)."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return _unit_rows(self._documents(texts), len(texts))

    def embed_query(self, text: str) -> np.ndarray:
        """The query's unit vector (LlamaIndex and LangChain embed queries their own way)."""
        return _unit_rows([self._query(text)], 1)[0]

    def __repr__(self) -> str:
        return f"Embedder({type(self.model).__name__})"


def as_embedder(model: Any) -> Embedder | None:
    """``None`` stays ``None`` (lexical retrieval only); anything else becomes an Embedder."""
    return None if model is None else Embedder(model)
