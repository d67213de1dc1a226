"""LlamaIndex and the hierarchical memory: nodes in, nodes out; translation only.

``memory_from_nodes`` reads the parent/child nodes of a ``HierarchicalNodeParser`` (or any
nodes linked by ``NodeRelationship.PARENT`` / ``CHILD``) as a memory: the leaf chunks are level
0, their parents level 1, and so on up to the roots (the largest chunks). ``MemoryNodeRetriever``
is a LlamaIndex retriever over ``rerank_plus.memory.MemoryRetriever``: it returns the context's
items as nodes, in the context's order, so it plugs into a ``RetrieverQueryEngine``.

Example::

    from llama_index.core.node_parser import HierarchicalNodeParser
    from llama_index.core.query_engine import RetrieverQueryEngine

    nodes = HierarchicalNodeParser.from_defaults().get_nodes_from_documents(documents)
    retriever = MemoryNodeRetriever(memory_from_nodes(nodes), max_tokens=1500)
    answer = RetrieverQueryEngine.from_args(retriever, llm=llm).query("What was decided?")
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import BaseNode, MetadataMode, NodeWithScore, QueryBundle, TextNode
from rerank_plus.memory import Memory, MemoryFormatError
from rerank_plus.memory.adapters_support import (
    NamespaceRetriever,
    context_metadata,
    memory_retriever,
)
from rerank_plus.memory.model.tree import TreeNode, memory_from_tree

#: Metadata the LLM does not need to read (it sees level, time, speaker, source, block);
#: ``elided`` says what the composed context showed, but a node carries the whole text.
_HIDDEN_FROM_LLM = ("memory_id", "index", "score", "label", "end_time", "elided")


def _hidden_from_llm(metadata: dict[str, Any]) -> list[str]:
    """The keys the LLM is not shown: bookkeeping, and values that say nothing (None, "", an
    empty list or mapping), which would read as ``source: None``."""
    empty = [key for key, value in metadata.items() if value is None or value in ("", [], {})]
    return list(dict.fromkeys([*_HIDDEN_FROM_LLM, *empty]))


def _text_metadata(node: BaseNode, key: str, where: str) -> str | None:
    value = node.metadata.get(key)
    if value is not None and not isinstance(value, str):
        raise MemoryFormatError(f"{where}.metadata[{key!r}] must be text, got {value!r}.")
    return value


def memory_from_nodes(
    nodes: Sequence[BaseNode | NodeWithScore],
    *,
    time_key: str = "time",
    speaker_key: str = "speaker",
    source_key: str = "source",
) -> Memory:
    """A memory from LlamaIndex nodes linked as parents and children.

    Pass every node the parser returned (not only ``get_leaf_nodes``): a node's level is its
    height (leaves 0), its children are what it covers, each level keeps the order of
    ``nodes``. The metadata keys ``time_key``, ``speaker_key`` and ``source_key`` give the
    item's time (ISO 8601, datetime or epoch seconds), speaker and source; every node's
    metadata is kept (a copy) and comes back on the nodes ``MemoryNodeRetriever`` returns.
    A parent without a time spans the times of what it covers.
    """
    given = [node.node if isinstance(node, NodeWithScore) else node for node in nodes]
    ids = {node.node_id for node in given}
    tree = []
    for position, node in enumerate(given):
        where = f"nodes[{position}]"
        parent = node.parent_node
        if parent is not None and parent.node_id not in ids:
            raise MemoryFormatError(
                f"{where} (id {node.node_id!r}): its parent {parent.node_id!r} is not among the "
                "nodes given; pass all the nodes the parser returned, not get_leaf_nodes(...)."
            )
        tree.append(
            TreeNode(
                id=node.node_id,
                text=node.get_content(metadata_mode=MetadataMode.NONE),
                where=where,
                children=tuple(child.node_id for child in node.child_nodes or ()),
                time=node.metadata.get(time_key),
                speaker=_text_metadata(node, speaker_key, where),
                source=_text_metadata(node, source_key, where),
                metadata=node.metadata,
                embedding=node.embedding,
            )
        )
    return memory_from_tree(tree)


class MemoryNodeRetriever(BaseRetriever):
    """A LlamaIndex retriever whose nodes are a memory context: overview summaries, extracts
    and verbatim quotes, in the order the context gives them.

    ``memory`` is a :class:`~rerank_plus.memory.Memory` (``options`` then go to
    ``MemoryRetriever``: embedder, reranker, final_reranker, profile, token_counter) or a
    ready ``MemoryRetriever``. Each node's text is the item's text, its score the context
    item's score, and its metadata the item's own plus ``level``, ``label``, ``index``,
    ``time``, ``end_time``, ``speaker``, ``source``, ``block``, ``score`` and ``memory_id``.
    ``max_tokens``, ``intent`` and ``now`` are passed to every retrieval. The LLM reads a
    node's level, time, speaker, source and block, less those that are empty (a message
    without a source, a summary without a speaker). :meth:`from_store` reads a namespace of
    a memory store.
    """

    def __init__(
        self,
        memory: Any,
        *,
        max_tokens: int = 2000,
        intent: str | None = None,
        now: datetime | None = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(callback_manager=callback_manager, verbose=verbose)
        self.memory_retriever = memory_retriever(memory, options)
        self.max_tokens = max_tokens
        self.intent = intent
        self.now = now

    def _settings(self) -> dict[str, Any]:
        return {"max_tokens": self.max_tokens, "intent": self.intent, "now": self.now}

    @classmethod
    def from_store(
        cls, store: Any, namespace: str, *, profile: Any = None, **settings: Any
    ) -> MemoryNodeRetriever:
        """A retriever over one namespace of a :class:`~rerank_plus.memory.MemoryStore`
        (``settings``: ``max_tokens``, ``intent``, ``now``, ``callback_manager``)."""
        return cls(NamespaceRetriever(store, namespace, profile), **settings)

    @staticmethod
    def _nodes(context: Any) -> list[NodeWithScore]:
        nodes = []
        for entry in context.items:
            metadata = context_metadata(entry)
            hidden = _hidden_from_llm(metadata)
            node = TextNode(
                id_=entry.item.id,
                text=entry.item.text,
                metadata=metadata,
                excluded_llm_metadata_keys=hidden,
                excluded_embed_metadata_keys=hidden,
            )
            nodes.append(NodeWithScore(node=node, score=float(entry.score)))
        return nodes

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        context = self.memory_retriever.retrieve(query_bundle.query_str, **self._settings())
        return self._nodes(context)

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        context = await self.memory_retriever.aretrieve(query_bundle.query_str, **self._settings())
        return self._nodes(context)
