"""The policy under test, as an evaluation method: one memory per meeting, one retrieval per
query and budget.

The memory is built from the transcript's turns only (``rerank_plus.memory.build_memory``,
with the run's embedder) and shared with the collapsed-tree baseline. The policy is the
run's reference method: its third argument is the token budget (``max_tokens``), and the
words of its context (headers included) are the words every other method gets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from rerank_plus.evaluation.memory.contexts import MethodContext, fill, join_pieces
from rerank_plus.evaluation.memory.qmsum import Meeting, Query, Turn
from rerank_plus.evaluation.memory.views import Embed, Resources
from rerank_plus.selection.budget import approximate_tokens


def memory_builder(embed: Embed | None, options: Mapping[str, Any] | None = None) -> Any:
    """A function from a meeting to its memory: ``build_memory`` over the turns, with
    ``embed`` as the embedder (None: lexical only) and ``options`` as its keywords."""
    from rerank_plus.memory import build_memory

    def build(meeting: Meeting) -> Any:
        return build_memory(meeting.messages(), embedder=embed, **dict(options or {}))

    return build


def shown(entry: Any) -> str:
    """What the context shows of a context item (its text less what an earlier item showed)."""
    return getattr(entry, "shown", "") or entry.text


def appearance_order(text: str, items: Any) -> list[Any]:
    """Context items in the order what they show appears in the composed context (items not
    found verbatim keep their order, after the others)."""
    positions = [text.find(shown(item)) for item in items]
    found = sorted((p, n) for n, p in enumerate(positions) if p >= 0)
    return [items[n] for _, n in found] + [
        i for i, p in zip(items, positions, strict=True) if p < 0
    ]


class Policy:
    """``MemoryRetriever(memory, embedder=...).retrieve(query, max_tokens=budget, now=...)``,
    ``now`` the meeting's :attr:`~.qmsum.Meeting.asked_at` (None: the clock)."""

    name = "policy"

    def __init__(self, resources: Resources, **retriever_options: Any) -> None:
        self.resources = resources
        self.options = retriever_options
        self._retrievers: dict[str, Any] = {}

    def retriever(self, meeting: Meeting) -> Any:
        from rerank_plus.memory import MemoryRetriever

        if meeting.name not in self._retrievers:
            memory = self.resources.memory(meeting)
            retriever = MemoryRetriever(memory, embedder=self.resources.embed, **self.options)
            self._retrievers = {meeting.name: retriever}
        return self._retrievers[meeting.name]

    def prepare(self, meeting: Meeting) -> None:
        """Build the meeting's memory and retriever (timed apart from the queries)."""
        self.retriever(meeting)

    def context(self, meeting: Meeting, query: Query, budget: int) -> MethodContext:
        retriever = self.retriever(meeting)
        result = retriever.retrieve(query.text, max_tokens=budget, now=meeting.asked_at)
        count = getattr(retriever, "token_counter", None) or approximate_tokens
        blocks: Counter[str] = Counter()
        levels: Counter[str] = Counter()
        for entry in result.items:
            tokens = count(shown(entry))
            blocks[entry.block] += tokens
            levels[f"L{entry.level}"] += tokens
        items = appearance_order(result.text, list(result.items))
        return MethodContext(
            result.text,
            tuple(shown(entry) for entry in items),
            intent=result.intent,
            tokens_by_block=dict(blocks),
            tokens_by_level=dict(levels),
        )


class CollapsedTree:
    """RAPTOR's "collapsed tree" (Sarthi et al., ICLR 2024): every item of every level of the
    policy's own memory searched flat by embedding similarity, no hierarchy walked."""

    name = "collapsed-tree"

    def __init__(self, resources: Resources) -> None:
        self.resources = resources
        self._index: tuple[str, list[str], np.ndarray] | None = None

    def prepare(self, meeting: Meeting) -> None:
        self.index(meeting)

    def index(self, meeting: Meeting) -> tuple[list[str], np.ndarray]:
        """The memory's items as pieces (raw turns as flat methods show them: speaker, and time
        where there is one) and their unit vectors
        (the memory's own embeddings where items carry them)."""
        if self._index is None or self._index[0] != meeting.name:
            items = list(self.resources.memory(meeting).items)
            texts = [
                Turn(item.index, item.speaker or "", item.text, item.time).line
                if item.level == 0
                else item.text
                for item in items
            ]
            vectors: list[Any] = [item.embedding for item in items]
            missing = [n for n, vector in enumerate(vectors) if vector is None]
            if missing:
                computed = self.resources.rows([items[n].text for n in missing])
                for n, row in zip(missing, computed, strict=True):
                    vectors[n] = row
            matrix = np.asarray(vectors, dtype=np.float32).reshape(len(items), -1)
            matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
            self._index = (meeting.name, texts, matrix)
        return self._index[1], self._index[2]

    def context(self, meeting: Meeting, query: Query, words: int) -> str:
        texts, vectors = self.index(meeting)
        if not texts:
            return ""
        scores = vectors @ self.resources.rows([query.text])[0]
        order = np.argsort(-scores, kind="stable")
        return join_pieces(fill((texts[i] for i in order), words))
