"""The LangChain compressors at LangChain's own standard: the run's callbacks reach the model
calls, metadata scored through ``rank_fields``, the raw score, strict and checked fields, and
custom prompts (real LangChain chat models, retrievers and callback handlers)."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

import pytest
from langchain_classic.retrievers import ContextualCompressionRetriever
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.prompts import ChatPromptTemplate, PromptTemplate
from langchain_core.vectorstores import InMemoryVectorStore
from pydantic import ValidationError
from rerank_plus import BM25Reranker

from langchain_rerank_plus import BM25Rerank, LLMRerank, RerankPlusCompressor

DOCUMENTS = [
    Document("Rain all week.", metadata={"city": "Oslo", "n": 0}, id="a"),
    Document("Sunny spells.", metadata={"city": "Lyon", "n": 1}, id="b"),
    Document("Marathon training starts.", metadata={"n": 2}, id="c"),
]


class ChatRuns(BaseCallbackHandler):
    """Records the chat-model runs it sees: their messages and parent run."""

    def __init__(self) -> None:
        self.runs: list[tuple[list[Any], UUID | None]] = []
        self.retriever_runs: list[UUID] = []
        self.tags: list[list[str] | None] = []

    def on_chat_model_start(self, serialized, messages, *, run_id, parent_run_id=None, **kw):
        self.runs.append((messages[0], parent_run_id))
        self.tags.append(kw.get("tags"))

    def on_retriever_start(self, serialized, query, *, run_id, **kw):
        self.retriever_runs.append(run_id)


def listwise_model(count: int = 20) -> FakeListChatModel:
    return FakeListChatModel(responses=["[3] > [1] > [2]"] * count)


def test_the_callbacks_given_to_compress_documents_see_every_model_call():
    compressor = LLMRerank(llm=listwise_model(), top_n=3)
    for run in (
        lambda handler: compressor.compress_documents(DOCUMENTS, "rain", callbacks=[handler]),
        lambda handler: asyncio.run(
            compressor.acompress_documents(DOCUMENTS, "snow", callbacks=[handler])
        ),
    ):
        handler = ChatRuns()
        assert [d.id for d in run(handler)] == ["c", "a", "b"]
        assert len(handler.runs) == 1
        assert "[1] Rain all week." in handler.runs[0][0][1].content


def test_pointwise_calls_in_worker_threads_report_to_the_run_too():
    compressor = LLMRerank(
        llm=FakeListChatModel(responses=["2"] * 20), mode="pointwise", max_concurrency=3
    )
    handler = ChatRuns()
    compressor.compress_documents(DOCUMENTS, "forecast", callbacks=[handler])
    assert len(handler.runs) == 3
    handler = ChatRuns()
    asyncio.run(compressor.acompress_documents(DOCUMENTS, "weather", callbacks=[handler]))
    assert len(handler.runs) == 3


def test_a_retrievers_run_is_the_parent_of_the_rerank_calls():
    store = InMemoryVectorStore(embedding=DeterministicFakeEmbedding(size=8))
    store.add_documents(DOCUMENTS)
    retriever = ContextualCompressionRetriever(
        base_compressor=LLMRerank(llm=listwise_model(), top_n=2),
        base_retriever=store.as_retriever(search_kwargs={"k": 3}),
    )
    for invoke in (
        lambda config: retriever.invoke("rain", config=config),
        lambda config: asyncio.run(retriever.ainvoke("rain in Oslo", config=config)),
    ):
        handler = ChatRuns()
        assert len(invoke({"callbacks": [handler], "tags": ["rerank-test"]})) == 2
        compression_run, _base_run = handler.retriever_runs
        assert [parent for _, parent in handler.runs] == [compression_run]
        assert handler.tags == [["rerank-test"]]  # the run's config is inherited


def test_rank_fields_put_metadata_in_the_scored_text():
    plain = BM25Rerank(top_n=None).compress_documents(DOCUMENTS, "Lyon")
    assert {d.metadata["relevance_score"] for d in plain} == {0.0}
    compressor = BM25Rerank(top_n=1, rank_fields=["city"])
    (best,) = compressor.compress_documents(DOCUMENTS, "Lyon")
    assert best.id == "b" and best.page_content == "Sunny spells."  # the copy keeps its text

    seen: list[list[str]] = []

    class Recording(BM25Reranker):
        def score(self, query, documents, *, explain=False):
            seen.append(list(documents))
            return super().score(query, documents, explain=explain)

    fields = RerankPlusCompressor(reranker=Recording(), rank_fields=["title", "city", "n"])
    fields.compress_documents(DOCUMENTS, "Lyon")
    assert seen == [
        [
            "city: Oslo\nn: 0\n\nRain all week.",
            "city: Lyon\nn: 1\n\nSunny spells.",
            "n: 2\n\nMarathon training starts.",
        ]
    ]


def test_the_raw_score_is_kept_beside_relevance_score():
    out = BM25Rerank(top_n=2).compress_documents(DOCUMENTS, "marathon training")
    core = BM25Reranker().rank("marathon training", [d.page_content for d in DOCUMENTS], top_n=2)
    assert [d.metadata["rerank_raw_score"] for d in out] == [r.score for r in core]
    assert [d.metadata["relevance_score"] for d in out] == [r.relevance_score for r in core]
    assert "rerank_raw_score" not in DOCUMENTS[2].metadata


def test_top_n_and_threshold_are_checked_at_construction_and_on_assignment():
    with pytest.raises(ValidationError, match="top_n must be a positive int or None, got 0"):
        BM25Rerank(top_n=0)
    with pytest.raises(ValidationError, match=r"threshold must lie in \[0, 1\].*got 2.0"):
        RerankPlusCompressor(reranker=BM25Reranker(), threshold=2.0)
    compressor = BM25Rerank(top_n=2)
    with pytest.raises(ValidationError, match="top_n must be a positive int or None, got -3"):
        compressor.top_n = -3
    with pytest.raises(ValidationError, match=r"threshold must lie in \[0, 1\]"):
        compressor.threshold = float("nan")
    assert compressor.top_n == 2
    with pytest.raises(ValidationError, match=r"rank_field\n  Extra inputs are not permitted"):
        BM25Rerank(rank_field=["city"])


def test_a_custom_prompt_is_sent_and_one_without_its_placeholders_is_refused():
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "You rank weather reports. Answer like {{json}}."),
            ("human", "Question: {query}\n{passages}\n{count} reports. Order:"),
        ]
    )
    compressor = LLMRerank(llm=listwise_model(), prompt=prompt, top_n=1)
    handler = ChatRuns()
    compressor.compress_documents(DOCUMENTS, "rain", callbacks=[handler])
    system, human = handler.runs[0][0]
    assert system.content == "You rank weather reports. Answer like {json}."
    assert human.content == (
        "Question: rain\n[1] Rain all week.\n[2] Sunny spells.\n"
        "[3] Marathon training starts.\n3 reports. Order:"
    )
    with pytest.raises(
        ValidationError, match=r"listwise prompt must contain .* lacks \{passages\}"
    ):
        LLMRerank(llm=listwise_model(), prompt=PromptTemplate.from_template("Rank: {query}"))
    with pytest.raises(ValidationError, match=r"\{document\} is not filled in"):
        LLMRerank(llm=listwise_model(), prompt="{query} {passages} {document}")
    with pytest.raises(ValidationError, match="also has ai messages"):
        LLMRerank(
            llm=listwise_model(),
            prompt=ChatPromptTemplate.from_messages(
                [("human", "{query} {passages}"), ("ai", "[1] > [2]")]
            ),
        )
    pointwise = LLMRerank(
        llm=FakeListChatModel(responses=["3"]),
        mode="pointwise",
        prompt=PromptTemplate.from_template("Q: {query}\nP: {passage}\nGrade 0-3:"),
    )
    assert pointwise.reranker.prompt.user == "Q: {query}\nP: {passage}\nGrade 0-3:"
