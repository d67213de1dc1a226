"""Framework model objects where a model name goes: a LangChain ``BaseCrossEncoder`` or
``Embeddings`` and a LlamaIndex ``BaseEmbedding``, scored in bounded batches, cached by content."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.cross_encoders import BaseCrossEncoder
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from llama_index.core.bridge.pydantic import PrivateAttr
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.schema import NodeWithScore, TextNode
from pydantic import ValidationError
from rerank_plus.scoring.model_objects import EmbeddingsReranker, PairScorerReranker

import langchain_rerank_plus
import llamaindex_rerank_plus

TEXTS = ["cats sleep", "marathon training plan", "marathon", "rivers", "marathon"]


class WordOverlap(BaseCrossEncoder):
    """A LangChain cross-encoder: the share of query words in the text. Records its calls."""

    def __init__(self, scale: float = 1.0) -> None:
        self.batches: list[int] = []
        self.scale = scale

    def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
        self.batches.append(len(text_pairs))
        return [
            self.scale * len(set(q.split()) & set(t.split())) / len(set(q.split()))
            for q, t in text_pairs
        ]


def documents() -> list[Document]:
    return [Document(text, id=f"d{i}") for i, text in enumerate(TEXTS)]


def test_a_langchain_cross_encoder_object_is_scored_in_batches_and_cached():
    scorer = WordOverlap()
    compressor = langchain_rerank_plus.CrossEncoderRerank(model=scorer, batch_size=2, top_n=3)
    first = compressor.compress_documents(documents(), "marathon plan")
    assert [d.id for d in first] == ["d1", "d2", "d4"]  # the tie keeps the input order
    assert [d.metadata["relevance_score"] for d in first] == [1.0, 0.5, 0.5]
    assert scorer.batches == [2, 2]  # 4 distinct pairs (one repeated), 2 per call
    again = compressor.compress_documents(documents(), "marathon plan")
    assert again == first and scorer.batches == [2, 2]  # every pair came from the cache
    assert isinstance(compressor.reranker, PairScorerReranker)
    assert compressor.reranker.model == "WordOverlap"


def test_logits_need_saying_so_and_options_of_named_models_are_refused():
    logits = langchain_rerank_plus.CrossEncoderRerank(model=WordOverlap(scale=4.0))
    with pytest.raises(ValueError, match=r'not a probability: .*outputs="logit"'):
        logits.compress_documents(documents(), "marathon plan")
    as_logits = PairScorerReranker(WordOverlap(scale=4.0), outputs="logit")
    (best,) = as_logits.rank("marathon plan", TEXTS, top_n=1)
    assert (best.index, best.score) == (1, 4.0)
    assert best.relevance_score == pytest.approx(1 / (1 + 2.718281828459045**-4))
    with pytest.raises(ValueError, match=r"device, max_length set how a named model is loaded"):
        langchain_rerank_plus.CrossEncoderRerank(
            model=WordOverlap(), device="cpu", max_length=64
        ).compress_documents(documents(), "q")
    with pytest.raises(ValidationError, match="CrossEncoderRerank\nmodel"):
        langchain_rerank_plus.CrossEncoderRerank(model=object())


def test_a_scorer_returning_the_wrong_count_is_a_clear_error():
    class Short(WordOverlap):
        def score(self, text_pairs):
            return super().score(text_pairs)[:-1]

    with pytest.raises(ValueError, match=r"Short.score returned 1 values for 2 inputs"):
        PairScorerReranker(Short()).rank("q", ["a", "b"])


def test_a_langchain_embeddings_object_is_cached_by_content():
    class Counting(DeterministicFakeEmbedding):
        calls: int = 0

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            self.calls += len(texts)
            return super().embed_documents(texts)

    embeddings = Counting(size=16)
    compressor = langchain_rerank_plus.BiEncoderRerank(model=embeddings, top_n=None)
    out = compressor.compress_documents(documents(), "marathon")
    assert embeddings.calls == 4  # "marathon" twice is embedded once
    assert [d.id for d in out][:2] == ["d2", "d4"]  # the query's own text: cosine 1
    assert out[0].metadata["relevance_score"] == pytest.approx(1.0)
    compressor.compress_documents(documents(), "rivers")
    assert embeddings.calls == 4
    assert isinstance(compressor.reranker, EmbeddingsReranker)


class CountingEmbedding(BaseEmbedding):
    """A LlamaIndex embedding (bag of letters) that counts the texts it embeds."""

    _texts: list[str] = PrivateAttr(default_factory=list)

    def _vector(self, text: str) -> list[float]:
        return [text.count(letter) + 0.01 for letter in "aeimnorst"]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        self._texts.append(text)
        return self._vector(text)


def test_a_llamaindex_embedding_object_is_a_bi_encoder_model():
    embedding = CountingEmbedding(model_name="letters", embed_batch_size=2)
    postprocessor = llamaindex_rerank_plus.BiEncoderRerank(model=embedding, top_n=2)
    nodes = [
        NodeWithScore(node=TextNode(text=t, id_=f"n{i}"), score=0.1) for i, t in enumerate(TEXTS)
    ]
    out = postprocessor.postprocess_nodes(nodes, query_str="marathon")
    assert [n.node.node_id for n in out] == ["n2", "n4"]
    assert postprocessor.model_name == "letters"
    assert len(embedding._texts) == 4
    postprocessor.postprocess_nodes(nodes, query_str="rivers")
    assert len(embedding._texts) == 4  # cached
    expected = EmbeddingsReranker(langchain_like(embedding)).rank("marathon", TEXTS, top_n=2)
    assert [n.score for n in out] == [r.relevance_score for r in expected]


def langchain_like(embedding: BaseEmbedding) -> Any:
    return llamaindex_rerank_plus.postprocessor.LlamaIndexEmbedder(embedding)


@pytest.mark.slow
def test_the_frameworks_huggingface_embeddings_agree_with_the_named_bi_encoder(minilm_path):
    from langchain_huggingface import HuggingFaceEmbeddings
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    query = "How do runners get faster?"
    expected = langchain_rerank_plus.BiEncoderRerank(model=minilm_path, top_n=None)
    named = expected.compress_documents(documents(), query)
    langchain = langchain_rerank_plus.BiEncoderRerank(
        model=HuggingFaceEmbeddings(model_name=minilm_path, model_kwargs={"device": "cpu"}),
        top_n=None,
    ).compress_documents(documents(), query)
    assert [d.id for d in langchain] == [d.id for d in named]
    for got, want in zip(langchain, named, strict=True):
        assert got.metadata["relevance_score"] == pytest.approx(
            want.metadata["relevance_score"], abs=1e-5
        )
    nodes = [NodeWithScore(node=TextNode(text=t, id_=f"d{i}")) for i, t in enumerate(TEXTS)]
    llamaindex = llamaindex_rerank_plus.BiEncoderRerank(
        model=HuggingFaceEmbedding(model_name=minilm_path, device="cpu"), top_n=None
    ).postprocess_nodes(nodes, query_str=query)
    assert [n.node.node_id for n in llamaindex] == [d.id for d in named]
