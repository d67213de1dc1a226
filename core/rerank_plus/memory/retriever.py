"""The memory retriever: query analysis, level-aware search, drill-down, two-stage rerank and
an annotated context within a token budget.

>>> from rerank_plus.memory import Memory, MemoryItem, MemoryRetriever
>>> memory = Memory([
...     MemoryItem("m0", 0, 0, "Ana: the launch moves to March because of the audit."),
...     MemoryItem("m1", 0, 1, "Ben: budget approved at 40k euros."),
...     MemoryItem("s0", 1, 0, "The launch moves to March; budget approved.", covers=("m0", "m1")),
... ])
>>> context = MemoryRetriever(memory).retrieve("when is the launch?", max_tokens=200)
>>> [item.id for item in context.items if item.block == "quotes"]  # the answer, then its window's
['m0', 'm1']
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.context.compose import Composer, context_items
from rerank_plus.memory.context.coverage import Coverage, Timeline
from rerank_plus.memory.context.guidance import (
    EMPTY_QUESTION,
    WITHOUT_SUBJECT,
    empty_context,
    guidance_for,
    note_what_is_missing,
)
from rerank_plus.memory.context.result import MemoryContext
from rerank_plus.memory.context.time_notes import time_notes
from rerank_plus.memory.index.dense_trust import leaning_lexical, reads_blind
from rerank_plus.memory.index.memory_index import MemoryIndex
from rerank_plus.memory.ingest.embedding import as_embedder
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.times import parse_time
from rerank_plus.memory.policy import BLOCKS, IntentPolicy, MemoryProfile, memory_profile
from rerank_plus.memory.query import QueryAnalysis, analyze_query
from rerank_plus.memory.retrieve.arguments import check_question, check_reranker
from rerank_plus.memory.retrieve.candidates import find_candidates
from rerank_plus.memory.retrieve.filters import allowed_items
from rerank_plus.memory.retrieve.final import FinalStage
from rerank_plus.memory.retrieve.plan import QueryPlan
from rerank_plus.memory.retrieve.search import Hit, LevelSearch
from rerank_plus.memory.retrieve.shapes import shape_notes
from rerank_plus.memory.trace import Trace
from rerank_plus.reranker import Reranker
from rerank_plus.scoring.bm25 import BM25Reranker
from rerank_plus.selection.budget import approximate_tokens

logger = logging.getLogger("rerank_plus.memory")


def _coverage(
    index: MemoryIndex,
    blocks: Iterable[str],
    *,
    by_relevance: bool,
    spread: Mapping[str, float] | None = None,
) -> Coverage:
    """What a coverage fill of ``blocks`` reads of the memory (see :class:`Coverage`), its
    picks spread over the conversation as the policy's ``spread`` asks (a weight in units of
    the most used term's)."""
    timeline = (
        Timeline(index.places, spread["gap"], spread["weight"] * index.peak_salience)
        if spread and spread["weight"] > 0
        else None
    )
    return Coverage(
        frozenset(blocks),
        index.salience,
        index.sentence_terms,
        by_relevance=by_relevance,
        sections=index.sections,
        reward=index.peak_salience,
        timeline=timeline,
    )


class MemoryRetriever:
    """Answers a question from a :class:`Memory` with a context of at most ``max_tokens``.

    Args:
        memory: the hierarchy to read. It may grow (a :class:`MemoryWriter` adds to it): the next
            question rebuilds the index, reading anew only the items an add changed.
        embedder: a sentence-transformers model or name, a LlamaIndex or LangChain embedding, or
            a callable; None means lexical retrieval only (items' stored embeddings are used
            only with an embedder for the query).
        reranker: the light stage over the merged levels; default BM25 fitted on the memory,
            fused with the dense cosine when there is an embedder.
        final_reranker: the strong stage (e.g. ``CrossEncoderReranker``) on the few best
            candidates of each block after expansion, and for a question drilled from regions
            (detail) on the best messages first, so that it picks the region the drill-down
            reads; None skips it.
        profile: a memory profile: None (ready-made), a dict, or a JSON/YAML file
            (:func:`~rerank_plus.memory.policy.memory_profile`).
        token_counter: counts tokens of the context (default
            :func:`~rerank_plus.selection.budget.approximate_tokens`).
        final_candidates: how many candidates per block the final reranker sees.
    """

    def __init__(
        self,
        memory: Memory,
        embedder: Any = None,
        reranker: Reranker | None = None,
        final_reranker: Reranker | None = None,
        profile: MemoryProfile | Mapping[str, Any] | str | Path | None = None,
        *,
        token_counter: Callable[[str], int] | None = None,
        analyzer: Analyzer | None = None,
        final_candidates: int = 12,
    ) -> None:
        if not isinstance(memory, Memory):
            raise TypeError(
                f"memory must be a rerank_plus.memory.Memory, got {type(memory).__name__}; "
                "build one with build_memory(messages) or load_memory(path)."
            )
        if token_counter is not None and not callable(token_counter):
            raise TypeError(f"token_counter must be a callable str -> int, got {token_counter!r}.")
        if isinstance(final_candidates, bool) or not isinstance(final_candidates, int):
            raise TypeError(f"final_candidates must be an int >= 1, got {final_candidates!r}.")
        if final_candidates < 1:
            raise ValueError(f"final_candidates must be an int >= 1, got {final_candidates!r}.")
        self.memory = memory
        self.embedder = as_embedder(embedder)
        self.reranker = check_reranker("reranker", reranker)
        self.final_reranker = check_reranker("final_reranker", final_reranker)
        self.profile = profile if isinstance(profile, MemoryProfile) else memory_profile(profile)
        self.token_counter = token_counter or approximate_tokens
        # the default analyzer keeps every item's analysis (the index analyzes each item, the
        # light stage reads the candidates again): a smaller cache re-analyzes a large memory's
        # candidates query after query
        self.analyzer = (
            analyzer
            or getattr(reranker, "analyzer", None)
            or Analyzer(cache_size=max(50_000, 2 * len(memory.items)))
        )
        self.final_candidates = final_candidates
        self.final = (
            FinalStage(self.final_reranker, final_candidates)
            if self.final_reranker is not None
            else None
        )
        self._index: MemoryIndex | None = None
        self._lock = threading.Lock()

    def index(self) -> MemoryIndex:
        """The memory's search index, rebuilt when the memory changed since the last query."""
        with self._lock:
            if self._index is None or self._index.version != self.memory.version:
                self._index = MemoryIndex(
                    self.memory, self.embedder, self.analyzer, previous=self._index
                )
                blocks = {
                    block
                    for policy in self.profile.policies.values()
                    for block in policy.coverage_blocks
                }
                self._composer(self._index).prepare(
                    self.memory.items,
                    _coverage(self._index, blocks, by_relevance=False) if blocks else None,
                )
            return self._index

    def _composer(self, index: MemoryIndex, trace: Trace | None = None) -> Composer:
        cache = index.text_cache(self.token_counter)
        notes = time_notes(index, cache, self.profile.annotate_times, trace)
        return Composer(
            self.token_counter, index.span_starts, index.dated_headers, cache,
            session_starts=index.session_starts, notes=notes,
        )  # fmt: skip

    async def aretrieve(
        self,
        query: str,
        max_tokens: int = 2000,
        intent: str | None = None,
        now: datetime | str | float | None = None,
        *,
        shape: str | None = None,
    ) -> MemoryContext:
        """:meth:`retrieve` in a worker thread (embedding and reranking block), for event loops."""
        return await asyncio.to_thread(self.retrieve, query, max_tokens, intent, now, shape=shape)

    def retrieve(
        self,
        query: str,
        max_tokens: int = 2000,
        intent: str | None = None,
        now: datetime | str | float | None = None,
        *,
        shape: str | None = None,
    ) -> MemoryContext:
        """The context for ``query`` within ``max_tokens`` (headers included).

        ``intent`` forces one of ``synthesis``, ``detail``, ``recent``, ``entity`` (else it is
        read from the query); ``now`` resolves "since yesterday" (default: the current time; a
        naive time is taken as UTC). ``shape`` forces a detail question's shape, ``time``,
        ``list``, ``current`` or ``plain`` (else it is read from the query).

        An empty or blank ``query`` gives an empty context whose guidance says so (a
        retriever's answer to a question about nothing, as for an empty memory, where an
        invalid argument raises), unless ``intent`` is ``synthesis`` or ``recent``, which
        need no subject.
        """
        max_tokens = check_question(query, max_tokens, intent, shape)
        moment = parse_time(now, "now") or datetime.now(UTC)
        trace = Trace(query)
        if not self.memory.items:
            return empty_context(trace, intent or "detail", "The memory is empty.")
        if not query.strip() and intent not in WITHOUT_SUBJECT:
            return empty_context(trace, intent or "detail", EMPTY_QUESTION)
        index = self.index()
        trace.timed("index")
        # step 1: read the question, and decide everything the later steps need
        analysis = analyze_query(
            query,
            moment,
            known_entities=index.known_entities,
            analyzer=self.analyzer,
            vocabulary=index.vocabulary,
        )
        plan = self._plan(
            query,
            analysis,
            intent=intent or analysis.intent,
            shape=shape or analysis.shape,
            max_tokens=max_tokens,
            index=index,
            moment=moment,
            trace=trace,
        )
        # step 2: each block's candidates, level by level and by drilling down
        candidates, drilled = find_candidates(plan, self.final)
        trace.timed("search")
        windowed = analysis.window is not None and analysis.window.explicit and index.timed
        if windowed and not candidates["quotes"] and not candidates["extracts"]:
            plan.notes.append("No message falls in the question's time window.")
        # step 3: the final reranker on the best candidates of each block
        if self.final is not None:
            candidates = self.final.rerank(query, candidates, trace)
            trace.timed("final_rerank")
        # step 4: the context within the budget, annotated
        return self._compose(plan, candidates, drilled)

    def _plan(
        self,
        query: str,
        analysis: QueryAnalysis,
        *,
        intent: str,
        shape: str,
        max_tokens: int,
        index: MemoryIndex,
        moment: datetime,
        trace: Trace,
    ) -> QueryPlan:
        """The query plan (see :class:`QueryPlan`): policy, tier, vector, filters, fusion."""
        policy = self.profile.policy(intent, shape, across_days=len(index.message_days) >= 2)
        tier = self.profile.tier(max_tokens)
        _trace_analysis(trace, analysis, intent, tier, moment)
        vector = (
            self.embedder.embed_query(query)
            if self.embedder is not None and query.strip()
            else None
        )
        trace.timed("query")
        notes: list[str] = []
        if index.memory.depth == 1:
            notes.append("The memory has no summaries: the context quotes raw messages only.")
        notes += shape_notes(policy, trace, index.dated_headers)
        allowed = allowed_items(analysis, intent, index, notes, trace, now=moment)
        fusion = self._fusion(policy, index, vector, notes, trace)
        search = LevelSearch(
            index, self.reranker, policy, fusion, moment, analysis.entities, vector=vector
        )
        # a lexical light stage reads the question's keywords: its task words ("summarize the
        # discussion about", "what did ... think") would match every window alike
        lexical = self.reranker is None or isinstance(self.reranker, BM25Reranker)
        text = " ".join(analysis.keywords) or query if lexical else query
        return QueryPlan(
            query, text, analysis, intent, policy, tier, max_tokens, moment, vector, index,
            search, allowed, trace, notes,
        )  # fmt: skip

    def _fusion(
        self, policy: IntentPolicy, index: MemoryIndex, vector: Any, notes: list[str], trace: Trace
    ) -> Any:
        """The light stage's fusion, leaning lexical when the embedding model barely tells
        the memory's messages apart (see :mod:`rerank_plus.memory.index.dense_trust`)."""
        fusion = self.profile.fusion if policy.fusion is None else policy.fusion
        likeness = index.message_likeness
        messages = len(index.memory.messages)
        if vector is not None and likeness is not None and reads_blind(likeness, messages):
            fusion = leaning_lexical(fusion)
            notes.append(
                f"The embedding model barely tells this memory's messages apart (mean cosine "
                f"{likeness:.2f} between two of them): the lexical score leads the ranking. A "
                "model that reads the memory's language would help."
            )
            trace.step("dense", likeness=likeness, fusion=fusion)
        return fusion

    def _compose(
        self, plan: QueryPlan, candidates: dict[str, list[Hit]], drilled: frozenset[str]
    ) -> MemoryContext:
        """Step 4: the blocks within the budget, the items, the guidance."""
        policy, trace = plan.policy, plan.trace
        coverage = (
            _coverage(
                plan.index,
                policy.coverage_blocks,
                by_relevance=bool(plan.analysis.keywords),
                spread=policy.spread,
            )
            if policy.coverage_blocks
            else None
        )
        composition = self._composer(plan.index, trace).compose(
            candidates,
            policy.quotas,
            policy.fill_order,
            plan.max_tokens,
            policy.min_relevance,
            trace,
            show_order=policy.show_order,
            quote_order=policy.quote_order,
            drilled=drilled,
            coverage=coverage,
        )
        trace.timed("compose")
        trace.spend = composition.spend
        items = context_items(composition.placed, to_match=bool(plan.analysis.keywords))
        note_what_is_missing(plan.notes, items, candidates)
        logger.info(
            "memory retrieve intent=%s items=%d tokens=%d/%d",
            plan.intent,
            len(items),
            composition.tokens,
            plan.max_tokens,
        )
        return MemoryContext(
            text=composition.text,
            items=items,
            intent=plan.intent,
            tokens=composition.tokens,
            trace=trace,
            guidance=guidance_for(items, plan.notes),
            blocks={
                block: tuple(item for item in items if item.block == block) for block in BLOCKS
            },
        )


def _trace_analysis(
    trace: Trace, analysis: QueryAnalysis, intent: str, tier: str, moment: datetime | None
) -> None:
    window = analysis.window
    trace.step(
        "query",
        intent=intent,
        detected_intent=analysis.intent,
        reason=analysis.reason,
        shape=analysis.shape,
        language=analysis.language,
        keywords=list(analysis.keywords),
        entities=list(analysis.entities),
        window=None
        if window is None
        else {"start": window.start, "end": window.end, "expression": window.expression},
        tier=tier,
        now=moment,
    )
