"""``rerank-plus finetune`` end to end, and every bad input as one line on stderr, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from rerank_plus.cli import main

from tests.training.conftest import pair_records, write_jsonl

FAST = ["--max-steps", "4", "--batch-size", "8", "--max-length", "32", "--no-progress"]


def finetune(data: Path, base: Path | str, output: Path) -> list[str]:
    return ["finetune", "--data", str(data), "--base", str(base), "--output", str(output), *FAST]


@pytest.mark.slow
def test_finetune_end_to_end(
    pairs_file: Path, tiny_encoder_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = finetune(pairs_file, tiny_encoder_path, tmp_path / "model")
    mining = ["--miner", "bi-encoder", "--miner-model", str(tiny_encoder_path)]
    code = main([*arguments, "--kind", "cross-encoder", *mining, "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "mining: {'queries': 19" in out
    assert "| fine-tuned |" in out
    assert (tmp_path / "model" / "README.md").is_file()
    assert (tmp_path / "model" / "config.json").is_file()


def bad_inputs(tmp_path: Path, base: Path) -> dict[str, tuple[list[str], str]]:
    records = pair_records()
    labels = write_jsonl(
        tmp_path / "labels.jsonl", [*records[:3], {"query": "q", "positive": "a", "scores": [2]}]
    )
    small = write_jsonl(tmp_path / "small.jsonl", records[:2])
    corpus = write_jsonl(tmp_path / "corpus.jsonl", [{"_id": "a", "text": "a passage"}])
    pairs = write_jsonl(tmp_path / "pairs.jsonl", records)
    out = tmp_path / "out"
    return {
        "label": (finetune(labels, base, out), "outside [0, 1]"),
        "small": (finetune(small, base, out), "too few to split"),
        "corpus without an LLM": (finetune(corpus, base, out), "pass --llm-model"),
        "not a model": (finetune(pairs, tmp_path, out), "Could not load the base model"),
        "loss": ([*finetune(pairs, base, out), "--loss", "bce"], "does not train a bi-encoder"),
        "unreachable LLM": (
            [
                *finetune(corpus, base, out),
                "--llm-model", "m", "--llm-base-url", "http://127.0.0.1:9/v1",
            ],
            "Could not reach",
        ),
    }  # fmt: skip


def test_bad_input_is_one_line_and_exit_code_2(
    tiny_encoder_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, (arguments, message) in bad_inputs(tmp_path, tiny_encoder_path).items():
        code = main(arguments)
        err = capsys.readouterr().err
        assert code == 2, name
        assert err.startswith("rerank-plus finetune: error: "), (name, err)
        assert message in err, (name, err)
        assert err.count("\n") == 1 and "Traceback" not in err, (name, err)
