"""Fine-tune a bi-encoder: MultipleNegativesRankingLoss (or its cached variant, for large
batches in little memory) on (query, positive, hard negative) rows; every other row's
passages in the batch are negatives too (Henderson et al. 2017; GradCache, Gao et al. 2021)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rerank_plus.training import trainer as support
from rerank_plus.training.errors import TrainingDataError
from rerank_plus.training.evaluation import HeldOut, Scorer
from rerank_plus.training.examples import TrainingData
from rerank_plus.training.settings import TrainingSettings


def rows(
    data: TrainingData, per_query: int | None = None, negatives_per_row: int = 1
) -> tuple[dict[str, list[str]], int]:
    """Columns anchor, positive (and negative_1..n, when mining found any): one row per
    positive, its ``negatives_per_row`` hard negatives taken in turn from the query's
    negatives (a query with fewer repeats its own). Queries without a negative are left out
    when others have one (the loss needs every row alike); their count is returned.
    ``per_query`` keeps a query's first positives only."""
    texts = {pid: p.text for pid, p in data.passages.items()}
    with_negatives = any(e.negatives for e in data.examples)
    slots = [f"negative_{n + 1}" for n in range(negatives_per_row)] if with_negatives else []
    columns: dict[str, list[str]] = {"anchor": [], "positive": [], **{s: [] for s in slots}}
    left_out = 0
    for example in data.examples:
        if with_negatives and not example.negatives:
            left_out += 1
            continue
        for number, positive in enumerate(example.positives[:per_query]):
            columns["anchor"].append(example.query)
            columns["positive"].append(texts[positive])
            for offset, slot in enumerate(slots):
                negative = example.negatives[(number + offset) % len(example.negatives)]
                columns[slot].append(texts[negative])
    if not columns["anchor"]:
        raise TrainingDataError("No training rows: every query lacks a positive or a negative.")
    return columns, left_out


def scorer(model: Any) -> Scorer:
    """Cosine similarity with a loaded ``SentenceTransformer`` (each distinct text once)."""

    def score(queries: Sequence[str], documents: Sequence[Sequence[str]]) -> list[list[float]]:
        unique = list(dict.fromkeys(t for texts in documents for t in texts))
        vectors = model.encode(unique, normalize_embeddings=True, convert_to_numpy=True)
        position = {text: i for i, text in enumerate(unique)}
        asked = model.encode(list(queries), normalize_embeddings=True, convert_to_numpy=True)
        out = []
        for vector, texts in zip(asked, documents, strict=True):
            matrix = vectors[[position[t] for t in texts]] if texts else np.zeros((0, 1))
            out.append([float(v) for v in (matrix @ vector if len(texts) else [])])
        return out

    return score


def train_bi_encoder(
    base: str, data: TrainingData, held: HeldOut, settings: TrainingSettings, output: Path
) -> dict[str, Any]:
    """Train from ``base`` on ``data``, keep the checkpoint with the best validation nDCG@10,
    save it to ``output``; what happened, for the model card."""
    sentence_transformers = support.require_training()
    from datasets import Dataset
    from sentence_transformers.base.sampler import BatchSamplers
    from sentence_transformers.sentence_transformer import losses
    from transformers import EarlyStoppingCallback

    columns, left_out = rows(data, settings.positives_per_query, settings.negatives_per_row)
    model = sentence_transformers.SentenceTransformer(base, device=settings.device)
    use_length = model.max_seq_length  # what the saved model reads in use: the base's own
    model.max_seq_length = settings.max_length
    if settings.chosen_loss == "cached-mnrl":
        loss: Any = losses.CachedMultipleNegativesRankingLoss(
            model, mini_batch_size=settings.mini_batch_size
        )
    else:
        loss = losses.MultipleNegativesRankingLoss(model)
    checkpoints = output / "checkpoints"
    args = sentence_transformers.SentenceTransformerTrainingArguments(
        **support.arguments(settings, checkpoints, len(columns["anchor"])),
        batch_sampler=BatchSamplers.NO_DUPLICATES,
    )
    trainer = sentence_transformers.SentenceTransformerTrainer(
        model=model,
        args=args,
        train_dataset=Dataset.from_dict(columns),
        loss=loss,
        evaluator=support.evaluator(held, scorer),
        callbacks=[EarlyStoppingCallback(early_stopping_patience=settings.patience)],
    )
    report = support.train_and_save(trainer, model, settings, output, use_length)
    return {
        "rows": len(columns["anchor"]),
        "queries left out (no negative)": left_out,
        **report,
    }
