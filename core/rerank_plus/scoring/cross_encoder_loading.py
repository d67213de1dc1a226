"""A cross-encoder loaded and ready to score: which path it takes, chosen from its saved
configuration before any weight is read.

- a sequence classifier with a plain fast tokenizer takes the fast path: pairs assembled from
  cached token ids (``pair_tokens``), run on PyTorch or ONNX Runtime (``backends``,
  ``onnx_backend``);
- a generative (decoder) reranker of a known family takes its own fast path: its recipe's
  prompt (``decoder_recipes``, ``prompt_tokens``), scored on the answer tokens;
- anything sentence-transformers runs with more than a classification head (prompts, modules
  after the transformer, a decoder whose chat template carries the pair) is scored through
  ``CrossEncoder.predict``.

Kept apart from :class:`~rerank_plus.scoring.cross_encoder.CrossEncoderReranker` so the
choice of path, with its errors, reads in one place; torch and transformers are imported only
when a model is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rerank_plus.scoring.backends import PairScorer, TorchDecoderScorer, TorchPairScorer
from rerank_plus.scoring.decoder_recipes import (
    DecoderRecipe,
    families,
    is_classifier,
    is_decoder,
    recipe_by_architecture,
    recipe_by_name,
    recipe_named,
)
from rerank_plus.scoring.devices import half_dtype, pick_device
from rerank_plus.scoring.models import load_model, require_sentence_transformers
from rerank_plus.scoring.onnx_backend import default_backend, onnx_model
from rerank_plus.scoring.pair_tokens import PairTokenizer
from rerank_plus.scoring.prompt_tokens import PromptTokenizer, model_window

#: A tokenizer without a real limit (model_max_length of 1e30) gets the usual encoder window.
DEFAULT_MAX_LENGTH = 512
#: ``max_length`` of a generative reranker of no known family (the Qwen3-Reranker card's).
DEFAULT_CAUSAL_MAX_LENGTH = 8192
#: Tokens a pair template adds to the query's and the text's when none was measured
#: (``[CLS] A [SEP] B [SEP]``).
PAIR_TEMPLATE_TOKENS = 3


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


@dataclass(frozen=True)
class ModelLoader:
    """Loads cross-encoders with a reranker's settings (see
    :class:`~rerank_plus.scoring.cross_encoder.CrossEncoderReranker` for each one)."""

    device: str | None
    backend: str | None
    quantize: str | None
    max_length: int | None
    half_precision: bool
    trust_remote_code: bool
    cache_size: int
    instruction: str | None
    recipe: str | None

    def load(self, name: str) -> LoadedModel:
        """The model ``name`` on the path its configuration calls for."""
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
            return self._decoder(name, device, config, architectures)
        elif architectures:
            raise ValueError(_not_a_reranker(name, architectures))
        return self._encoder(name, device, backend, config)

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

    def _encoder(self, name: str, device: str, backend: str, config: Any) -> LoadedModel:
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

    def _decoder(
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
                return self._templated(name, device, config, tokenizer)
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

    def _templated(self, name: str, device: str, config: Any, tokenizer: Any) -> LoadedModel:
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
