"""Shared fixtures: the evaluation collections beside the repo, and a shared BM25 reranker."""

from __future__ import annotations

from pathlib import Path

import pytest

EVAL_ROOT = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"


@pytest.fixture(scope="session")
def eval_root() -> Path:
    """``../shared/eval`` as seen from the repo; tests that need it skip where it is absent."""
    if not EVAL_ROOT.is_dir():
        pytest.skip(f"the shared evaluation collections are not beside the repo ({EVAL_ROOT})")
    return EVAL_ROOT


@pytest.fixture(scope="session")
def bm25():
    from rerank_plus import BM25Reranker

    return BM25Reranker()
