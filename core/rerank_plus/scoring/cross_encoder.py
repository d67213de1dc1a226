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
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.cache import LRUCache, content_key
from rerank_plus.reranker import Context, Reranker, Scores
from rerank_plus.scoring.backends import (
    PairScorer,
    TorchDecoderScorer,
    TorchPairScorer,
    check_backend,
)
from rerank_plus.scoring.batching import estimate_tokens, length_batches
from rerank_plus.scoring.decoder_recipes import (
    DecoderRecipe,
    check_instruction,
    families,
    is_classifier,
    is_decoder,
    recipe_by_architecture,
    recipe_by_name,
    recipe_named,
)
from rerank_plus.scoring.devices import half_dtype, pick_device
from rerank_plus.scoring.models import (
    LOAD_LOCK,
    default_cross_encoder,
    load_model,
    require_sentence_transformers,
)
from rerank_plus.scoring.onnx_backend import default_backend, onnx_model
from rerank_plus.scoring.pair_tokens import PairTokenizer
from rerank_plus.scoring.passages import windows
from rerank_plus.scoring.prefetch import prefetched
from rerank_plus.scoring.prompt_tokens import PromptTokenizer, model_window

LONG_DOCUMENT_MODES = ("truncate", "max_passage")
#: Padded tokens per batch when ``batch_tokens=None``: CPUs gain nothing from big batches and
#: lose to padding; GPUs want full batches.
BATCH_TOKENS = {"cpu": 4096, "mps": 8192, "cuda": 32768}
#: The same for generative rerankers, whose prompts share a template and differ little in
#: length once sorted: on a CPU their many small element-wise operations (RMSNorm, rotary
#: embeddings) run faster in fuller batches.
DECODER_BATCH_TOKENS = {**BATCH_TOKENS, "cpu": 16384}
#: Pairs tokenized, sorted and cut into batches at a time: large enough to sort many queries'
#: pairs together, small enough that the first batch starts early.
CHUNK_PAIRS = 4096
#: A tokenizer without a real limit (model_max_length of 1e30) gets the usual encoder window.
DEFAULT_MAX_LENGTH = 512
#: ``max_length`` of a generative reranker of no known family (the Qwen3-Reranker card's).
DEFAULT_CAUSAL_MAX_LENGTH = 8192
#: Tokens a pair template adds to the query's and the text's when none was measured
#: (``[CLS] A [SEP] B [SEP]``).
PAIR_TEMPLATE_TOKENS = 3

#: What one distinct (query, text) pair scores: logit, probability, best window, windows.
Scored = tuple[float, float, int, int]


@dataclass(frozen=True)
class LoadedModel:
    """A cross-encoder ready to score: the fast path (``tokens`` and ``scorer``), or, for
    models that need sentence-transformers' own preprocessing, ``encoder.predict`` with
    ``prompt`` (a decoder's instruction), its template adding ``template_tokens`` to each
    pair's."""

    encoder: Any
    tokens: PairTokenizer | PromptTokenizer | None
    scorer: PairScorer | None
    device: str
    prompt: str | None = None
    template_tokens: int = PAIR_TEMPLATE_TOKENS
    decoder: bool = False


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
                self._models[name] = self._build(name)
        return self._models[name]

    def _build(self, name: str) -> LoadedModel:
        device = pick_device(self.device)
        backend = self.backend or default_backend(device, self.quantize)
        if backend == "onnx" and not device.startswith("cpu"):
            raise ValueError(
                f"backend='onnx' runs on the CPU here, not on {device!r}: pass device='cpu', "
                "or backend='torch' for the GPU."
            )
        config = self._config(name)
        architectures = list(getattr(config, "architectures", None) or [])
        if is_classifier(architectures):
            if self.recipe is not None:
                raise ValueError(
                    f"recipe={self.recipe!r} is for generative rerankers, but {name!r} is a "
                    f"sequence classifier ({architectures[0]}): drop recipe=."
                )
        elif self.recipe is not None or is_decoder(architectures):
            if backend == "onnx":
                raise ValueError(
                    f"{name!r} is a generative reranker, which runs on PyTorch here: pass "
                    "backend='torch' (or leave backend=None)."
                )
            return self._build_decoder(name, device, config, architectures)
        elif architectures:
            raise ValueError(_not_a_reranker(name, architectures))
        return self._build_encoder(name, device, backend, config)

    def _config(self, name: str) -> Any:
        """The model's saved configuration (small, read before any weight is)."""
        require_sentence_transformers("CrossEncoderReranker")
        from transformers import AutoConfig

        return load_model(
            "cross-encoder",
            name,
            lambda: AutoConfig.from_pretrained(name, trust_remote_code=self.trust_remote_code),
        )

    def _dtype(self, device: str, config: Any) -> Any:
        """Half precision where ``half_dtype`` allows it, else float32 (a bfloat16 checkpoint
        would otherwise stay bfloat16 on a CPU, slower and less exact)."""
        import torch

        return half_dtype(device, self.half_precision, config) or torch.float32

    def _build_encoder(self, name: str, device: str, backend: str, config: Any) -> LoadedModel:
        sentence_transformers = require_sentence_transformers("CrossEncoderReranker")
        encoder = load_model(
            "cross-encoder",
            name,
            lambda: sentence_transformers.CrossEncoder(
                name,
                device=device,
                max_length=self.max_length,
                trust_remote_code=self.trust_remote_code,
                model_kwargs={"dtype": self._dtype(device, config)},
            ),
        )
        tokens = self._pair_tokenizer(encoder)
        if tokens is None:
            if backend == "onnx":
                raise ValueError(
                    f"The cross-encoder {name!r} is not a plain sequence classifier with a fast "
                    "tokenizer, so it cannot run on ONNX Runtime here: pass backend='torch'."
                )
            return LoadedModel(encoder, None, None, device)
        if backend == "onnx":
            scorer: PairScorer = onnx_model(name, encoder.model, self.quantize)
            return LoadedModel(None, tokens, scorer, device)
        return LoadedModel(encoder, tokens, TorchPairScorer(encoder.model), device)

    def _build_decoder(
        self, name: str, device: str, config: Any, architectures: list[str]
    ) -> LoadedModel:
        """A generative reranker: the fast path with its family's recipe, or, for a model of
        no known family whose chat template carries a pair, ``CrossEncoder.predict``."""
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tokenizer = load_model(
            "cross-encoder",
            name,
            lambda: AutoTokenizer.from_pretrained(name, trust_remote_code=self.trust_remote_code),
        )
        recipe: DecoderRecipe | None
        if self.recipe is not None:
            recipe = recipe_named(self.recipe)
        else:
            recipe = recipe_by_name(name)
            if recipe is None and _carries_pairs(tokenizer):
                return self._build_templated(name, device, config, tokenizer)
            recipe = recipe or recipe_by_architecture(architectures)
        if recipe is None:
            raise ValueError(_not_a_reranker(name, architectures))
        dtype = self._dtype(device, config)
        model: Any = load_model(
            "cross-encoder",
            name,
            lambda: AutoModelForCausalLM.from_pretrained(
                name, dtype=dtype, trust_remote_code=self.trust_remote_code
            ),
        )
        model.to(device).eval()
        tokens = PromptTokenizer(
            tokenizer,
            recipe,
            self.instruction,
            self.max_length or recipe.max_length,
            model_window(tokenizer, config),
            self.cache_size,
        )
        weights = tuple(weight for _, weight in recipe.scored)
        scorer = TorchDecoderScorer(model, tokens.scored_ids, weights)
        return LoadedModel(None, tokens, scorer, device, decoder=True)

    def _build_templated(self, name: str, device: str, config: Any, tokenizer: Any) -> LoadedModel:
        """A decoder scored by sentence-transformers (its chat template, yes - no logits)."""
        sentence_transformers = require_sentence_transformers("CrossEncoderReranker")
        window = model_window(tokenizer, config) or DEFAULT_CAUSAL_MAX_LENGTH
        encoder = load_model(
            "cross-encoder",
            name,
            lambda: sentence_transformers.CrossEncoder(
                name,
                device=device,
                max_length=self.max_length or min(window, DEFAULT_CAUSAL_MAX_LENGTH),
                trust_remote_code=self.trust_remote_code,
                model_kwargs={"dtype": self._dtype(device, config)},
            ),
        )
        empty = encoder.preprocess([("", "")], prompt=self.instruction)
        added = int(empty["input_ids"].shape[-1])
        return LoadedModel(encoder, None, None, device, self.instruction, added, decoder=True)

    def _pair_tokenizer(self, encoder: Any) -> PairTokenizer | None:
        """The fast path's tokenizer, or None when the model needs ``predict``'s own
        preprocessing (prompts, modules after the transformer, no fast tokenizer)."""
        modules = list(encoder)
        if len(modules) != 1 or type(modules[0]).__name__ != "Transformer":
            return None
        if getattr(encoder, "default_prompt_name", None) or getattr(encoder, "prompts", None):
            return None
        tokenizer = getattr(modules[0], "tokenizer", None)
        limit = getattr(tokenizer, "model_max_length", None)
        if not isinstance(limit, int) or limit > 1_000_000:
            limit = DEFAULT_MAX_LENGTH
        try:
            return PairTokenizer(tokenizer, limit, self.cache_size)
        except ValueError:
            return None

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
        scorer = loaded.scorer
        if isinstance(scorer, TorchDecoderScorer) and scorer.shares_prefix:
            assert isinstance(loaded.tokens, PromptTokenizer)
            logits = self._prefix_logits(loaded.tokens, scorer, loaded.device, flat)
        elif loaded.tokens is not None and scorer is not None:
            logits = self._fast_logits(loaded.tokens, scorer, loaded.device, flat)
        else:
            logits = self._predict_logits(loaded, flat)
        results: list[Scored] = []
        position = 0
        for group in pieces:
            scored = [_logit_and_probability(logits[position + i]) for i in range(len(group))]
            best = max(range(len(group)), key=lambda i: (scored[i][1], -i))
            results.append((scored[best][0], scored[best][1], best, len(group)))
            position += len(group)
        return results

    def _budget(self, device: str, decoder: bool = False) -> int:
        defaults = DECODER_BATCH_TOKENS if decoder else BATCH_TOKENS
        return self.batch_tokens or defaults.get(device.split(":")[0], 4096)

    def _fast_logits(
        self,
        tokens: PairTokenizer | PromptTokenizer,
        scorer: PairScorer,
        device: str,
        pairs: list[tuple[str, str]],
    ) -> list[Any]:
        """Logits of ``pairs`` through the fast path; while the model runs one batch, a
        thread tokenizes and pads the next (on CPU both would share the same cores, so
        there the batches are prepared in turn)."""
        queries = list(dict.fromkeys(query for query, _ in pairs))
        query_tokens = dict(zip(queries, tokens.queries(queries), strict=True))
        budget = self._budget(device, isinstance(tokens, PromptTokenizer))

        def batches() -> Iterator[tuple[list[int], dict[str, np.ndarray]]]:
            for start in range(0, len(pairs), CHUNK_PAIRS):
                chunk = pairs[start : start + CHUNK_PAIRS]
                documents = tokens.documents([text for _, text in chunk])
                encoded = [
                    (query_tokens[query], document)
                    for (query, _), document in zip(chunk, documents, strict=True)
                ]
                lengths = [tokens.length(*pair) for pair in encoded]
                for rows in length_batches(lengths, self.batch_size, budget):
                    batch = tokens.batch(rows, encoded)
                    yield [start + row for row in rows], batch.features

        logits: list[Any] = [None] * len(pairs)
        depth = 0 if device.startswith("cpu") else 2
        for rows, features in prefetched(batches(), depth=depth):
            for row, output in zip(rows, scorer.logits(features), strict=True):
                logits[row] = output
        return logits

    def _prefix_logits(
        self,
        tokens: PromptTokenizer,
        scorer: TorchDecoderScorer,
        device: str,
        pairs: list[tuple[str, str]],
    ) -> list[Any]:
        """Logits of decoder ``pairs``, query by query: the prompt head (template,
        instruction, query) runs once, then the documents' tails after it, batched by length
        (``prefix_cache``); a thread prepares the next batch where the model runs on a GPU."""
        by_query: dict[str, list[int]] = {}
        for index, (query, _) in enumerate(pairs):
            by_query.setdefault(query, []).append(index)
        query_tokens = dict(zip(by_query, tokens.queries(list(by_query)), strict=True))
        budget = self._budget(device, decoder=True)

        def batches() -> Iterator[tuple[str, list[int], dict[str, np.ndarray]]]:
            for query, indices in by_query.items():
                for start in range(0, len(indices), CHUNK_PAIRS):
                    chunk = indices[start : start + CHUNK_PAIRS]
                    documents = tokens.documents([pairs[i][1] for i in chunk])
                    tails = [tokens.tail(query_tokens[query], d) for d in documents]
                    for rows in length_batches(list(map(len, tails)), self.batch_size, budget):
                        batch = tokens.tails(rows, tails)
                        yield query, [chunk[row] for row in rows], batch.features

        logits: list[Any] = [None] * len(pairs)
        head: tuple[str, Any] | None = None
        depth = 0 if device.startswith("cpu") else 2
        for query, rows, features in prefetched(batches(), depth=depth):
            if head is None or head[0] != query:
                head = (query, scorer.prefix(tokens.head(query_tokens[query])))
            for row, output in zip(rows, scorer.continued(head[1], features), strict=True):
                logits[row] = output
        return logits

    def _predict_logits(self, loaded: LoadedModel, pairs: list[tuple[str, str]]) -> list[Any]:
        """Logits of ``pairs`` through ``CrossEncoder.predict``, batched by estimated length
        (the template's tokens included)."""
        import torch

        encoder = loaded.encoder
        limit = getattr(encoder, "max_seq_length", None) or DEFAULT_MAX_LENGTH
        added = loaded.template_tokens
        lengths = [estimate_tokens(query, text, limit, added) for query, text in pairs]
        logits: list[Any] = [None] * len(pairs)
        budget = self._budget(str(encoder.device), loaded.decoder)
        for batch in length_batches(lengths, self.batch_size, budget):
            outputs = encoder.predict(
                [pairs[i] for i in batch],
                batch_size=len(batch),
                activation_fn=torch.nn.Identity(),
                show_progress_bar=False,
                **({"prompt": loaded.prompt} if loaded.prompt is not None else {}),
            )
            for i, output in zip(batch, outputs, strict=True):
                logits[i] = output
        return logits


def _carries_pairs(tokenizer: Any) -> bool:
    """Whether the tokenizer's chat template renders a (query, document) pair, as the
    sentence-transformers integrations of decoder rerankers do (roles "query", "document")."""
    if not getattr(tokenizer, "chat_template", None):
        return False
    probe = [
        {"role": "query", "content": "rerank-plus-query-probe"},
        {"role": "document", "content": "rerank-plus-document-probe"},
    ]
    try:
        text = tokenizer.apply_chat_template(probe, tokenize=False)
    except Exception:  # a template that refuses these roles does not carry a pair
        return False
    return "rerank-plus-query-probe" in text and "rerank-plus-document-probe" in text


def _not_a_reranker(name: str, architectures: list[str]) -> str:
    return (
        f"{name!r} ({', '.join(architectures)}) is neither a sequence-classification "
        f"cross-encoder nor a generative reranker of a known family ({families()}): pass "
        "recipe= if its prompt is one of these families', or pick a reranker model "
        "(e.g. cross-encoder/ms-marco-MiniLM-L6-v2, Qwen/Qwen3-Reranker-0.6B)."
    )


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


def _logit_and_probability(output: Any) -> tuple[float, float]:
    """One output of the model: a single logit (sigmoid), or two (softmax, class 1)."""
    values = np.atleast_1d(np.asarray(output, dtype=float)).tolist()
    if len(values) == 1:
        logit = values[0]
        return logit, _sigmoid(logit)
    if len(values) == 2:
        return values[1], _sigmoid(values[1] - values[0])  # softmax of two classes
    raise ValueError(
        f"The cross-encoder returns {len(values)} scores per pair; rerank-plus needs a model "
        "with one output (a relevance logit) or two (not relevant / relevant)."
    )


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)
