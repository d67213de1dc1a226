"""The public surface: a sorted __all__, and a core that never imports a framework or torch."""

from __future__ import annotations

import importlib
import subprocess
import sys
from types import ModuleType

import pytest

PACKAGES = [
    "rerank_plus",
    "rerank_plus.analysis",
    "rerank_plus.combine",
    "rerank_plus.scoring",
    "rerank_plus.selection",
    "rerank_plus.evaluation",
]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_in_all(package: str) -> None:
    module = importlib.import_module(package)
    exported = module.__all__
    for name in exported:
        assert hasattr(module, name), name
    public = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and not isinstance(value, ModuleType)
        and type(value).__module__ != "__future__"  # `from __future__ import annotations`
    }
    assert public <= set(exported), sorted(public - set(exported))


def test_top_level_all_is_sorted() -> None:
    exported = importlib.import_module("rerank_plus").__all__
    assert exported == sorted(exported)


def test_importing_the_core_imports_no_framework_and_no_torch() -> None:
    code = (
        "import sys, rerank_plus\n"
        "heavy = ('llama_index', 'langchain', 'langchain_core', 'langchain_classic', 'torch',"
        " 'sentence_transformers', 'transformers', 'spacy', 'semantic_kernel')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == ""
