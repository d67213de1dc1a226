"""Fine-tune a cross-encoder with sentence-transformers' CrossEncoderTrainer: binary
cross-entropy on (query, passage, label) pairs, or ListNet (Cao et al. 2007), a listwise loss
on each query's judged list."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rerank_plus.training import trainer as support
from rerank_plus.training.errors import TrainingDataError
from rerank_plus.training.evaluation import HeldOut, Scorer
from rerank_plus.training.examples import TrainingData
from rerank_plus.training.settings import TrainingSettings


def pairs(data: TrainingData) -> dict[str, list[Any]]:
    """Columns query, passage, label: every judged passage of every query."""
    texts = {pid: p.text for pid, p in data.passages.items()}
    columns: dict[str, list[Any]] = {"query": [], "passage": [], "label": []}
    for example in data.examples:
        for pid, label in example.judged():
            columns["query"].append(example.query)
            columns["passage"].append(texts[pid])
            columns["label"].append(label)
    return columns


def lists(data: TrainingData) -> dict[str, list[Any]]:
    """Columns query, docs, labels: each query's judged passages as one list."""
    texts = {pid: p.text for pid, p in data.passages.items()}
    columns: dict[str, list[Any]] = {"query": [], "docs": [], "labels": []}
    for example in data.examples:
        judged = example.judged()
        columns["query"].append(example.query)
        columns["docs"].append([texts[pid] for pid, _ in judged])
        columns["labels"].append([label for _, label in judged])
    return columns


def scorer(model: Any) -> Scorer:
    """A loaded ``CrossEncoder``'s scores of every (query, passage) pair, in one call."""

    def score(queries: Sequence[str], documents: Sequence[Sequence[str]]) -> list[list[float]]:
        flat = [(q, t) for q, texts in zip(queries, documents, strict=True) for t in texts]
        values = [float(v) for v in model.predict(flat, show_progress_bar=False)] if flat else []
        out, start = [], 0
        for texts in documents:
            out.append(values[start : start + len(texts)])
            start += len(texts)
        return out

    return score


def train_cross_encoder(
    base: str, data: TrainingData, held: HeldOut, settings: TrainingSettings, output: Path
) -> dict[str, Any]:
    """Train from ``base`` (a fresh one-output head when it has none), keep the checkpoint
    with the best validation nDCG@10, save it to ``output``; what happened, for the card."""
    sentence_transformers = support.require_training()
    from datasets import Dataset
    from sentence_transformers.cross_encoder import losses
    from transformers import EarlyStoppingCallback

    listwise = settings.chosen_loss == "listwise"
    columns = lists(data) if listwise else pairs(data)
    labels = [v for row in columns["labels"] for v in row] if listwise else columns["label"]
    if len(set(labels)) < 2:
        raise TrainingDataError(
            "A cross-encoder needs positives and negatives: mine negatives (--negatives N) or "
            "give 'negatives' in the data."
        )
    model = sentence_transformers.CrossEncoder(base, num_labels=1, device=settings.device)
    use_length = model.max_seq_length  # what the saved model reads in use: the base's own
    model.max_seq_length = settings.max_length
    loss: Any = losses.ListNetLoss(model) if listwise else losses.BinaryCrossEntropyLoss(model)
    checkpoints = output / "checkpoints"
    args = sentence_transformers.CrossEncoderTrainingArguments(
        **support.arguments(settings, checkpoints, len(columns["query"]))
    )
    trainer = sentence_transformers.CrossEncoderTrainer(
        model=model,
        args=args,
        train_dataset=Dataset.from_dict(columns),
        loss=loss,
        evaluator=support.evaluator(held, scorer),
        callbacks=[EarlyStoppingCallback(early_stopping_patience=settings.patience)],
    )
    report = support.train_and_save(trainer, model, settings, output, use_length)
    return {
        "rows": len(columns["query"]),
        **report,
    }
