"""The built-in reranker kinds, registered once: configurations, the CLI and the adapters'
ready classes (``BM25Rerank``, ...) are all built from these descriptions.

To add a kind, add one :func:`register_kind` call below (or in your own code, before the
adapters' ready class is first used): name, factory, options (name, type, default, help), the
ready class's name and docstring. Nothing else needs an edit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rerank_plus.compose.kinds import KINDS, Option, RerankerKind, kind_named, register_kind
from rerank_plus.reranker import Reranker
from rerank_plus.scoring.remote.providers import bedrock_kind, remote_kind

__all__ = ["KINDS", "Option", "RerankerKind", "build_reranker", "kind_named", "register_kind"]

_DEVICE = Option("device", str | None, None, "cuda, mps or cpu; None picks.")
_HALF = Option("half_precision", bool, True, "Run in float16 on CUDA (ignored elsewhere).")
_REMOTE_CODE = Option("trust_remote_code", bool, False, "Let the model run its own code.")
_BACKEND = Option("backend", str | None, None, "torch or onnx (ONNX Runtime); None picks.")
_QUANTIZE = Option("quantize", str | None, None, "int8 (ONNX Runtime) or None.")

register_kind(
    "bm25",
    "rerank_plus.scoring.bm25:BM25Reranker",
    options=(
        Option("k1", float, 1.5, "BM25 term-frequency saturation."),
        Option("b", float, 0.75, "BM25 length normalization."),
        Option("language", str | None, None, "Force one ISO 639-1 language."),
    ),
    ready_class="BM25Rerank",
    summary="Multilingual BM25 + NLP reranking (offline, no model download).",
)

register_kind(
    "cross-encoder",
    "rerank_plus.scoring.cross_encoder:CrossEncoderReranker",
    options=(
        Option("model", str | None, None, "Model name or local folder; None picks per language."),
        _DEVICE,
        Option("batch_size", int, 32, "Pairs per forward pass."),
        Option("batch_tokens", int | None, None, "Padded tokens per pass; None picks by device."),
        Option("max_length", int | None, None, "Tokens per pair; None keeps the model's."),
        Option("long_documents", str, "truncate", "truncate or max_passage."),
        Option("passage_words", int, 160, "Words per window with max_passage."),
        Option("passage_overlap", int, 40, "Words shared by neighbouring windows."),
        _HALF,
        Option("cache_size", int, 20_000, "Pair scores kept; 0 turns the cache off."),
        _REMOTE_CODE,
        Option("language", str | None, None, "Pick the default model for it."),
        _BACKEND,
        _QUANTIZE,
        Option("instruction", str | None, None, "A generative reranker's task; None: its own."),
        Option("recipe", str | None, None, "Generative family's prompt; None: from the model."),
    ),
    ready_class="CrossEncoderRerank",
    summary="Cross-encoder reranking (sentence-transformers); ``model=None`` picks one per "
    "language.",
)

register_kind(
    "bi-encoder",
    "rerank_plus.scoring.bi_encoder:BiEncoderReranker",
    options=(
        Option("model", str | None, None, "sentence-transformers model or folder; None: MiniLM."),
        _DEVICE,
        Option("batch_size", int, 32, "Texts per forward pass."),
        _HALF,
        Option("cache_size", int, 20_000, "Document embeddings kept; 0 turns the cache off."),
        _REMOTE_CODE,
        _BACKEND,
        _QUANTIZE,
    ),
    ready_class="BiEncoderRerank",
    summary="Reranking by embedding cosine similarity, for lexical first stages.",
)


def _llm(mode: str) -> Callable[..., Reranker]:
    def build(**options: Any) -> Reranker:
        from rerank_plus.scoring.llm.config import build_llm_reranker

        return build_llm_reranker(mode, options)

    build.__qualname__ = f"llm-{mode}"
    return build


_LLM_OPTIONS = (
    Option("model", str | None, None, "Model name on an OpenAI-compatible endpoint."),
    Option("base_url", str | None, None, "The endpoint's /v1 URL; None: OpenAI's."),
    Option("api_key_env", str | None, None, "Environment variable with the API key."),
    Option("timeout", float | None, None, "Seconds per call; None: 60."),
    Option("passage_tokens", int, 300, "Tokens kept of each passage."),
    Option("query_tokens", int, 200, "Tokens kept of the query."),
    Option("max_calls", int | None, 100, "LLM calls per rank at most."),
    Option("max_concurrency", int, 8, "Calls in flight at once."),
    Option("max_retries", int, 3, "Retries on rate limits and timeouts."),
    Option("backoff", float, 1.0, "First retry wait in seconds, doubled each time."),
    Option("cache_size", int, 10_000, "Answers kept by (model, prompt); 0 turns it off."),
)

register_kind(
    "llm-listwise",
    _llm("listwise"),
    options=(
        *_LLM_OPTIONS,
        Option("window_size", int, 20, "Passages per LLM call (RankGPT window)."),
        Option("step", int, 10, "Positions the window moves up each call."),
    ),
    ready_class="LLMListwiseRerank",
    summary="Listwise LLM reranking (RankGPT sliding window) on an OpenAI-compatible endpoint.",
)

register_kind(
    "llm-pointwise",
    _llm("pointwise"),
    options=(
        *_LLM_OPTIONS,
        Option("judgment", str, "grade", "grade (0-3) or yes-no (P(yes) from logprobs)."),
    ),
    ready_class="LLMPointwiseRerank",
    summary="Pointwise LLM relevance judgments on an OpenAI-compatible endpoint.",
)

register_kind(**bedrock_kind())
register_kind(**remote_kind("cohere"))
register_kind(**remote_kind("infinity"))
register_kind(**remote_kind("jina"))
register_kind(**remote_kind("rerank-plus"))
register_kind(**remote_kind("tei"))
register_kind(**remote_kind("vllm"))
register_kind(**remote_kind("voyage"))


def build_reranker(kind: str, **options: Any) -> Reranker:
    """``build_reranker("bm25", k1=1.2)`` -> ``BM25Reranker(k1=1.2)``; options left at None are
    dropped, so each reranker keeps its own defaults; unknown kinds and options list the valid
    ones."""
    return kind_named(kind).build(options)
