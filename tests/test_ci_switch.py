"""The CI switch of tests/conftest.py: a declared package that is missing fails; others skip."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parent.parent


def _root_conftest():
    """tests/conftest.py itself: ``import conftest`` may find another folder's conftest."""
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DECLARED_MODULES = _root_conftest().DECLARED_MODULES
REQUIRE_EXTRAS = _root_conftest().REQUIRE_EXTRAS

#: Distribution names whose import name is not the distribution name with "-" as "_".
IMPORT_NAMES = {
    "pyyaml": "yaml",
    "pytrec-eval-terrier": "pytrec_eval",
    "llama-index-core": "llama_index",
    "llama-index-embeddings-huggingface": "llama_index",
    "llama-index-postprocessor-cohere-rerank": "llama_index",
}

SAMPLE = """
import sys
import pytest

def test_declared_package_missing():
    sys.modules["yaml"] = None  # what a broken install looks like
    pytest.importorskip("yaml")

def test_undeclared_package_missing():
    pytest.importorskip("fr_core_news_sm_not_installed")
"""


def run_sample(tmp_path: Path, switch: str | None) -> str:
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_sample.py").write_text(SAMPLE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != REQUIRE_EXTRAS}
    if switch is not None:
        env[REQUIRE_EXTRAS] = switch
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    return completed.stdout


@pytest.mark.parametrize("switch", [None, "0"])
def test_locally_a_missing_package_skips(tmp_path, switch) -> None:
    assert "2 skipped" in run_sample(tmp_path, switch)


def test_in_ci_a_missing_declared_package_fails(tmp_path) -> None:
    out = run_sample(tmp_path, "1")
    assert "1 failed, 1 skipped" in out
    assert "part of .[all]" in out


def test_ci_sets_the_switch() -> None:
    assert f"export {REQUIRE_EXTRAS}=1" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_declared_modules_cover_every_optional_dependency() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    names = {
        re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0].lower()
        for group in extras.values()
        for requirement in group
        if not requirement.startswith("rerank-plus")
    }
    modules = {IMPORT_NAMES.get(name, name.replace("-", "_")) for name in names}
    assert modules <= DECLARED_MODULES, sorted(modules - DECLARED_MODULES)
