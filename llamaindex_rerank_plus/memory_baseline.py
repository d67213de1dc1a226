"""LlamaIndex's AutoMergingRetriever as a baseline of ``rerank-plus memory eval``.

The transcript of a meeting (one ``Speaker: text`` line per turn, the text the flat baselines
cut) becomes one ``Document``; LlamaIndex's own ``HierarchicalNodeParser`` cuts it into
chunks of 2048, 512 and 128 tokens (its defaults), the leaves go into a ``VectorStoreIndex``
embedded with the evaluation's embedder, and LlamaIndex's ``AutoMergingRetriever`` merges
retrieved leaves into their parent when more than half of the parent's children came back.
The retriever asks for as many leaves as the word budget holds, and twice as many while what
comes back (after merging) is shorter than the budget. Nodes come back best first and fill
the context like every method's pieces.

The core discovers this baseline through the entry point group
``rerank_plus.memory_baselines`` (name ``automerging``, see pyproject.toml); it never imports
LlamaIndex itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from llama_index.core import Document, StorageContext, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.node_parser import HierarchicalNodeParser, get_leaf_nodes
from llama_index.core.retrievers import AutoMergingRetriever, VectorIndexRetriever
from llama_index.core.schema import MetadataMode
from llama_index.core.storage.docstore import SimpleDocumentStore
from pydantic import PrivateAttr
from rerank_plus.evaluation.memory.contexts import fill, join_pieces
from rerank_plus.memory.model.sentences import word_count

#: HierarchicalNodeParser's default chunk sizes (tokens), largest first.
CHUNK_SIZES = (2048, 512, 128)


class FunctionEmbedding(BaseEmbedding):
    """A LlamaIndex embedding over a function from texts to unit vectors (the evaluation's
    cached embedder), so every method of a run embeds a text at most once."""

    _embed: Callable[[Sequence[str]], np.ndarray] = PrivateAttr()

    def __init__(self, embed: Callable[[Sequence[str]], np.ndarray], **kwargs: Any) -> None:
        super().__init__(model_name="rerank-plus-evaluation", embed_batch_size=256, **kwargs)
        self._embed = embed

    @classmethod
    def class_name(cls) -> str:
        return "FunctionEmbedding"

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._embed([query])[0].tolist()

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._embed([text])[0].tolist()

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._embed(texts).tolist()


class _MeetingIndex:
    """One meeting's hierarchy of nodes, its leaves' vector index, and the shared docstore."""

    def __init__(self, transcript: str, embedding: BaseEmbedding) -> None:
        parser = HierarchicalNodeParser.from_defaults(chunk_sizes=list(CHUNK_SIZES))
        nodes = parser.get_nodes_from_documents([Document(text=transcript)])
        self.leaves = get_leaf_nodes(nodes)
        docstore = SimpleDocumentStore()
        docstore.add_documents(nodes)
        self.storage = StorageContext.from_defaults(docstore=docstore)
        self.index = VectorStoreIndex(
            self.leaves, storage_context=self.storage, embed_model=embedding
        )
        sizes = [
            word_count(leaf.get_content(metadata_mode=MetadataMode.NONE)) for leaf in self.leaves
        ]
        self.leaf_words = max(1.0, sum(sizes) / max(len(sizes), 1))

    def retrieve(self, query: str, top_k: int) -> list[str]:
        """AutoMergingRetriever's nodes for ``query`` from the ``top_k`` best leaves, best
        first, each node once."""
        retriever = AutoMergingRetriever(
            VectorIndexRetriever(self.index, similarity_top_k=top_k), self.storage, verbose=False
        )
        seen: set[str] = set()
        texts = []
        for hit in retriever.retrieve(query):
            if hit.node.node_id not in seen:
                seen.add(hit.node.node_id)
                texts.append(hit.node.get_content(metadata_mode=MetadataMode.NONE).strip())
        return texts


class AutoMergingBaseline:
    """``context(meeting, query, words)`` from LlamaIndex's AutoMergingRetriever over a
    HierarchicalNodeParser of the meeting's transcript.

    ``resources`` is the run's :class:`~rerank_plus.evaluation.memory.views.Resources`; only
    its ``embed`` (texts -> unit vectors) is used.
    """

    name = "automerging"

    def __init__(self, resources: Any) -> None:
        self.embedding = FunctionEmbedding(resources.embed)
        self._index: tuple[str, _MeetingIndex] | None = None

    def prepare(self, meeting: Any) -> None:
        self.meeting_index(meeting)

    def meeting_index(self, meeting: Any) -> _MeetingIndex:
        if self._index is None or self._index[0] != meeting.name:
            self._index = (meeting.name, _MeetingIndex(meeting.transcript, self.embedding))
        return self._index[1]

    def context(self, meeting: Any, query: Any, words: int) -> str:
        index = self.meeting_index(meeting)
        if not index.leaves or words <= 0:
            return ""
        top_k = min(len(index.leaves), math.ceil(words / index.leaf_words))
        while True:
            texts = index.retrieve(query.text, top_k)
            if top_k >= len(index.leaves) or sum(map(word_count, texts)) >= words:
                break
            top_k = min(len(index.leaves), 2 * top_k)
        return join_pieces(fill(texts, words))
