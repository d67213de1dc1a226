"""A broad question's blocks filled sentence by sentence, for the terms each adds (the
greedy budgeted coverage of :mod:`rerank_plus.memory.context.coverage`), each item's other
sentences elided."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rerank_plus.combine.normalize import min_max
from rerank_plus.memory.context.coverage import (
    MIN_SENTENCE_TERMS,
    MIN_SENTENCE_WORDS,
    Candidate,
    Coverage,
    pick,
)
from rerank_plus.memory.context.render import TITLES
from rerank_plus.memory.context.state import FillState, Placed
from rerank_plus.memory.context.texts import ItemTexts
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.sentences import word_count
from rerank_plus.memory.policy import TOKENS_PER_READ
from rerank_plus.memory.retrieve.search import Hit
from rerank_plus.memory.trace import Trace


class CoverageFill:
    """Fills a block for coverage with ``texts``' headers, lines and counts."""

    def __init__(self, texts: ItemTexts) -> None:
        self.texts = texts

    def fill(
        self,
        block: str,
        pool: Sequence[Hit],
        allowance: float,
        state: FillState,
        coverage: Coverage,
        trace: Trace | None,
    ) -> float:
        """Show the sentences of ``pool``'s items that add most of what is not yet covered,
        per token, while they fit ``allowance`` (an item's other sentences elided); what is
        left."""
        readable = max(1, int(allowance // TOKENS_PER_READ))
        hits = [hit for hit in pool if hit.item.id not in state.placed_ids][:readable]
        title = 0 if block in state.opened else self.texts.cache.tokens(TITLES[block])
        candidates = self._candidates(
            (hit.item for hit in hits), block == "quotes", coverage, state.shown
        )
        relevance = None
        if coverage.by_relevance:  # min-max over the block's whole pool: a fused score
            # (reciprocal ranks) barely separates the first item from the tenth, and a question
            # that names a topic should hear little from the pool's least relevant items
            scaled = min_max([hit.score for hit in pool])
            relevance = {hit.item.id: value for hit, value in zip(pool, scaled, strict=True)}
        picks = pick(
            candidates,
            coverage.weights,
            allowance - title,
            set(state.covered),
            relevance=relevance,
            shown_sections=set(state.sections),
            reward=coverage.reward,
            timeline=coverage.timeline,
            shown_places=sorted(state.places),
        )
        by_id = {hit.item.id: hit for hit in hits}
        shown, cost = self._fitted(by_id, picks, allowance, title)
        if trace:
            trace.step("coverage", block=block, candidates=len(candidates), picked=len(picks))
        if not picks:
            return allowance
        for key, (text, kept) in shown.items():
            item = by_id[key].item
            state.accepted.append(Placed(by_id[key], block, text))
            state.placed_ids.add(item.id)
            sentences = self.texts.cache.sentences(item)
            terms = coverage.terms_of(item)
            state.shown.update(sentences[k][1] for k in kept)
            state.covered.update(*(terms[k] for k in kept))
            if item.id in coverage.sections:
                state.sections.add(coverage.sections[item.id])
            if coverage.timeline is not None and item.id in coverage.timeline.places:
                state.places.append(coverage.timeline.places[item.id])
            if block == "quotes":
                state.quotes[item.index] = item
        state.opened.add(block)
        return max(0.0, allowance - cost)

    def _candidates(
        self, items: Iterable[MemoryItem], quoted: bool, coverage: Coverage, shown: set[str]
    ) -> list[Candidate]:
        """The sentences of ``items`` (in order) not shown yet, as candidates
        (:meth:`sentences_of`, kept per item for every later query: one table for them all)."""
        table = self.table(quoted)
        found: list[Candidate] = []
        for item in items:
            sentences = table.get(item.id)
            if sentences is None:
                sentences = table[item.id] = self.sentences_of(item, quoted, coverage)
            if shown.isdisjoint(self.texts.known(item).folded):  # the common case: nothing shown
                found.extend(sentences)
            else:
                found.extend(candidate for candidate in sentences if candidate.form not in shown)
        return found

    def table(self, quoted: bool) -> dict[str, tuple[Candidate, ...]]:
        """Each item's coverage candidates, one table per way of showing items: whether they
        are quoted, and whether headers carry the date (a candidate's opening cost is its
        header's, which grows when an add makes the memory span a second day)."""
        return self.texts.cache.table(("coverage", quoted, self.texts.with_date))

    def sentences_of(
        self, item: MemoryItem, quoted: bool, coverage: Coverage
    ) -> tuple[Candidate, ...]:
        """``item``'s sentences that can stand on their own (words and terms enough), as
        candidates (a quote's first line also names its speaker). A sentence costs a token
        more for the elision mark or the space that joins it."""
        opening = self.texts.known(item).header_tokens
        if quoted and item.speaker:
            opening += self.texts.cache.tokens(f"{item.speaker}:")
        section = coverage.sections.get(item.id)
        return tuple(
            Candidate(
                item.id, n, terms, self.texts.cache.tokens(sentence) + 1, opening, section, form
            )
            for n, ((sentence, form), terms) in enumerate(
                zip(self.texts.cache.sentences(item), coverage.terms_of(item), strict=True)
            )
            if len(terms) >= MIN_SENTENCE_TERMS and word_count(sentence) >= MIN_SENTENCE_WORDS
        )

    def _fitted(
        self, by_id: Mapping[str, Hit], picks: list[Candidate], allowance: float, title: int
    ) -> tuple[dict[str, tuple[str, list[int]]], int]:
        """Per picked item (in the order of its first pick), its text with only the picked
        sentences shown (the others elided) and their positions, and the exact cost of them all
        with ``title`` (elision marks and headers included); the last picks are dropped while
        that is over ``allowance``. A drop makes its own item's text again, no other."""
        kept: dict[str, list[int]] = {}
        for candidate in picks:
            kept.setdefault(candidate.item, []).append(candidate.sentence)
        shown = {key: self.texts.partial_text(by_id[key].item, kept[key]) for key in kept}
        costs = {
            key: self.texts.shown_tokens(by_id[key].item, text) for key, (text, _) in shown.items()
        }
        cost = title + sum(costs.values())
        while picks and cost > allowance:
            key = picks.pop().item
            kept[key].pop()  # the last pick is its item's last
            cost -= costs.pop(key)
            if kept[key]:
                shown[key] = self.texts.partial_text(by_id[key].item, kept[key])
                costs[key] = self.texts.shown_tokens(by_id[key].item, shown[key][0])
                cost += costs[key]
            else:
                del kept[key], shown[key]
        return shown, cost
