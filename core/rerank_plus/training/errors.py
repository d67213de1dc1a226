"""Errors of fine-tuning; every message says what to change."""

from __future__ import annotations

from rerank_plus.errors import RerankPlusError


class TrainingDataError(RerankPlusError, ValueError):
    """The training data cannot be used as given (format, labels, too few queries...)."""


class BaseModelError(RerankPlusError, ValueError):
    """The base model is not a text encoder that can be fine-tuned."""


class NoQuestionsError(RerankPlusError, ValueError):
    """The LLM gave no usable question for any passage."""


class CheckpointWriteError(RerankPlusError, OSError):
    """Writing a checkpoint failed (a full disk...); the last complete checkpoint is named."""
