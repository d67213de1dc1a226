"""Cross-encoder reranking: batched, cached, long-aware, and many queries per batch.

A cross-encoder reads the query and the document together, so it catches paraphrase and
synonyms that BM25 cannot; it is also the slowest stage. Every distinct (query, text) pair is
scored once and its score cached; each document is tokenized once (its token ids are cached
too) and pairs are assembled with the tokenizer's own template (``pair_tokens``); pairs are
batched by length under a budget of padded tokens (``batching``), across all the queries of a
:meth:`~rerank_plus.Reranker.rank_many` call, while a thread prepares the next batch
(``prefetch``); the scores go back in input order.

Models load through sentence-transformers' ``CrossEncoder`` (names, local folders, errors);
models it runs with more than a classification head (prompts, modules after the transformer)
are scored through ``CrossEncoder.predict`` instead, with the same batching.

Generative (decoder) rerankers, such as Qwen3-Reranker, bge-reranker-v2-gemma and
mxbai-rerank-v2, take a fast path of their own: the prompt built from the family's recipe
(``decoder_recipes``) out of cached token ids (``prompt_tokens``), each query's prompt head run
once and its documents' tails batched after it (``prefix_cache``: a query's pairs are batched
apart from other queries'), scored on the answer tokens only (``backends.TorchDecoderScorer``).
A decoder of no known family whose chat template carries a (query, document) pair goes through
``CrossEncoder.predict``, the instruction as its prompt.

Here: the reranker, its settings, the score cache and long documents; which path a model takes
and how it loads is in ``cross_encoder_loading``, the batches and logits in
``cross_encoder_logits``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.cache import LRUCache, content_key
from rerank_plus.reranker import Context, Reranker, Scores
from rerank_plus.scoring.backends import check_backend
from rerank_plus.scoring.cross_encoder_loading import LoadedModel, ModelLoader
from rerank_plus.scoring.cross_encoder_logits import logit_and_probability, pair_logits
from rerank_plus.scoring.decoder_recipes import check_instruction, recipe_named
from rerank_plus.scoring.models import LOAD_LOCK, default_cross_encoder
from rerank_plus.scoring.passages import windows

LONG_DOCUMENT_MODES = ("truncate", "max_passage")
#: What one distinct (query, text) pair scores: logit, probability, best window, windows.
Scored = tuple[float, float, int, int]


class CrossEncoderReranker(Reranker):
    """Reranks by a cross-encoder's relevance probability.

    ``relevance_score`` is the model's probability: the sigmoid of its logit for single-output
    models (all MS MARCO cross-encoders), the softmax probability of the positive class (label
    1) for two-label models. ``score`` is the logit (the positive class's logit).

    Args:
        model: a Hugging Face model name or a local folder. ``None`` picks a default per query
            language (see ``DEFAULT_CROSS_ENCODERS``).
        device: ``None`` picks CUDA, then MPS, then CPU.
        batch_size: at most this many pairs per forward pass.
        batch_tokens: at most this many padded tokens per forward pass (pairs x the longest
            pair), so long pairs go in small batches and short pairs in large ones; for a
            generative reranker, the tokens each batch runs after its query's shared prompt
            head. ``None`` picks by device: 4096 on CPU (16384 for generative rerankers), 8192
            on MPS, 32768 on CUDA.
        max_length: tokens per pair (query + document); ``None`` keeps the model's own, or for
            a generative reranker its family's (8192 for Qwen3-Reranker and mxbai-rerank-v2,
            1024 for bge-reranker-v2-gemma), cut to what the model reads. A long document loses
            its tail, never the query or the template.
        long_documents: ``"truncate"`` scores the start of a long document (what the model sees
            within ``max_length``); ``"max_passage"`` scores overlapping windows of
            ``passage_words`` words and keeps the best window (named in the explanation).
        half_precision: run in float16 on CUDA, bfloat16 for models saved in bfloat16
            (ignored on CPU and MPS, where models run in float32 whatever they were saved in).
        cache_size: (model, query, text) scores kept, and as many documents' token ids;
            0 turns both caches off.
        trust_remote_code: let the model run code from its repository (off unless you ask).
        language: force the language used to pick the default model.
        backend: ``"torch"`` or ``"onnx"`` (ONNX Runtime, the ``[onnx]`` extra); ``None``
            picks per device (see ``default_backend``).
        quantize: ``"int8"`` runs an int8 (dynamically quantized) copy of the model on ONNX
            Runtime; ``None`` keeps the model's precision.
        instruction: what a generative reranker is asked (Qwen3-Reranker's ``<Instruct>``,
            bge-reranker-v2-gemma's prompt, mxbai-rerank-v2's ``instruction:`` line); ``None``
            keeps the family's own. Sequence classifiers take no instruction and ignore it.
        recipe: the generative family whose prompt the model follows (``RECIPES`` in
            ``decoder_recipes``: ``"qwen3-reranker"``, ``"bge-reranker-v2-gemma"``,
            ``"mxbai-rerank-v2"``); ``None`` picks it from the model's name, its chat template
            or its saved architecture.

    >>> reranker = CrossEncoderReranker("cross-encoder/ms-marco-MiniLM-L6-v2")  # doctest: +SKIP
    >>> reranker.rank("How do I make Python faster?", ["Cython speeds up Python.", "Snakes"])
    ... # doctest: +SKIP
    [RankedResult(index=0, ...), RankedResult(index=1, ...)]
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        device: str | None = None,
        batch_size: int = 32,
        batch_tokens: int | None = None,
        max_length: int | None = None,
        long_documents: str = "truncate",
        passage_words: int = 160,
        passage_overlap: int = 40,
        half_precision: bool = True,
        cache_size: int = 20_000,
        trust_remote_code: bool = False,
        language: str | None = None,
        analyzer: Analyzer | None = None,
        backend: str | None = None,
        quantize: str | None = None,
        instruction: str | None = None,
        recipe: str | None = None,
    ) -> None:
        check_instruction(instruction)
        if recipe is not None:
            recipe_named(recipe)
        if long_documents not in LONG_DOCUMENT_MODES:
            raise ValueError(
                f"long_documents must be one of {', '.join(LONG_DOCUMENT_MODES)}, "
                f"got {long_documents!r}."
            )
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}.")
        if batch_tokens is not None and batch_tokens < 1:
            raise ValueError(f"batch_tokens must be >= 1 or None, got {batch_tokens}.")
        check_backend(backend, quantize)
        windows("", passage_words, passage_overlap)  # validates the window settings
        self.model = str(model) if model is not None else None
        self.device = device
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self.max_length = max_length
        self.long_documents = long_documents
        self.passage_words = passage_words
        self.passage_overlap = passage_overlap
        self.half_precision = half_precision
        self.cache_size = cache_size
        self.trust_remote_code = trust_remote_code
        self.language = language
        self.backend = backend
        self.quantize = quantize
        self.instruction = instruction
        self.recipe = recipe
        self._analyzer = analyzer
        self._models: dict[str, LoadedModel] = {}
        self._cache: LRUCache[Scored] = LRUCache(cache_size)

    def model_for(self, query: str, documents: Sequence[str] = ()) -> str:
        """The model that scores ``query``: the one given, or the default for its language.

        The language is the query's, or, when the query is too short to tell, the candidates'
        dominant language (the core's fallback rule).
        """
        if self.model is not None:
            return self.model
        if self.language is not None:
            return default_cross_encoder(self.language)
        if self._analyzer is None:
            self._analyzer = Analyzer()
        return default_cross_encoder(self._analyzer.languages_for(query, documents)[0])

    def load(self, name: str) -> LoadedModel:
        """The model ``name``, ready to score (loaded once per reranker, also when threads ask
        for it at the same time)."""
        if name in self._models:
            return self._models[name]
        with LOAD_LOCK:
            if name not in self._models:
                self._models[name] = self._loader().load(name)
        return self._models[name]

    def _loader(self) -> ModelLoader:
        """What loads a model with this reranker's settings as they are at the load."""
        return ModelLoader(
            device=self.device,
            backend=self.backend,
            quantize=self.quantize,
            max_length=self.max_length,
            half_precision=self.half_precision,
            trust_remote_code=self.trust_remote_code,
            cache_size=self.cache_size,
            instruction=self.instruction,
            recipe=self.recipe,
        )

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        return self.score_many([query], [documents], [Context(explain=explain)])[0]

    def score_many(
        self,
        queries: Sequence[str],
        documents: Sequence[Sequence[str]],
        contexts: Sequence[Context],
    ) -> list[Scores]:
        """Score every query's candidates, packing the pairs of all queries that share a
        model into the same length-sorted batches."""
        names = [self.model_for(q, d) for q, d in zip(queries, documents, strict=True)]
        keys = [
            [
                (name, query, content_key(d), self.long_documents, self.instruction, self.recipe)
                for d in texts
            ]
            for name, query, texts in zip(names, queries, documents, strict=True)
        ]
        found: dict[tuple, Scored | None] = {}
        for request_keys in keys:
            for key in request_keys:
                if key not in found:
                    found[key] = self._cache.get(key)
        missing: dict[tuple, tuple[str, str]] = {}
        for name_keys, query, texts in zip(keys, queries, documents, strict=True):
            for key, text in zip(name_keys, texts, strict=True):
                if found[key] is None and key not in missing:
                    missing[key] = (query, text)
        for name in dict.fromkeys(key[0] for key in missing):
            todo = [key for key in missing if key[0] == name]
            predicted = self._predict(name, [missing[key] for key in todo])
            for key, value in zip(todo, predicted, strict=True):
                self._cache.put(key, value)
                found[key] = value
        results = []
        for name, request_keys, context in zip(names, keys, contexts, strict=True):
            values = [found[key] or (0.0, 0.0, 0, 1) for key in request_keys]
            explanations = None
            if context.get("explain", False):
                explanations = [_explanation(name, *value) for value in values]
            results.append(Scores([v[0] for v in values], [v[1] for v in values], explanations))
        return results

    def _predict(self, name: str, pairs: list[tuple[str, str]]) -> list[Scored]:
        """Score distinct (query, text) pairs: whole, or window by window keeping each text's
        best window."""
        loaded = self.load(name)
        if self.long_documents == "max_passage":
            pieces = [windows(t, self.passage_words, self.passage_overlap) for _, t in pairs]
        else:
            pieces = [[t] for _, t in pairs]
        flat = [
            (query, piece)
            for (query, _), group in zip(pairs, pieces, strict=True)
            for piece in group
        ]
        logits = pair_logits(
            loaded, flat, batch_size=self.batch_size, batch_tokens=self.batch_tokens
        )
        results: list[Scored] = []
        position = 0
        for group in pieces:
            scored = [logit_and_probability(logits[position + i]) for i in range(len(group))]
            best = max(range(len(group)), key=lambda i: (scored[i][1], -i))
            results.append((scored[best][0], scored[best][1], best, len(group)))
            position += len(group)
        return results


def _explanation(name: str, logit: float, probability: float, window: int, windows: int) -> dict:
    explanation: dict[str, Any] = {
        "model": name,
        "cross_encoder_logit": logit,
        "cross_encoder_probability": probability,
    }
    if windows > 1:  # long_documents="max_passage" split this document
        explanation["best_window"] = window
        explanation["windows"] = windows
    return explanation
