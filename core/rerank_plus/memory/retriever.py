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
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.context.compose import TOKENS_PER_READ, Composer, context_items
from rerank_plus.memory.context.coverage import Coverage, Timeline
from rerank_plus.memory.context.result import ContextItem, Guidance, MemoryContext
from rerank_plus.memory.index.dense_trust import BLIND_LIKENESS, leaning_lexical
from rerank_plus.memory.index.memory_index import MemoryIndex
from rerank_plus.memory.ingest.embedding import as_embedder
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.times import parse_time
from rerank_plus.memory.policy import INTENTS, IntentPolicy, MemoryProfile, memory_profile
from rerank_plus.memory.query import QueryAnalysis, analyze_query
from rerank_plus.memory.retrieve.drilldown import drill_down
from rerank_plus.memory.retrieve.locate import rank_regions
from rerank_plus.memory.retrieve.search import Allowed, Hit, LevelSearch
from rerank_plus.memory.trace import Trace
from rerank_plus.reranker import Reranker
from rerank_plus.scoring.bm25 import BM25Reranker
from rerank_plus.selection.budget import approximate_tokens

logger = logging.getLogger("rerank_plus.memory")

#: Candidates per level before the light stage: the dense top and the lexical top, each this many.
POOL = 64


def _check_reranker(name: str, value: Any) -> Reranker | None:
    if value is not None and not isinstance(value, Reranker):
        raise TypeError(
            f"{name} must be a rerank_plus Reranker (BM25Reranker(), CrossEncoderReranker(...)) "
            f"or None, got {type(value).__name__}."
        )
    return value


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


def _check_budget(max_tokens: Any) -> int:
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise ValueError(f"max_tokens must be a positive int, got {max_tokens!r}.")
    return max_tokens


def _on_scale(judged: Sequence[Hit], hits: Sequence[Hit], size: int) -> list[Hit]:
    """``hits`` with its first ``size`` in ``judged``'s order (the final reranker's), given
    those hits' own scores, best first; the rest after them as they were, and so is what the
    final reranker did not return (a cascade's cut). The final stage orders, and every score a
    block reads stays on the light stage's scale: a cross-encoder's probabilities beside the
    light stage's fused scores would move the blocks' cutoffs and the order of the quotes'
    stretches."""
    head = hits[:size]
    scores = sorted((hit.score for hit in head), reverse=True)
    # the returned get the best scores (a cut leaves fewer judged than scores)
    reordered = [Hit(h.item, score, h.dense) for h, score in zip(judged, scores, strict=False)]
    returned = {hit.item.id for hit in judged}
    return [*reordered, *(hit for hit in head if hit.item.id not in returned), *hits[size:]]


class MemoryRetriever:
    """Answers a question from a :class:`Memory` with a context of at most ``max_tokens``.

    Args:
        memory: the hierarchy to read. It may grow with ``memory.add``: the next question
            rebuilds the index, reading anew only the items the add changed.
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
        self.reranker = _check_reranker("reranker", reranker)
        self.final_reranker = _check_reranker("final_reranker", final_reranker)
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

    def _composer(self, index: MemoryIndex) -> Composer:
        return Composer(
            self.token_counter,
            index.span_starts,
            index.spans_days,
            index.text_cache(self.token_counter),
        )

    async def aretrieve(
        self,
        query: str,
        max_tokens: int = 2000,
        intent: str | None = None,
        now: datetime | str | float | None = None,
    ) -> MemoryContext:
        """:meth:`retrieve` in a worker thread (embedding and reranking block), for event loops."""
        return await asyncio.to_thread(self.retrieve, query, max_tokens, intent, now)

    def retrieve(
        self,
        query: str,
        max_tokens: int = 2000,
        intent: str | None = None,
        now: datetime | str | float | None = None,
    ) -> MemoryContext:
        """The context for ``query`` within ``max_tokens`` (headers included).

        ``intent`` forces one of ``synthesis``, ``detail``, ``recent``, ``entity`` (else it is
        read from the query); ``now`` resolves "since yesterday" (default: the current time; a
        naive time is taken as UTC).
        """
        if not isinstance(query, str):
            raise TypeError(f"query must be a str, got {type(query).__name__}.")
        max_tokens = _check_budget(max_tokens)
        if intent is not None and intent not in INTENTS:
            raise ValueError(f"Unknown intent {intent!r}; choose one of {', '.join(INTENTS)}.")
        moment = parse_time(now, "now") if now is not None else datetime.now(UTC)
        trace = Trace(query)
        if not self.memory.items:
            return self._empty(trace, intent or "detail", "The memory is empty.")
        index = self.index()
        trace.timed("index")
        analysis = analyze_query(
            query, moment, known_entities=index.known_entities, analyzer=self.analyzer
        )
        chosen = intent or analysis.intent
        policy = self.profile.policies[chosen]
        tier = self.profile.tier(max_tokens)
        trace.step(
            "query",
            intent=chosen,
            detected_intent=analysis.intent,
            reason=analysis.reason,
            language=analysis.language,
            keywords=list(analysis.keywords),
            entities=list(analysis.entities),
            window=None
            if analysis.window is None
            else {
                "start": analysis.window.start,
                "end": analysis.window.end,
                "expression": analysis.window.expression,
            },
            tier=tier,
            now=moment,
        )
        query_vector = (
            self.embedder.embed_query(query)
            if self.embedder is not None and query.strip()
            else None
        )
        trace.timed("query")
        notes: list[str] = []
        if self.memory.depth == 1:
            notes.append("The memory has no summaries: the context quotes raw messages only.")
        allowed = self._filters(analysis, chosen, index.timed, notes, trace)
        fusion = self.profile.fusion if policy.fusion is None else policy.fusion
        likeness = index.message_likeness
        if query_vector is not None and likeness is not None and likeness > BLIND_LIKENESS:
            fusion = leaning_lexical(fusion)
            notes.append(
                f"The embedding model barely tells this memory's messages apart (mean cosine "
                f"{likeness:.2f} between two of them): the lexical score leads the ranking. A "
                "model that reads the memory's language would help."
            )
            trace.step("dense", likeness=likeness, fusion=fusion)
        search = LevelSearch(index, self.reranker, policy, fusion, moment, analysis.entities)
        candidates, drilled = self._candidates(
            query, analysis, chosen, policy, tier, max_tokens, search, query_vector, allowed, trace
        )
        trace.timed("search")
        windowed = analysis.window is not None and analysis.window.explicit and index.timed
        if windowed and not candidates["quotes"] and not candidates["extracts"]:
            notes.append("No message falls in the question's time window.")
        if self.final_reranker is not None:
            candidates = self._final_rerank(query, candidates, trace)
            trace.timed("final_rerank")
        composition = self._composer(index).compose(
            candidates,
            policy.quotas,
            policy.fill_order,
            max_tokens,
            policy.min_relevance,
            trace,
            policy.show_order,
            drilled=drilled,
            coverage=_coverage(
                index,
                policy.coverage_blocks,
                by_relevance=bool(analysis.keywords),
                spread=policy.spread,
            )
            if policy.coverage_blocks
            else None,
        )
        trace.timed("compose")
        trace.spend = composition.spend
        items = context_items(composition.placed)
        failed = [item.id for item in items if "summary_error" in item.item.extras]
        if failed:
            notes.append(
                f"Summaries {', '.join(failed[:5])} are extractive stand-ins: their summarizer "
                "failed when the memory was built."
            )
        if not items:
            notes.append(
                "Nothing fits: the budget is smaller than one item with its header."
                if any(candidates.values())
                else "No item matched the query's constraints."
            )
        context = MemoryContext(
            text=composition.text,
            items=items,
            intent=chosen,
            tokens=composition.tokens,
            trace=trace,
            guidance=self._guidance(items, notes),
            blocks={
                block: tuple(item for item in items if item.block == block)
                for block in ("overview", "extracts", "quotes")
            },
        )
        logger.info(
            "memory retrieve intent=%s items=%d tokens=%d/%d",
            chosen,
            len(items),
            composition.tokens,
            max_tokens,
        )
        return context

    # -- step 1 and 2 ------------------------------------------------------------------------

    def _candidates(
        self,
        query: str,
        analysis: QueryAnalysis,
        intent: str,
        policy: IntentPolicy,
        tier: str,
        max_tokens: int,
        search: LevelSearch,
        query_vector: Any,
        allowed: Callable[[int], Allowed | None],
        trace: Trace,
    ) -> tuple[dict[str, list[Hit]], frozenset[str]]:
        """Each block's candidates, and the ids of the items the drill-down kept."""
        depth = self.memory.depth
        # what the largest block could read of a level (see compose.TOKENS_PER_READ)
        readable = max(1, int(max_tokens * max(policy.quotas.values()) // TOKENS_PER_READ))
        terms = list(analysis.keywords)
        question = query
        if self.reranker is None or isinstance(self.reranker, BM25Reranker):
            # A lexical light stage reads the question's keywords: its task words ("summarize
            # the discussion about", "what did ... think") would match every window alike.
            query = " ".join(terms) or query
        by_level: dict[int, list[Hit]] = {}
        for level in range(depth):
            if intent == "synthesis" and level == 0 and depth > 1:
                continue  # synthesis quotes come from the drill-down only
            items, dense = search.pool(
                level, terms, query_vector, limit=POOL, allowed=allowed(level)
            )
            by_level[level] = search.rank(query, items, dense)
            trace.step(
                "search",
                level=level,
                pool=len(items),
                top=[(hit.item.id, hit.score) for hit in by_level[level][:5]],
            )
        start = 0 if depth <= 1 else max(depth - 1, 1) if policy.drill_from == "top" else 1
        grouped = policy.drill_order == "grouped"
        ranked = by_level.get(start, [])
        if start == 1 and policy.drill_from == "regions":
            messages = by_level.get(0, [])
            if self.final_reranker is not None and policy.final_regions and messages:
                # the strong stage decides where a precise answer sits: the message quoted
                # first and the region the drill-down starts from (by its own scores: how
                # sure it is of its best message counts there)
                judged = self._final_scores(question, messages, "regions", trace)
                by_level[0] = _on_scale(judged, messages, self.final_candidates)
                messages = judged
            ranked = rank_regions(ranked, messages, self.index().window_of, policy.neighbour_weight)
            trace.step("regions", top=[(hit.item.id, hit.score) for hit in ranked[:5]])
        picks = ranked[: policy.drill_picks[tier]]
        if start == 1 and policy.grow:
            picks = self._grown(ranked, policy.grow)[: policy.drill_picks[tier]]
        if start == 1 and policy.lead_quotes and by_level.get(0):
            picks = self._with_lead_window(picks, ranked, by_level[0][0].item.id, trace)
        drilled = drill_down(
            self.memory,
            search,
            query,
            terms,
            query_vector,
            picks,
            policy.drill_m[tier],
            allowed,
            trace,
            grouped=grouped,
            most=readable,
        )
        if policy.safe_drill and terms and depth > 1:
            drilled = self._safe_drill(
                query,
                terms,
                query_vector,
                ranked,
                picks,
                drilled,
                policy,
                tier,
                readable,
                search,
                allowed,
                trace,
            )
        overview = [hit for level in range(depth - 1, 1, -1) for hit in by_level.get(level, [])]
        if start == 1:  # the summaries right above the picked windows are their context
            above = {parent.id for pick in picks for parent in self.memory.parents(pick.item.id)}
            overview.sort(key=lambda hit: hit.item.id not in above)
        overview = overview[: policy.overview_items[tier]]
        extracts = self._merge(drilled.get(1, []), by_level.get(1, []) if depth > 1 else [])
        anywhere = by_level.get(0, [])
        quotes = self._merge([*anywhere[: policy.lead_quotes], *drilled.get(0, [])], anywhere)
        quotes = self._without_fillers(quotes, analysis.entities, trace)
        if intent == "entity" and analysis.entities:
            quotes = [hit for hit in quotes if self._names(hit.item, analysis.entities)]
            extracts = self._entity_first(extracts, analysis.entities)
            overview = self._entity_first(overview, analysis.entities)
        if depth <= 2:
            overview = []
        kept = frozenset(hit.item.id for hits in drilled.values() for hit in hits)
        return {"overview": overview, "extracts": extracts, "quotes": quotes}, kept

    def _safe_drill(
        self,
        query: str,
        terms: list[str],
        query_vector: Any,
        ranked: list[Hit],
        picks: list[Hit],
        drilled: dict[int, list[Hit]],
        policy: IntentPolicy,
        tier: str,
        readable: int,
        search: LevelSearch,
        allowed: Callable[[int], Allowed | None],
        trace: Trace,
    ) -> dict[int, list[Hit]]:
        """A detail query whose drilled quotes hold none of its keywords drills again, from the
        next best summaries."""
        wanted = set(terms)
        quotes = drilled.get(0, [])
        kept = self.index().item_terms  # each message's terms, as the light stage read them
        if any(not wanted.isdisjoint(kept[hit.item.id][1]) for hit in quotes):
            return drilled
        more = ranked[len(picks) : len(picks) + max(1, policy.drill_picks[tier])]
        if not more:
            return drilled
        again = drill_down(
            self.memory,
            search,
            query,
            terms,
            query_vector,
            more,
            policy.drill_m[tier],
            allowed,
            trace,
            grouped=policy.drill_order == "grouped",
            most=readable,
        )
        trace.step(
            "safe_drill",
            reason="no keyword in the drilled quotes",
            parents=[hit.item.id for hit in more],
        )
        return {
            level: self._merge(drilled.get(level, []), again.get(level, []))
            for level in set(drilled) | set(again)
        }

    def _without_fillers(
        self, quotes: list[Hit], entities: Sequence[str], trace: Trace
    ) -> list[Hit]:
        """Raw messages with fewer than two content terms ("Yeah.", "Okay, right.") say nothing
        a quote needs, unless they name an entity of the question."""
        counts = self.index().content_terms
        kept = []
        for hit in quotes:
            if counts.get(hit.item.id, 0) >= 2 or (entities and self._names(hit.item, entities)):
                kept.append(hit)
            else:
                trace.reject(hit.item.id, "filler: fewer than two content terms")
        return kept or quotes

    @staticmethod
    def _grown(ranked: list[Hit], grow: int) -> list[Hit]:
        """The best windows, each of the first ``grow`` followed by its neighbours (the next,
        then the previous window): an answer often runs on past a window's edge."""
        row = {hit.item.index: hit for hit in ranked}
        order: list[Hit] = []
        for position, hit in enumerate(ranked):
            order.append(hit)
            if position < grow:
                order += [row[i] for i in (hit.item.index + 1, hit.item.index - 1) if i in row]
        return MemoryRetriever._merge(order, [])

    def _with_lead_window(
        self, picks: list[Hit], ranked: list[Hit], lead: str, trace: Trace
    ) -> list[Hit]:
        """``picks`` with the window of the best message found anywhere (``lead``) in the
        second place when it ranks above the window there: the best region's grown neighbour
        carries a long discussion on, but an answer that one message holds sharply sits in
        that message's window, and a small budget drills two windows only."""
        window = self.index().window_of.get(lead)
        if len(picks) < 2 or window is None or any(hit.item.id == window.id for hit in picks):
            return picks
        found = next((hit for hit in ranked if hit.item.id == window.id), None)
        if found is None or found.score <= picks[1].score:
            return picks
        trace.step("lead_window", message=lead, window=window.id, instead_of=picks[1].item.id)
        return [picks[0], found, *picks[2:]]

    @staticmethod
    def _merge(first: Sequence[Hit], then: Sequence[Hit]) -> list[Hit]:
        """``first`` in its order, then what ``then`` adds (each item once)."""
        hits = [*first, *then]
        ids = [hit.item.id for hit in hits]
        if len(set(ids)) == len(ids):  # no item twice (a drill-down's quotes alone, say)
            return hits
        seen: set[str] = set()
        out = []
        for hit, key in zip(hits, ids, strict=True):
            if key not in seen:
                seen.add(key)
                out.append(hit)
        return out

    @staticmethod
    def _names(item: MemoryItem, entities: Sequence[str]) -> bool:
        haystack = " ".join(
            (item.text, item.speaker or "", " ".join(item.tags), " ".join(item.entity_names))
        ).casefold()
        return any(entity.casefold() in haystack for entity in entities)

    def _entity_first(self, hits: list[Hit], entities: Sequence[str]) -> list[Hit]:
        return sorted(hits, key=lambda hit: not self._names(hit.item, entities))

    # -- filters -----------------------------------------------------------------------------

    def _filters(
        self,
        analysis: QueryAnalysis,
        intent: str,
        timed: bool,
        notes: list[str],
        trace: Trace,
    ) -> Callable[[int], Allowed | None]:
        """Per level, which items the query's explicit time window (or recency) allows."""
        window = analysis.window
        if window is not None and window.explicit:
            if not timed:
                notes.append("The memory has no times: the time window was not applied.")
                trace.step("time_window", applied=False, reason="no times in the memory")
                return lambda level: None
            start, end = window.start, window.end

            def inside(item: MemoryItem) -> bool:
                first = item.time
                last = item.end_time or item.time
                if first is None or last is None:
                    return False
                # the window's end is excluded, as the query analysis defines it
                return (start is None or last >= start) and (end is None or first < end)

            trace.step("time_window", applied=True, start=start, end=end, levels=[0, 1])
            return lambda level: inside if level <= 1 else None
        if intent == "recent" and not timed:
            notes.append("The memory has no times: recency is read from the order of messages.")
            cut = self._latest_positions()
            trace.step("recency", by="position", latest=cut)
            return lambda level: lambda item: item.index >= cut.get(item.level, 0)
        return lambda level: None

    def _latest_positions(self) -> dict[int, int]:
        """The first index of the latest quarter of each level (at least one item)."""
        return {
            level: max(
                0, len(self.memory.level(level)) - max(1, len(self.memory.level(level)) // 4)
            )
            for level in range(self.memory.depth)
        }

    # -- step 3 ------------------------------------------------------------------------------

    def _final_rerank(
        self, query: str, candidates: dict[str, list[Hit]], trace: Trace
    ) -> dict[str, list[Hit]]:
        return {
            block: _on_scale(
                self._final_scores(query, hits, block, trace), hits, self.final_candidates
            )
            if hits
            else hits
            for block, hits in candidates.items()
        }

    def _final_scores(self, query: str, hits: list[Hit], stage: str, trace: Trace) -> list[Hit]:
        """The first ``final_candidates`` of ``hits``, ordered and scored by the final
        reranker."""
        assert self.final_reranker is not None
        head = hits[: self.final_candidates]
        results = self.final_reranker.rank(query, [hit.item.text for hit in head])
        judged = [
            Hit(head[result.index].item, result.relevance_score, head[result.index].dense)
            for result in results
        ]
        trace.step("final_rerank", block=stage, scores=[(hit.item.id, hit.score) for hit in judged])
        return judged

    # -- output ------------------------------------------------------------------------------

    def _guidance(self, items: Sequence[ContextItem], notes: list[str]) -> Guidance:
        summaries = [item for item in items if item.level > 0]
        quotes = [item for item in items if item.level == 0]
        shown = {item.id for item in items}
        drillable = tuple(
            item.id
            for item in summaries
            if item.item.covers and not all(c in shown for c in item.item.covers)
        )
        basis = (
            "summaries and verbatim quotes"
            if summaries and quotes
            else "summaries"
            if summaries
            else "verbatim quotes"
            if quotes
            else "nothing"
        )
        return Guidance(basis, len(summaries), len(quotes), drillable, tuple(notes))

    def _empty(self, trace: Trace, intent: str, note: str) -> MemoryContext:
        trace.step("empty", reason=note)
        return MemoryContext(
            text="",
            items=(),
            intent=intent,
            tokens=0,
            trace=trace,
            guidance=Guidance("nothing", 0, 0, (), (note,)),
        )
