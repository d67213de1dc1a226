"""What both kinds share around sentence-transformers' trainers: the extra, the base model
check, the arguments, validation nDCG as the trainer's metric, checkpoints and resuming."""

from __future__ import annotations

import errno
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rerank_plus.errors import MissingExtraError
from rerank_plus.training.errors import BaseModelError, CheckpointWriteError
from rerank_plus.training.evaluation import HeldOut, Scorer, mean_ndcg
from rerank_plus.training.settings import TrainingSettings

#: The trainer's name for the validation metric (the evaluator's name + its primary metric).
METRIC = "validation_ndcg@10"


def require_training() -> Any:
    """sentence-transformers with the trainer's own needs (datasets, accelerate)."""
    for package in ("sentence_transformers", "datasets", "accelerate"):
        try:
            __import__(package)
        except ImportError as error:
            raise MissingExtraError(package.replace("_", "-"), "train", "Fine-tuning") from error
    import sentence_transformers

    return sentence_transformers


def check_text_encoder(base: str) -> None:
    """Fail early, in one line, when ``base`` cannot be fine-tuned as a text encoder."""
    from transformers import AutoConfig, AutoTokenizer

    try:
        config = AutoConfig.from_pretrained(base)
    except (OSError, ValueError) as error:
        raise BaseModelError(
            f"Could not load the base model {base!r} ({str(error).splitlines()[0][:160]}); "
            "pass a sentence-transformers or transformers checkpoint folder, or a hub name "
            "with network access."
        ) from None
    text_config = getattr(config, "text_config", None) or config
    if getattr(text_config, "vocab_size", None) is None or config.model_type in (
        "vit",
        "clip_vision_model",
    ):
        raise BaseModelError(
            f"The base model {base!r} ({config.model_type}) is not a text encoder; pass a "
            "text model such as a BERT, MiniLM or XLM-R checkpoint."
        )
    try:
        AutoTokenizer.from_pretrained(base)
    except (OSError, ValueError, TypeError) as error:
        raise BaseModelError(
            f"The base model {base!r} has no usable tokenizer ({str(error)[:120]}); save the "
            "tokenizer with the model (tokenizer.save_pretrained(folder))."
        ) from None


def evaluator(held: HeldOut, scorer_of: Callable[[Any], Scorer]) -> Any:
    """A sentence-transformers evaluator whose primary metric is the held-out nDCG@10 of the
    model being trained (``scorer_of(model)`` ranks with it)."""
    from sentence_transformers.base.evaluation.evaluator import BaseEvaluator

    class ValidationNDCG(BaseEvaluator):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.name = "validation"
            self.primary_metric = "ndcg@10"

        def __call__(
            self, model: Any, output_path: str | None = None, epoch: int = -1, steps: int = -1
        ) -> dict[str, float]:
            metrics = {"ndcg@10": mean_ndcg(held, scorer_of(model))}
            return self.prefix_name_to_metrics(metrics, self.name)

    return ValidationNDCG()


def arguments(settings: TrainingSettings, folder: Path, rows: int) -> dict[str, Any]:
    """Keyword arguments of the training arguments (both kinds take the same ones)."""
    steps = settings.max_steps or math.ceil(settings.epochs * math.ceil(rows / settings.batch_size))
    every = settings.eval_steps or max(1, steps // settings.evaluations)
    return {
        "output_dir": str(folder),
        "num_train_epochs": settings.epochs,
        "max_steps": settings.max_steps or -1,
        "per_device_train_batch_size": settings.batch_size,
        "per_device_eval_batch_size": settings.batch_size,
        "learning_rate": settings.learning_rate,
        "warmup_steps": int(settings.warmup_ratio * steps),
        "seed": settings.seed,
        "data_seed": settings.seed,
        "eval_strategy": "steps",
        "eval_steps": every,
        "save_strategy": "steps",
        "save_steps": every,
        "save_total_limit": 2,
        "load_best_model_at_end": True,
        "metric_for_best_model": f"eval_{METRIC}",
        "greater_is_better": True,
        "logging_steps": max(1, min(every, 10)),
        "disable_tqdm": not settings.progress,
        "report_to": "none",
        "use_cpu": settings.device == "cpu",
        "dataloader_num_workers": 0,
        "dataloader_pin_memory": _has_cuda(),
    }


def _has_cuda() -> bool:
    import torch

    return bool(torch.cuda.is_available())


def last_checkpoint(folder: Path) -> Path | None:
    """The newest complete checkpoint (its trainer state is written last)."""
    done = [p for p in folder.glob("checkpoint-*") if (p / "trainer_state.json").is_file()]
    return max(done, key=lambda p: int(p.name.rsplit("-", 1)[1]), default=None)


def train(trainer: Any, folder: Path, resume: bool) -> list[float]:
    """Run ``trainer`` (from the last checkpoint under ``folder`` when ``resume``); the
    training losses logged, in order. A failed checkpoint write names the last good one."""
    start = last_checkpoint(folder) if resume else None
    try:
        trainer.train(resume_from_checkpoint=str(start) if start else None)
    except OSError as error:
        good = last_checkpoint(folder)
        reason = "the disk is full" if error.errno == errno.ENOSPC else str(error)
        kept = (
            f"the last complete checkpoint, {good}, loads as a model and --resume continues from it"
            if good
            else "no checkpoint was complete yet"
        )
        raise CheckpointWriteError(
            f"Training stopped while writing to {folder}: {reason}; free space and rerun; {kept}."
        ) from error
    return [float(e["loss"]) for e in trainer.state.log_history if "loss" in e]


def runtime(trainer: Any) -> float | None:
    """Seconds the training loop ran (validation included), as the trainer logged them."""
    logged = [e["train_runtime"] for e in trainer.state.log_history if "train_runtime" in e]
    return round(float(logged[-1]), 1) if logged else None


def finish(folder: Path, keep_checkpoints: bool) -> None:
    """Drop the run's checkpoints once the model is saved, unless asked to keep them."""
    import shutil

    if not keep_checkpoints:
        shutil.rmtree(folder, ignore_errors=True)


def train_and_save(
    trainer: Any, model: Any, settings: TrainingSettings, output: Path, use_length: int | None
) -> dict[str, Any]:
    """Train (resuming where asked), save the model reading its base's own length (it was
    trained at ``settings.max_length``; cut to that in use, it reads less than its base), and
    clear the checkpoints unless kept; what the run did."""
    checkpoints = output / "checkpoints"
    losses_seen = train(trainer, checkpoints, settings.resume)
    model.max_seq_length = max(use_length or settings.max_length, settings.max_length)
    model.save(str(output))
    report = {
        "train seconds": runtime(trainer),
        "losses": losses_seen,
        "steps": trainer.state.global_step,
        "best validation nDCG@10": trainer.state.best_metric,
    }
    finish(checkpoints, settings.keep_checkpoints)
    return report
