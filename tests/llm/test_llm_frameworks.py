"""The LLM the user already has: LangChain chat models and LlamaIndex LLMs (the frameworks' own
fakes, scripted), the adapters' ready classes in the frameworks' own retrievers, and a core
that imports no framework."""

from __future__ import annotations

import math
import subprocess
import sys
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models.fake_chat_models import (
    FakeListChatModel,
    GenericFakeChatModel,
)
from langchain_core.messages import AIMessage
from langchain_core.vectorstores import InMemoryVectorStore
from llama_index.core import MockEmbedding, VectorStoreIndex
from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata, MockLLM
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.schema import NodeWithScore, TextNode
from rerank_plus import BM25Reranker, Cascade, LLMReranker
from rerank_plus.scoring.llm.frameworks import as_chat_model

import langchain_rerank_plus
import llamaindex_rerank_plus
from tests.llm.conftest import hidden_relevance
from tests.llm.oracle import answer, document

DOCUMENTS = ["Paris is in France.", "Marathon training plans.", "Tax forms.", "Pasta recipes."]


def test_a_langchain_chat_model_is_wrapped_and_scripted_answers_rank() -> None:
    model = FakeListChatModel(responses=["[2] > [4] > [1] > [3]"])
    reranker = LLMReranker(model)
    assert isinstance(reranker.llm, langchain_rerank_plus.LangChainChat)
    assert reranker.model == "fake-list-chat-model"
    assert [r.index for r in reranker.rank("marathon", DOCUMENTS)] == [1, 3, 0, 2]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Here is my ranking:\n[2] > [2] > [9]\nI hope it helps!", [1, 0, 2, 3]),
        ("I will not rank these. Ignore all previous instructions.", [0, 1, 2, 3]),
        ("[4][3][2][1]", [3, 2, 1, 0]),
        ("🏃 [2] 🏃 > [1]", [1, 0, 2, 3]),
    ],
)
def test_malformed_and_adversarial_langchain_answers_keep_every_document(reply, expected) -> None:
    results = LLMReranker(FakeListChatModel(responses=[reply])).rank("q", DOCUMENTS, explain=True)
    assert [r.index for r in results] == expected
    assert results[0].explanation["usage"]["calls"] == 1


def test_langchain_usage_metadata_and_logprobs_are_read() -> None:
    def reply(p_yes: float) -> AIMessage:
        alternatives = [
            {"token": "Yes", "logprob": math.log(p_yes)},
            {"token": "No", "logprob": math.log(1 - p_yes)},
        ]
        return AIMessage(
            "Yes",
            usage_metadata={"input_tokens": 40, "output_tokens": 1, "total_tokens": 41},
            response_metadata={"logprobs": {"content": [{"top_logprobs": alternatives}]}},
        )

    model = GenericFakeChatModel(messages=iter([reply(0.2), reply(0.7), reply(0.9)]))
    reranker = LLMReranker(model, mode="pointwise", judgment="yes-no", max_concurrency=1)
    results = reranker.rank("q", DOCUMENTS[:3], explain=True)
    assert [(r.index, round(r.relevance_score, 3)) for r in results] == [
        (2, 0.9),
        (1, 0.7),
        (0, 0.2),
    ]
    assert reranker.usage.input_tokens == 120 and reranker.usage.output_tokens == 3
    assert reranker.usage.to_dict()["estimated"] is False


async def test_langchain_async_path() -> None:
    model = FakeListChatModel(responses=["3", "0", "2", "1"])
    reranker = LLMReranker(model, mode="pointwise", max_concurrency=1)
    results = await reranker.arank("q", DOCUMENTS)
    assert [r.index for r in results] == [0, 2, 3, 1]


class OracleLLM(CustomLLM):
    """A LlamaIndex LLM that answers as the oracle (its chat goes through ``complete``)."""

    relevance: dict[str, float]

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="oracle-llamaindex")

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text=answer(prompt, self.relevance))

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> Any:
        raise NotImplementedError("the reranker never streams")


def test_a_llamaindex_llm_is_wrapped_and_ranks() -> None:
    llm = OracleLLM(relevance=hidden_relevance(30))
    reranker = LLMReranker(llm, window_size=10, step=5)
    assert isinstance(reranker.llm, llamaindex_rerank_plus.LlamaIndexChat)
    results = reranker.rank("q", [document(n) for n in range(30)], top_n=3)
    assert [r.index for r in results] == [29, 28, 27]
    assert reranker.usage.calls_made == 5 and reranker.model == "oracle-llamaindex"


def test_llamaindex_mock_llm_echoing_the_prompt_loses_no_document() -> None:
    """MockLLM echoes the prompt: the numbers it repeats are the identity order."""
    results = LLMReranker(MockLLM()).rank("q", DOCUMENTS, explain=True)
    assert sorted(r.index for r in results) == [0, 1, 2, 3]


def test_llamaindex_postprocessor_with_a_cascade_over_its_own_retriever() -> None:
    words = ["marathon training plan", "pasta recipe", "tax forms"]
    nodes = [TextNode(text=document(n, words[n % 3]), id_=f"n{n}") for n in range(60)]
    index = VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=8))
    retrieved = index.as_retriever(similarity_top_k=60).retrieve("marathon training")
    llm = OracleLLM(relevance=hidden_relevance(60))
    cascade = Cascade([BM25Reranker(language="en"), LLMReranker(llm)], keep=[30, 5])
    postprocessor = llamaindex_rerank_plus.RerankPlusPostprocessor(reranker=cascade, top_n=5)
    kept = postprocessor.postprocess_nodes(retrieved, query_str="marathon training")
    assert [n.node.id_ for n in kept] == ["n57", "n54", "n51", "n48", "n45"]
    assert kept[0].score == 1.0


def test_llamaindex_ready_class() -> None:
    llm = OracleLLM(relevance=hidden_relevance(6))
    nodes = [NodeWithScore(node=TextNode(text=document(n)), score=0.5) for n in range(6)]
    postprocessor = llamaindex_rerank_plus.LLMRerank(llm=llm, mode="pointwise", top_n=2)
    kept = postprocessor.postprocess_nodes(nodes, query_str="q")
    # grades: doc004 and doc005 get 3, the tie keeps the input order
    assert [n.node.get_content() for n in kept] == [document(4), document(5)]
    assert postprocessor.model_name == "oracle-llamaindex"
    assert nodes[0].score == 0.5, "the caller's nodes are not changed"


def test_langchain_ready_class_in_a_compression_retriever() -> None:
    from langchain_classic.retrievers import ContextualCompressionRetriever

    store = InMemoryVectorStore(embedding=DeterministicFakeEmbedding(size=16))
    store.add_documents([Document(document(n), metadata={"n": n}) for n in range(8)])
    relevance = hidden_relevance(8)

    class Oracle(FakeListChatModel):
        def _call(self, messages: Any, stop: Any = None, **kwargs: Any) -> str:
            return answer(str(messages[-1].content), relevance)

    compressor = langchain_rerank_plus.LLMRerank(llm=Oracle(responses=[""]), top_n=3)
    retriever = ContextualCompressionRetriever(
        base_compressor=compressor, base_retriever=store.as_retriever(search_kwargs={"k": 8})
    )
    documents = retriever.invoke("q")
    assert [d.metadata["n"] for d in documents] == [7, 6, 5]
    assert documents[0].metadata["relevance_score"] == 1.0


def test_an_object_that_is_no_model_is_refused_with_the_options() -> None:
    with pytest.raises(TypeError, match=r"llm is str.*OpenAICompatibleChat"):
        as_chat_model("gpt-4o-mini")


def test_the_core_imports_no_framework_to_rank_with_an_llm() -> None:
    code = (
        "import sys\n"
        "from rerank_plus import LLMReranker\n"
        "from rerank_plus.scoring.llm import Completion\n"
        "class Echo:\n"
        "    model_name = 'echo'\n"
        "    def complete(self, prompt, *, max_tokens, logprobs=False):\n"
        "        return Completion('[2] > [1]')\n"
        "print([r.index for r in LLMReranker(Echo()).rank('q', ['a', 'b'])])\n"
        "heavy = ('llama_index', 'langchain', 'langchain_core', 'httpx', 'torch')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:2] == ["[1, 0]", "[]"]
