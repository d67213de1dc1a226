"""Bi-encoder reranking: cosine similarity of sentence-transformers embeddings.

For pipelines whose first stage was lexical (BM25, keyword search): embeddings add the meaning
that exact words miss. Document embeddings are cached by content, so documents that come back
for other queries are encoded once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rerank_plus.analysis.cache import LRUCache, content_key
from rerank_plus.reranker import Context, Reranker, Scores
from rerank_plus.scoring.backends import check_backend
from rerank_plus.scoring.devices import pick_device, use_half_precision
from rerank_plus.scoring.models import (
    DEFAULT_BI_ENCODER,
    LOAD_LOCK,
    load_model,
    require_sentence_transformers,
)
from rerank_plus.scoring.onnx_backend import (
    OnnxModel,
    default_backend,
    onnx_model,
    sentence_embedding,
)


class BiEncoderReranker(Reranker):
    """Reranks by cosine similarity between the query's and each document's embedding.

    ``score`` is the cosine in [-1, 1]; ``relevance_score`` maps it to [0, 1] as
    ``(1 + cosine) / 2``.

    Args:
        model: a sentence-transformers model name or a local folder.
        device: ``None`` picks CUDA, then MPS, then CPU.
        batch_size: texts per forward pass.
        half_precision: run in float16 on CUDA (ignored on CPU and MPS).
        cache_size: document embeddings kept; 0 turns the cache off.
        trust_remote_code: let the model run code from its repository (off unless you ask).
        backend: ``"torch"`` or ``"onnx"`` (ONNX Runtime on the CPU, the ``[onnx]`` extra);
            ``None`` picks PyTorch, or ONNX Runtime when ``quantize`` is set.
        quantize: ``"int8"`` runs an int8 (dynamically quantized) copy on ONNX Runtime.
    """

    def __init__(
        self,
        model: str = DEFAULT_BI_ENCODER,
        *,
        device: str | None = None,
        batch_size: int = 32,
        half_precision: bool = True,
        cache_size: int = 20_000,
        trust_remote_code: bool = False,
        backend: str | None = None,
        quantize: str | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}.")
        check_backend(backend, quantize)
        self.model = str(model)
        self.backend = backend
        self.quantize = quantize
        self.device = device
        self.batch_size = batch_size
        self.half_precision = half_precision
        self.trust_remote_code = trust_remote_code
        self._encoder: Any = None
        self._onnx: OnnxModel | None = None
        self._cache: LRUCache[np.ndarray] = LRUCache(cache_size)

    def load(self) -> Any:
        """The loaded ``SentenceTransformer`` (loaded on first use, once also when threads ask
        for it at the same time)."""
        if self._encoder is not None:
            return self._encoder
        with LOAD_LOCK:
            if self._encoder is not None:
                return self._encoder
            sentence_transformers = require_sentence_transformers("BiEncoderReranker")
            device = pick_device(self.device)
            on_onnx = (self.backend or default_backend(device, self.quantize)) == "onnx"
            if on_onnx and not device.startswith("cpu"):
                raise ValueError(
                    f"backend='onnx' runs on the CPU here, not on {device!r}: pass "
                    "device='cpu', or backend='torch' for the GPU."
                )

            def build() -> Any:
                encoder = sentence_transformers.SentenceTransformer(
                    self.model, device=device, trust_remote_code=self.trust_remote_code
                )
                if use_half_precision(device, self.half_precision):
                    encoder.half()
                return encoder

            encoder = load_model("bi-encoder", self.model, build)
            if on_onnx:
                names = list(encoder.tokenizer.model_input_names)
                self._onnx = onnx_model(
                    self.model, encoder, self.quantize, names, sentence_embedding
                )
            self._encoder = encoder
        return self._encoder

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Unit-length embeddings of ``texts`` from the loaded model (no cache)."""
        encoder = self.load()
        if self._onnx is None:
            encoded = encoder.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            return np.asarray(encoded, dtype=np.float32)  # float16 on a GPU
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))  # less padding
        parts = []
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            features = encoder.preprocess([texts[i] for i in rows])
            parts.append(
                (
                    rows,
                    self._onnx.run(
                        {k: v.numpy() for k, v in features.items() if k in self._onnx.inputs}
                    ),
                )
            )
        vectors = np.zeros((len(texts), parts[0][1].shape[1]), dtype=np.float32)
        for rows, output in parts:
            vectors[rows] = output
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length embeddings of ``texts`` (cached by content)."""
        keys = [content_key(text) for text in texts]
        found: dict[str | bytes, np.ndarray] = {}
        missing: dict[str | bytes, str] = {}
        for key, text in zip(keys, texts, strict=True):
            cached = self._cache.get(key)
            if cached is None:
                missing[key] = text
            else:
                found[key] = cached
        if missing:
            vectors = self._encode(list(missing.values()))
            for key, vector in zip(missing, vectors, strict=True):
                self._cache.put(key, vector)
                found[key] = vector
        return np.stack([found[key] for key in keys])

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        return self.score_many([query], [documents], [Context(explain=explain)])[0]

    def score_many(
        self,
        queries: Sequence[str],
        documents: Sequence[Sequence[str]],
        contexts: Sequence[Context],
    ) -> list[Scores]:
        """Embed every query in one call and every query's documents in another, so many
        queries fill the same batches."""
        query_vectors = self.embed(list(queries))
        document_vectors = self.embed([text for texts in documents for text in texts])
        results = []
        start = 0
        for query_vector, texts, context in zip(query_vectors, documents, contexts, strict=True):
            vectors = document_vectors[start : start + len(texts)]
            start += len(texts)
            cosines = np.clip(vectors @ query_vector, -1.0, 1.0).tolist()
            relevance = [(1.0 + cosine) / 2.0 for cosine in cosines]
            explanations = None
            if context.get("explain", False):
                explanations = [{"model": self.model, "cosine": cosine} for cosine in cosines]
            results.append(Scores(cosines, relevance, explanations))
        return results
