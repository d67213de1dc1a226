"""The public surface: a sorted __all__, and a core that never imports a framework or torch."""

from __future__ import annotations

import subprocess
import sys

import rerank_plus


def test_all_is_sorted_and_complete() -> None:
    assert rerank_plus.__all__ == sorted(rerank_plus.__all__)
    for name in rerank_plus.__all__:
        assert hasattr(rerank_plus, name), name


def test_importing_the_core_imports_no_framework_and_no_torch() -> None:
    code = (
        "import sys, rerank_plus\n"
        "heavy = ('llama_index', 'langchain', 'langchain_core', 'langchain_classic', 'torch',"
        " 'sentence_transformers', 'transformers', 'spacy')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == ""
