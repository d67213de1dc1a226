"""Both kinds trained a few steps on a tiny encoder: the loss goes down, the folder loads in
the project's rerankers and ranks, the model card is written; bad models and a full disk."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from rerank_plus.training import (
    BaseModelError,
    CheckpointWriteError,
    MiningSettings,
    TrainingDataError,
    TrainingSettings,
    finetune,
    read_data,
)

pytestmark = pytest.mark.slow


def settings(kind: str, **overrides: object) -> TrainingSettings:
    values: dict = dict(
        kind=kind, max_steps=8, batch_size=8, learning_rate=1e-3, max_length=32, progress=False
    )
    values.update(overrides)
    return TrainingSettings(**values)


def run(pairs_file: Path, base: Path, output: Path, **overrides: object):
    kind = str(overrides.pop("kind", "bi-encoder"))
    return finetune(
        read_data(pairs_file),
        str(base),
        output,
        settings=settings(kind, **overrides),
        mining=MiningSettings("bm25", negatives=2),
    )


def test_bi_encoder_learns_saves_and_ranks(
    pairs_file: Path, tiny_encoder_path: Path, tmp_path: Path
) -> None:
    from rerank_plus import BiEncoderReranker

    result = run(pairs_file, tiny_encoder_path, tmp_path / "model")
    losses = result.training["losses"]
    assert len(losses) >= 2 and losses[-1] < losses[0]
    ranked = BiEncoderReranker(str(tmp_path / "model"), device="cpu").rank(
        "what about violin", ["the violin violin is", "the tiger tiger is"]
    )
    assert len(ranked) == 2 and all(-1.0 <= r.score <= 1.0 for r in ranked)
    card = (tmp_path / "model" / "README.md").read_text("utf-8")
    assert f"from `{tiny_encoder_path}`" in card
    assert "| fine-tuned |" in card and "| bm25 |" in card and "| base |" in card
    assert "dropped for overlapping a positive" in card
    saved = json.loads((tmp_path / "model" / "finetune.json").read_text("utf-8"))
    assert saved["mining"]["miner"] == "bm25"
    assert len(saved["mining_per_query"]) == saved["data"]["training queries"]
    assert not (tmp_path / "model" / "checkpoints").exists()
    assert {row.name for row in result.evaluation} >= {"bm25", "base", "fine-tuned"}
    for row in result.evaluation:  # per query, to pool several evaluations (folds)
        assert len(row.ndcg_per_query) == result.queries
        mean = sum(row.ndcg_per_query.values()) / result.queries
        assert row.metrics["nDCG@10"] == pytest.approx(mean)


def test_the_saved_model_reads_as_much_as_the_base(
    pairs_file: Path, tiny_encoder_path: Path, tmp_path: Path
) -> None:
    from sentence_transformers import CrossEncoder, SentenceTransformer

    run(pairs_file, tiny_encoder_path, tmp_path / "bi", max_steps=2, max_length=8)
    base = SentenceTransformer(str(tiny_encoder_path), device="cpu").max_seq_length
    assert SentenceTransformer(str(tmp_path / "bi"), device="cpu").max_seq_length == base
    run(pairs_file, tiny_encoder_path, tmp_path / "ce", kind="cross-encoder", max_length=8)
    assert CrossEncoder(str(tmp_path / "ce"), device="cpu").max_seq_length > 8


def test_the_fine_tuned_bi_encoder_is_a_memory_embedder(
    pairs_file: Path, tiny_encoder_path: Path, tmp_path: Path
) -> None:
    from rerank_plus.memory.ingest.embedding import as_embedder
    from sentence_transformers import SentenceTransformer

    run(
        pairs_file,
        tiny_encoder_path,
        tmp_path / "model",
        max_steps=2,
        loss="cached-mnrl",
        negatives_per_row=2,
    )
    embedder = as_embedder(SentenceTransformer(str(tmp_path / "model"), device="cpu"))
    assert embedder is not None
    assert embedder.embed(["the violin", "a tiger"]).shape[0] == 2


def test_memory_eval_takes_the_fine_tuned_folder_as_embedder(
    pairs_file: Path, tiny_encoder_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rerank_plus.cli import main

    from tests.memory.eval_meetings import DESIGN_MEETING

    run(pairs_file, tiny_encoder_path, tmp_path / "model", max_steps=2)
    meetings = tmp_path / "qmsum" / "test"
    meetings.mkdir(parents=True)
    (meetings / "design.json").write_text(json.dumps(DESIGN_MEETING), encoding="utf-8")
    argv = ["memory", "eval", "--data", str(tmp_path / "qmsum"), "--methods", "policy"]
    embedder = ["--embedder", str(tmp_path / "model"), "--budget", "40", "--quiet"]
    assert main([*argv, *embedder, "--output", str(tmp_path / "out")]) == 0
    assert "| policy |" in capsys.readouterr().out
    results = json.loads((tmp_path / "out" / "results.json").read_text("utf-8"))
    assert results["meetings"] == ["design"]


@pytest.mark.parametrize("loss", ["bce", "listwise"])
def test_cross_encoder_learns_saves_and_ranks(
    pairs_file: Path, tiny_encoder_path: Path, tmp_path: Path, loss: str
) -> None:
    from rerank_plus import CrossEncoderReranker

    result = run(pairs_file, tiny_encoder_path, tmp_path / "model", kind="cross-encoder", loss=loss)
    losses = result.training["losses"]
    assert len(losses) >= 2 and losses[-1] < losses[0]
    reranker = CrossEncoderReranker(str(tmp_path / "model"), device="cpu")
    ranked = reranker.rank("what about violin", ["the violin violin is", "the tiger tiger is"])
    assert sorted(r.index for r in ranked) == [0, 1]
    assert "| fine-tuned |" in (tmp_path / "model" / "README.md").read_text("utf-8")


def test_a_model_that_is_not_a_text_encoder(pairs_file: Path, tmp_path: Path) -> None:
    transformers = pytest.importorskip("transformers")
    config = transformers.ViTConfig(
        hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=16
    )
    transformers.ViTModel(config).save_pretrained(tmp_path / "vit")
    with pytest.raises(BaseModelError, match="not a text encoder"):
        run(pairs_file, tmp_path / "vit", tmp_path / "model")
    with pytest.raises(BaseModelError, match="Could not load the base model"):
        run(pairs_file, tmp_path / "nothing", tmp_path / "model")


@pytest.mark.parametrize("loss", ["bce", "listwise"])
def test_a_cross_encoder_needs_negatives(
    pairs_file: Path, tiny_encoder_path: Path, tmp_path: Path, loss: str
) -> None:
    with pytest.raises(TrainingDataError, match="positives and negatives"):
        finetune(
            read_data(pairs_file),
            str(tiny_encoder_path),
            tmp_path / "model",
            settings=settings("cross-encoder", loss=loss),
            mining=MiningSettings("bm25", negatives=0),
        )


def test_a_full_disk_names_the_last_checkpoint_which_still_loads(
    pairs_file: Path, tiny_encoder_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sentence_transformers import SentenceTransformer, SentenceTransformerTrainer

    saves = []
    original = SentenceTransformerTrainer._save_checkpoint

    def save_once(self, *args, **kwargs):  # the second checkpoint finds the disk full
        if saves:
            raise OSError(errno.ENOSPC, "No space left on device")
        saves.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SentenceTransformerTrainer, "_save_checkpoint", save_once)
    with pytest.raises(CheckpointWriteError, match="the disk is full") as caught:
        run(pairs_file, tiny_encoder_path, tmp_path / "model", eval_steps=2, patience=10)
    assert "--resume" in str(caught.value)
    (checkpoint,) = (tmp_path / "model" / "checkpoints").glob("checkpoint-*")
    assert str(checkpoint) in str(caught.value)
    assert SentenceTransformer(str(checkpoint), device="cpu").encode(["violin"]).shape[0] == 1

    monkeypatch.setattr(SentenceTransformerTrainer, "_save_checkpoint", original)
    resumed = run(
        pairs_file, tiny_encoder_path, tmp_path / "model", eval_steps=2, patience=10, resume=True
    )
    assert resumed.training["steps"] == 8
