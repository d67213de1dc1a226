"""The retriever's arguments checked, each error naming what to pass instead."""

from __future__ import annotations

from typing import Any

from rerank_plus.memory.policy import INTENTS
from rerank_plus.memory.query.shape import SHAPES
from rerank_plus.reranker import Reranker


def check_reranker(name: str, value: Any) -> Reranker | None:
    if value is not None and not isinstance(value, Reranker):
        raise TypeError(
            f"{name} must be a rerank_plus Reranker (BM25Reranker(), CrossEncoderReranker(...)) "
            f"or None, got {type(value).__name__}."
        )
    return value


def check_question(query: Any, max_tokens: Any, intent: str | None, shape: str | None) -> int:
    if not isinstance(query, str):
        raise TypeError(f"query must be a str, got {type(query).__name__}.")
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise ValueError(f"max_tokens must be a positive int, got {max_tokens!r}.")
    if intent is not None and intent not in INTENTS:
        raise ValueError(f"Unknown intent {intent!r}; choose one of {', '.join(INTENTS)}.")
    if shape is not None and shape not in SHAPES:
        raise ValueError(f"Unknown shape {shape!r}; choose one of {', '.join(SHAPES)}.")
    return max_tokens
