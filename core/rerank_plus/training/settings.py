"""The settings of one fine-tuning run, validated once, written into the model card."""

from __future__ import annotations

from dataclasses import dataclass

from rerank_plus.training.errors import TrainingDataError

#: Losses per kind; the first is the default.
LOSSES: dict[str, tuple[str, ...]] = {
    "bi-encoder": ("mnrl", "cached-mnrl"),
    "cross-encoder": ("bce", "listwise"),
}


@dataclass(frozen=True, slots=True)
class TrainingSettings:
    """How to train.

    ``max_steps`` (when set) overrides ``epochs``. ``max_length`` cuts the texts (a
    bi-encoder) or pairs (a cross-encoder) in training, a cost; the saved model keeps the base
    model's own length for use (on QMSum, a model trained at 128 tokens ranked windows at 0.560
    nDCG@10 reading 256 tokens, 0.498 reading 128). Validation runs ``evaluations`` times over
    the run (or every ``eval_steps``); training stops after ``patience`` evaluations without a
    better validation nDCG@10 and the best checkpoint is kept. ``mini_batch_size`` is the
    cached loss's chunk (memory, not the result). ``positives_per_query`` caps a bi-encoder's
    rows per query (the first positives; ``None``: one row per positive);
    ``negatives_per_row`` is how many of its mined negatives each row carries (each one more
    text to encode per row, the cost). ``device`` ``None``
    lets the trainer pick (CUDA when there is one).
    """

    kind: str = "bi-encoder"
    loss: str | None = None
    epochs: float = 1.0
    max_steps: int | None = None
    max_length: int = 256
    batch_size: int = 16
    learning_rate: float = 2e-5
    warmup_ratio: float = 0.1
    seed: int = 0
    evaluations: int = 4
    eval_steps: int | None = None
    patience: int = 2
    mini_batch_size: int = 16
    positives_per_query: int | None = None
    negatives_per_row: int = 1
    device: str | None = None
    progress: bool = True
    resume: bool = False
    keep_checkpoints: bool = False

    def __post_init__(self) -> None:
        if self.kind not in LOSSES:
            raise TrainingDataError(f"Unknown kind {self.kind!r}; choose from {', '.join(LOSSES)}.")
        if self.loss is not None and self.loss not in LOSSES[self.kind]:
            raise TrainingDataError(
                f"loss {self.loss!r} does not train a {self.kind}; choose from "
                f"{', '.join(LOSSES[self.kind])}."
            )
        positive = {
            "max_length": self.max_length,
            "batch_size": self.batch_size,
            "evaluations": self.evaluations,
            "mini_batch_size": self.mini_batch_size,
            "positives_per_query": self.positives_per_query or 1,
            "negatives_per_row": self.negatives_per_row,
        }
        for name, value in positive.items():
            if value < 1:
                raise TrainingDataError(f"{name} must be at least 1, got {value}.")
        if self.epochs <= 0 and not self.max_steps:
            raise TrainingDataError("epochs must be > 0 (or give max_steps).")

    @property
    def chosen_loss(self) -> str:
        return self.loss or LOSSES[self.kind][0]
