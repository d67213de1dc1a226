"""LangChain's own standard retriever tests (``langchain-tests``) on the memory retriever,
``MemoryDocumentRetriever`` over a memory built offline from a short team chat.

The memory retriever returns what fits a token budget (``max_tokens``), not a number of
documents: the two tests of a ``k`` argument are marked as expected failures with that reason.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.retrievers import BaseRetriever
from rerank_plus.memory import build_memory

from langchain_rerank_plus import MemoryDocumentRetriever

langchain_tests = pytest.importorskip("langchain_tests.integration_tests")

CHAT = [
    {"speaker": "Ana", "text": "Welcome, today we plan the spring launch of the running app."},
    {"speaker": "Ben", "text": "Interval sessions make runners faster, our coaches say."},
    {"speaker": "Ana", "text": "Marathon registration opens in March, so launch in February."},
    {"speaker": "Chloe", "text": "The payment module still has two open security issues."},
    {"speaker": "Ben", "text": "I can fix both payment issues by Friday."},
    {"speaker": "Ana", "text": "Then the launch date stays and we announce it next week."},
    {"speaker": "Chloe", "text": "Hill repeats make runners stronger and faster too."},
    {"speaker": "Ben", "text": "Long slow runs build endurance; add them to the plan."},
]
MEMORY = build_memory(CHAT)


def memory_retriever(**options: Any) -> BaseRetriever:
    return MemoryDocumentRetriever(MEMORY, **options)


class TestMemoryRetrieverStandard(langchain_tests.RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[BaseRetriever]:
        return memory_retriever  # type: ignore[return-value]  # a factory over one memory

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"max_tokens": 300}

    @property
    def retriever_query_example(self) -> str:
        return "How do runners get faster?"

    @pytest.mark.xfail(
        reason="the memory retriever returns what fits max_tokens, not k documents", strict=True
    )
    def test_k_constructor_param(self) -> None:
        super().test_k_constructor_param()

    @pytest.mark.xfail(
        reason="the memory retriever returns what fits max_tokens, not k documents", strict=True
    )
    def test_invoke_with_k_kwarg(self, retriever: BaseRetriever) -> None:
        super().test_invoke_with_k_kwarg(retriever)


def test_the_standard_query_finds_the_faster_runner_lines() -> None:
    documents = memory_retriever(max_tokens=300).invoke("How do runners get faster?")
    assert any("faster" in document.page_content for document in documents)
    assert all("level" in document.metadata for document in documents)
