"""LangChain and the hierarchical memory: documents in, documents out; translation only.

``memory_from_parent_documents`` reads parent documents and their child chunks (what a
``ParentDocumentRetriever`` keeps: parents in its docstore, children in its vector store with
the parent's id under ``id_key``) as a memory: children are level 0, parents level 1 and cover
their children. ``memory_from_parent_document_retriever`` reads them from the retriever itself.
``MemoryDocumentRetriever`` is a LangChain retriever over ``rerank_plus.memory.MemoryRetriever``:
the context's items as documents, in the context's order, for any chain.

Example::

    memory = memory_from_parent_document_retriever(parent_document_retriever)
    retriever = MemoryDocumentRetriever(memory, max_tokens=1500)
    chain = {"context": retriever | format_docs, "question": RunnablePassthrough()} | prompt | llm
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict
from rerank_plus.memory import Memory, MemoryFormatError
from rerank_plus.memory.adapters_support import (
    NamespaceRetriever,
    context_metadata,
    headed_text,
    memory_retriever,
)
from rerank_plus.memory.model.tree import TreeNode, memory_from_tree


def _parent_pairs(parents: Any) -> list[tuple[str, Document]]:
    """(id, document) pairs from a docstore (``yield_keys`` + ``mget``), a mapping or pairs."""
    if callable(getattr(parents, "yield_keys", None)) and callable(getattr(parents, "mget", None)):
        keys = list(parents.yield_keys())
        pairs = list(zip(keys, parents.mget(keys), strict=True))
    elif isinstance(parents, Mapping):
        pairs = list(parents.items())
    else:
        pairs = list(parents)
    for key, document in pairs:
        if not isinstance(document, Document):
            raise MemoryFormatError(
                f"parents[{key!r}] is {type(document).__name__}, not a Document; pass the "
                "retriever's docstore, a mapping of id -> Document, or (id, Document) pairs."
            )
    return pairs


def _fields(document: Document, keys: tuple[str, str, str], where: str) -> dict[str, Any]:
    time_key, speaker_key, source_key = keys
    fields: dict[str, Any] = {"time": document.metadata.get(time_key)}
    for name, key in (("speaker", speaker_key), ("source", source_key)):
        value = document.metadata.get(key)
        if value is not None and not isinstance(value, str):
            raise MemoryFormatError(f"{where}.metadata[{key!r}] must be text, got {value!r}.")
        fields[name] = value
    return fields


def _node(
    document: Document,
    node_id: str,
    where: str,
    keys: tuple[str, str, str],
    children: tuple[str, ...] = (),
) -> TreeNode:
    return TreeNode(
        node_id,
        document.page_content,
        where,
        children,
        metadata=document.metadata,
        **_fields(document, keys, where),
    )


def _start(child: Document) -> int | None:
    start = child.metadata.get("start_index")
    return start if isinstance(start, int) and not isinstance(start, bool) else None


def memory_from_parent_documents(
    parents: Any,
    children: Iterable[Document],
    *,
    id_key: str = "doc_id",
    time_key: str = "time",
    speaker_key: str = "speaker",
    source_key: str = "source",
) -> Memory:
    """A memory from parent documents and the child chunks split from them.

    ``parents``: a docstore (``ParentDocumentRetriever.docstore``), a mapping of id ->
    ``Document`` or (id, ``Document``) pairs, in order. ``children``: the chunks, each with its
    parent's id in ``metadata[id_key]``; they are ordered by parent, then by ``start_index``
    when the splitter recorded it, then as given. A child's id is its ``Document.id``, or
    ``"<parent id>/<n>"`` without one. A parent without children is a raw item itself (level
    0, in its place among the children). ``time_key``, ``speaker_key`` and ``source_key`` name
    the metadata that give an item's time, speaker and source; all metadata is kept (a copy)
    and comes back on the documents ``MemoryDocumentRetriever`` returns.
    """
    keys = (time_key, speaker_key, source_key)
    pairs = _parent_pairs(parents)
    groups: dict[str, list[tuple[int, Document]]] = {key: [] for key, _ in pairs}
    for position, child in enumerate(children):
        if not isinstance(child, Document):
            raise MemoryFormatError(
                f"children[{position}] is {type(child).__name__}, not a Document."
            )
        parent = child.metadata.get(id_key)
        if parent not in groups:
            known = "no parent" if parent is None else "no parent's id"
            raise MemoryFormatError(
                f"children[{position}]: metadata[{id_key!r}] = {parent!r} is {known} among the "
                f"{len(groups)} parents given; pass the docstore the children were split from "
                "(and the retriever's id_key)."
            )
        groups[parent].append((position, child))
    leaves: list[TreeNode] = []  # children in parent order; a childless parent in its place
    summaries: list[TreeNode] = []
    for key, document in pairs:
        where = f"parents[{key!r}]"
        ordered = sorted(groups[key], key=lambda pc: (_start(pc[1]) is None, _start(pc[1]) or 0))
        covers = []
        for n, (position, child) in enumerate(ordered):
            child_where = f"children[{position}]"
            covers.append(child.id or f"{key}/{n}")
            leaves.append(_node(child, covers[-1], child_where, keys))
        row = summaries if covers else leaves
        row.append(_node(document, key, where, keys, tuple(covers)))
    return memory_from_tree(leaves + summaries)


def memory_from_parent_document_retriever(
    retriever: Any, children: Iterable[Document] | None = None, **keys: str
) -> Memory:
    """The memory of a ``ParentDocumentRetriever``: the parents in its docstore, and the
    children given, or else split again from the parents by the retriever's own
    ``child_splitter`` (with its ``child_metadata_fields``), as ``add_documents`` indexed them
    (a vector store has no common way to list what it holds). ``keys``: ``time_key``,
    ``speaker_key``, ``source_key`` as in :func:`memory_from_parent_documents`."""
    pairs = _parent_pairs(retriever.docstore)
    if children is None:
        children = [
            Document(
                page_content=chunk.page_content, metadata=_child_metadata(retriever, chunk, key)
            )
            for key, parent in pairs
            for chunk in retriever.child_splitter.split_documents([parent])
        ]
    return memory_from_parent_documents(pairs, children, id_key=retriever.id_key, **keys)


def _child_metadata(retriever: Any, chunk: Document, parent_id: str) -> dict[str, Any]:
    fields = retriever.child_metadata_fields
    metadata = dict(chunk.metadata) if fields is None else {k: chunk.metadata[k] for k in fields}
    metadata[retriever.id_key] = parent_id
    return metadata


class MemoryDocumentRetriever(BaseRetriever):
    """A LangChain retriever whose documents are a memory context: overview summaries,
    extracts and verbatim quotes, in the order the context gives them.

    ``memory`` is a :class:`~rerank_plus.memory.Memory` (``options`` then go to
    ``MemoryRetriever``: embedder, reranker, final_reranker, profile, token_counter) or a
    ready ``MemoryRetriever``; :meth:`from_store` reads a namespace of a memory store. Each
    document's ``page_content`` is the item's text under its header, ``[L0 #3 2024-05-06
    09:06] Ben: ...`` (level, index, date and time, the speaker of a message), so a chain that
    joins ``page_content`` can tell who said what and when; ``header_in_content=False`` gives
    the bare text. Its ``id`` is the item's id, its metadata the item's own plus ``level``,
    ``label``, ``index``, ``time``, ``end_time``, ``speaker``, ``source``, ``block``,
    ``score`` and ``memory_id``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory_retriever: Any
    max_tokens: int = 2000
    intent: str | None = None
    now: datetime | None = None
    header_in_content: bool = True

    def __init__(
        self,
        memory: Any,
        *,
        max_tokens: int = 2000,
        intent: str | None = None,
        now: datetime | None = None,
        header_in_content: bool = True,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        fields: dict[str, Any] = {
            "memory_retriever": memory_retriever(memory, options),
            "max_tokens": max_tokens,
            "intent": intent,
            "now": now,
            "header_in_content": header_in_content,
            "tags": tags,
            "metadata": metadata,
        }
        super().__init__(**fields)

    def _settings(self) -> dict[str, Any]:
        return {"max_tokens": self.max_tokens, "intent": self.intent, "now": self.now}

    @classmethod
    def from_store(
        cls, store: Any, namespace: str, *, profile: Any = None, **settings: Any
    ) -> MemoryDocumentRetriever:
        """A retriever over one namespace of a :class:`~rerank_plus.memory.MemoryStore`
        (``settings``: ``max_tokens``, ``intent``, ``now``, ``header_in_content``, ...)."""
        return cls(NamespaceRetriever(store, namespace, profile), **settings)

    def _documents(self, context: Any) -> list[Document]:
        return [
            Document(
                page_content=headed_text(entry) if self.header_in_content else entry.item.text,
                metadata=context_metadata(entry),
                id=entry.item.id,
            )
            for entry in context.items
        ]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return self._documents(self.memory_retriever.retrieve(query, **self._settings()))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        return self._documents(await self.memory_retriever.aretrieve(query, **self._settings()))
