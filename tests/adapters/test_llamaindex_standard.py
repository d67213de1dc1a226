"""The LlamaIndex postprocessors at LlamaIndex's own standard: spans and events on both paths,
strict arguments, the scored text of LlamaIndex's rerankers, the raw score, LLM prompts through
the prompt-mixin API, and the query and chat engines end to end (real LlamaIndex objects)."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest
from llama_index.core import MockEmbedding, Settings, VectorStoreIndex
from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events.rerank import ReRankEndEvent, ReRankStartEvent
from llama_index.core.instrumentation.span_handlers import SimpleSpanHandler
from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata, MockLLM
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.prompts import ChatMessage, ChatPromptTemplate, MessageRole, PromptTemplate
from llama_index.core.schema import MetadataMode, NodeWithScore, TextNode
from pydantic import Field, ValidationError
from rerank_plus import BM25Reranker
from rerank_plus.scoring.llm.prompts import LISTWISE_SYSTEM

from llamaindex_rerank_plus import BM25Rerank, LLMRerank, RerankPlusPostprocessor

TEXTS = ["cats sleep all day", "a marathon training plan", "rivers and lakes", "marathon"]


class RecordingBM25(BM25Reranker):
    """BM25 that keeps the texts it was asked to score: the scored text, seen from inside."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[list[str]] = []

    def score(self, query, documents, *, explain=False):
        self.seen.append(list(documents))
        return super().score(query, documents, explain=explain)


class Recorder(BaseEventHandler):
    events: list[Any] = Field(default_factory=list)

    @classmethod
    def class_name(cls) -> str:
        return "Recorder"

    def handle(self, event: Any, **kwargs: Any) -> None:
        self.events.append(event)


@pytest.fixture
def instrumented() -> Iterator[tuple[Recorder, SimpleSpanHandler]]:
    """An event handler and a span handler on LlamaIndex's root dispatcher, removed after."""
    root = get_dispatcher()
    events, spans = Recorder(events=[]), SimpleSpanHandler()
    root.add_event_handler(events)
    root.add_span_handler(spans)
    try:
        yield events, spans
    finally:
        root.event_handlers.remove(events)
        root.span_handlers.remove(spans)


def nodes_of(texts: list[str]) -> list[NodeWithScore]:
    return [
        NodeWithScore(node=TextNode(text=t, id_=f"node-{i}", metadata={"n": i}), score=0.5)
        for i, t in enumerate(texts)
    ]


def rerank_spans(recorder: Recorder) -> list[str]:
    """The span each ReRank event was emitted in, by method name."""
    return [
        f"{type(e).__name__} in {e.span_id.split('-')[0]}"
        for e in recorder.events
        if isinstance(e, (ReRankStartEvent, ReRankEndEvent))
    ]


def test_the_async_path_has_the_span_and_events_of_the_sync_path(instrumented):
    recorder, spans = instrumented
    postprocessor = BM25Rerank(top_n=2)
    postprocessor.postprocess_nodes(nodes_of(TEXTS), query_str="marathon")
    asyncio.run(postprocessor.apostprocess_nodes(nodes_of(TEXTS), query_str="marathon"))
    assert rerank_spans(recorder) == [
        "ReRankStartEvent in BM25Rerank._postprocess_nodes",
        "ReRankEndEvent in BM25Rerank._postprocess_nodes",
        "ReRankStartEvent in BM25Rerank._apostprocess_nodes",
        "ReRankEndEvent in BM25Rerank._apostprocess_nodes",
    ]
    closed = [span.id_.split("-")[0] for span in spans.completed_spans]
    assert "BM25Rerank._apostprocess_nodes" in closed
    assert [len(e.nodes) for e in recorder.events if isinstance(e, ReRankEndEvent)] == [2, 2]


def test_unknown_arguments_are_errors_and_serialization_still_round_trips():
    with pytest.raises(ValidationError, match=r"topn\n  Extra inputs are not permitted"):
        BM25Rerank(topn=3)
    with pytest.raises(ValidationError, match=r"top_k\n  Extra inputs are not permitted"):
        RerankPlusPostprocessor(reranker=BM25Reranker(), top_k=3)
    postprocessor = BM25Rerank(top_n=4, k1=1.1, metadata_mode=MetadataMode.ALL)
    assert BM25Rerank.from_dict(postprocessor.to_dict()).to_dict() == postprocessor.to_dict()
    assert BM25Rerank.from_json(postprocessor.to_json()).to_dict() == postprocessor.to_dict()


def test_top_n_and_threshold_are_checked_at_construction_and_on_assignment():
    with pytest.raises(ValidationError, match="top_n must be a positive int or None, got 0"):
        BM25Rerank(top_n=0)
    with pytest.raises(ValidationError, match=r"threshold must lie in \[0, 1\]"):
        BM25Rerank(threshold=1.5)
    postprocessor = BM25Rerank(top_n=2)
    with pytest.raises(ValidationError, match="top_n must be a positive int or None, got -1"):
        postprocessor.top_n = -1
    with pytest.raises(ValidationError, match=r"threshold must lie in \[0, 1\].*got -0.1"):
        postprocessor.threshold = -0.1
    postprocessor.top_n = 1
    assert len(postprocessor.postprocess_nodes(nodes_of(TEXTS), query_str="marathon")) == 1


def test_the_default_scored_text_is_llamaindexs_embed_text():
    """As SentenceTransformerRerank and CohereRerank score it: the metadata the index embeds
    (not the keys excluded from embedding), a blank line, then the text."""
    node = TextNode(
        text="Rain all week.",
        metadata={"city": "Oslo", "file_path": "/data/report.txt"},
        excluded_embed_metadata_keys=["file_path"],
    )
    recording = RecordingBM25()
    postprocessor = RerankPlusPostprocessor(reranker=recording)
    assert postprocessor.metadata_mode == MetadataMode.EMBED
    postprocessor.postprocess_nodes([NodeWithScore(node=node, score=0.1)], query_str="Oslo")
    assert recording.seen == [["city: Oslo\n\nRain all week."]]
    RerankPlusPostprocessor(reranker=recording, metadata_mode=MetadataMode.NONE).postprocess_nodes(
        [NodeWithScore(node=node, score=0.1)], query_str="Oslo"
    )
    assert recording.seen[-1] == ["Rain all week."]


def test_the_raw_score_is_kept_and_added_keys_stay_out_of_prompts():
    nodes = nodes_of(TEXTS)
    out = BM25Rerank(top_n=2, keep_retrieval_score=True, explain=True).postprocess_nodes(
        nodes, query_str="marathon"
    )
    texts = [n.node.get_content(MetadataMode.EMBED) for n in nodes]
    core = BM25Reranker().rank("marathon", texts, top_n=2)
    assert [n.node.metadata["rerank_raw_score"] for n in out] == [r.score for r in core]
    assert [n.score for n in out] == [r.relevance_score for r in core]
    added = {"rerank_raw_score", "retrieval_score", "rerank_explanation"}
    for node in out:
        assert added <= set(node.node.metadata)
        for mode in (MetadataMode.LLM, MetadataMode.EMBED):
            assert node.node.get_content(mode) == f"n: {node.node.metadata['n']}\n\n" + (
                node.node.text
            )
    assert nodes[0].node.excluded_llm_metadata_keys == [], "the caller's node is not changed"


class RecordingLLM(CustomLLM):
    """A LlamaIndex LLM that keeps the prompts it gets and ranks the passages in reverse."""

    prompts: list[str] = Field(default_factory=list)

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="recording")

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        return CompletionResponse(text="[2] > [1]")

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> Any:
        raise NotImplementedError("the reranker never streams")


@pytest.fixture
def settings_llm() -> Iterator[RecordingLLM]:
    previous = Settings._llm
    Settings.llm = RecordingLLM(prompts=[])
    try:
        yield Settings.llm
    finally:
        Settings._llm = previous


def test_llm_rerank_falls_back_to_settings_llm(settings_llm):
    postprocessor = LLMRerank(top_n=2)
    assert postprocessor.llm is settings_llm
    out = postprocessor.postprocess_nodes(nodes_of(TEXTS[:2]), query_str="marathon")
    assert [n.node.node_id for n in out] == ["node-1", "node-0"]
    assert (
        "[1] n: 0 cats sleep all day\n[2] n: 1 a marathon training plan" in settings_llm.prompts[0]
    )


def test_llm_rerank_prompts_through_the_prompt_mixin(settings_llm):
    postprocessor = LLMRerank(top_n=2)
    default = postprocessor.get_prompts()["rerank_prompt"]
    assert isinstance(default, ChatPromptTemplate)
    assert set(default.template_vars) == {"query", "passages", "count"}
    postprocessor.postprocess_nodes(nodes_of(TEXTS[:2]), query_str="marathon")
    assert LISTWISE_SYSTEM in settings_llm.prompts[-1]

    mine = ChatPromptTemplate(
        message_templates=[
            ChatMessage(role=MessageRole.SYSTEM, content="You sort passages carefully."),
            ChatMessage(role=MessageRole.USER, content="Query: {query}\n{passages}\nOrder:"),
        ]
    )
    postprocessor.update_prompts({"rerank_prompt": mine})
    assert postprocessor.get_prompts()["rerank_prompt"] == mine
    postprocessor.postprocess_nodes(nodes_of(TEXTS[:2]), query_str="rain")
    sent = settings_llm.prompts[-1]
    assert "You sort passages carefully." in sent
    assert (
        "Query: rain\n[1] n: 0 cats sleep all day\n[2] n: 1 a marathon training plan\nOrder:"
        in sent
    )

    with pytest.raises(
        ValidationError, match=r"listwise prompt must contain .* lacks \{passages\}"
    ):
        postprocessor.update_prompts({"rerank_prompt": PromptTemplate("Rank for {query}.")})
    assert postprocessor.get_prompts()["rerank_prompt"] == mine, "a refused prompt changes nothing"
    with pytest.raises(ValidationError, match=r"grade prompt .* lacks \{passage\}"):
        LLMRerank(mode="pointwise", prompt=PromptTemplate("{query} {passages}"))
    pointwise = LLMRerank(mode="pointwise", prompt="Query: {query}\nPassage: {passage}\nGrade 0-3:")
    assert pointwise.reranker.prompt.user.startswith("Query: {query}")


def test_llm_rerank_without_any_llm_says_what_llamaindex_says(monkeypatch):
    """No llm and no Settings.llm: LlamaIndex's own default (OpenAI), and its own error when
    that integration is not installed."""
    if importlib.util.find_spec("llama_index.llms") is not None:
        pytest.skip("llama-index-llms-openai is installed: Settings.llm would build an OpenAI LLM")
    monkeypatch.setattr(Settings, "_llm", None)
    with pytest.raises(ImportError, match=r"pip install llama-index-llms-openai"):
        LLMRerank()


@pytest.fixture
def index() -> VectorStoreIndex:
    """A real index whose (mock) embedding ties every node: the order is the reranker's."""
    nodes = [TextNode(text=t, id_=f"node-{i}") for i, t in enumerate(TEXTS)]
    return VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=8))


def expected_order(query: str) -> list[str]:
    return [f"node-{r.index}" for r in BM25Reranker().rank(query, TEXTS, top_n=2)]


def test_query_engine_sync_and_async_with_the_rerank_span(index, instrumented):
    recorder, _ = instrumented
    engine = index.as_query_engine(
        similarity_top_k=4, node_postprocessors=[BM25Rerank(top_n=2)], llm=MockLLM()
    )
    for response in (engine.query("marathon"), asyncio.run(engine.aquery("marathon"))):
        assert [n.node.node_id for n in response.source_nodes] == expected_order("marathon")
        assert "a marathon training plan" in str(response)  # the reranked context reached it
    assert rerank_spans(recorder)[-2:] == [
        "ReRankStartEvent in BM25Rerank._apostprocess_nodes",
        "ReRankEndEvent in BM25Rerank._apostprocess_nodes",
    ]


@pytest.mark.parametrize("chat_mode", ["context", "condense_plus_context"])
def test_chat_engine_sync_and_async(index, chat_mode):
    engine = index.as_chat_engine(
        chat_mode=chat_mode,
        llm=MockLLM(),
        similarity_top_k=4,
        node_postprocessors=[BM25Rerank(top_n=2)],
    )
    sync = engine.chat("marathon")
    engine.reset()
    asynchronous = asyncio.run(engine.achat("marathon"))
    for response in (sync, asynchronous):
        assert [n.node.node_id for n in response.source_nodes] == expected_order("marathon")
        assert all("rerank_raw_score" in n.node.metadata for n in response.source_nodes)
