"""One fine-tuning run: split by query, mine, train, evaluate, write the model card."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rerank_plus.training.evaluation import (
    EvaluationRow,
    HeldOut,
    Scorer,
    compare,
    fusion_scorer,
    held_out,
    reranker_scorer,
)
from rerank_plus.training.examples import TrainingData
from rerank_plus.training.mining import MiningReport, MiningSettings, mine_negatives
from rerank_plus.training.model_card import write_card
from rerank_plus.training.settings import TrainingSettings
from rerank_plus.training.split import split_by_query
from rerank_plus.training.trainer import check_text_encoder, require_training


@dataclass(frozen=True)
class FinetuneResult:
    """Where the model is, how mining went per query, the training log and the table."""

    output: Path
    mining: list[MiningReport]
    training: dict[str, Any]
    evaluation: list[EvaluationRow]
    queries: int


def _trainer(kind: str) -> Callable[..., dict[str, Any]]:
    if kind == "bi-encoder":
        from rerank_plus.training.bi_encoder import train_bi_encoder

        return train_bi_encoder
    from rerank_plus.training.cross_encoder import train_cross_encoder

    return train_cross_encoder


def _is_cross_encoder(model: str) -> bool:
    from transformers import AutoConfig

    architectures = AutoConfig.from_pretrained(model).architectures or []
    return any(name.endswith("ForSequenceClassification") for name in architectures)


def _scorers(kind: str, base: str, output: Path, held: HeldOut) -> dict[str, Scorer]:
    """BM25, the base model and the new one (and each fused with BM25, for a bi-encoder)."""
    from rerank_plus.scoring import BiEncoderReranker, BM25Reranker, CrossEncoderReranker

    bm25 = BM25Reranker().fit(list(held.texts.values()))
    scorers = {"bm25": reranker_scorer(bm25)}
    if kind == "cross-encoder":
        if _is_cross_encoder(base):  # a plain encoder has no trained head to compare with
            scorers["base"] = reranker_scorer(CrossEncoderReranker(base))
        scorers["fine-tuned"] = reranker_scorer(CrossEncoderReranker(str(output)))
        return scorers
    for name, model in (("base", base), ("fine-tuned", str(output))):
        dense = reranker_scorer(BiEncoderReranker(model))
        scorers[name] = dense
        scorers[f"fusion (BM25 + {name})"] = fusion_scorer(bm25, dense)
    return scorers


def finetune(
    data: TrainingData,
    base: str,
    output: str | Path,
    *,
    settings: TrainingSettings | None = None,
    mining: MiningSettings | None = None,
    validation: float = 0.2,
    test_data: TrainingData | None = None,
) -> FinetuneResult:
    """Fine-tune ``base`` on ``data`` into the folder ``output``.

    The validation split (by query) picks the best checkpoint and stops training early. The
    evaluation table ranks ``test_data``'s queries when given (data never trained on), else
    the validation queries (then it is optimistic: they also chose the checkpoint).
    """
    settings = settings or TrainingSettings()
    mining = mining or MiningSettings()
    require_training()
    check_text_encoder(base)
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    train, checked = split_by_query(data, validation, settings.seed)
    train, reports = mine_negatives(train, mining, base, progress=settings.progress)
    held = held_out(checked)
    training = _trainer(settings.kind)(base, train, held, settings, output)
    tested = held_out(test_data) if test_data is not None else held
    rows = compare(tested, _scorers(settings.kind, base, output, tested))
    evaluated = "the test data" if test_data is not None else "the validation queries"
    write_card(
        output,
        {
            "base": base,
            "settings": settings,
            "mining": mining,
            "mining_reports": reports,
            "data": {
                **data.summary(),
                "training queries": len(train.examples),
                "validation queries": len(checked.examples),
            },
            "training": training,
            "evaluated": evaluated,
            "queries": len(tested.queries),
        },
        rows,
    )
    return FinetuneResult(output, reports, training, rows, len(tested.queries))
