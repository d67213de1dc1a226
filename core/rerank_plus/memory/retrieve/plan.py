"""One retrieval's decisions, made once and handed down: the query plan.

:meth:`MemoryRetriever.retrieve <rerank_plus.memory.MemoryRetriever.retrieve>` reads the
question (step 1), then builds a :class:`QueryPlan`: the analysis, the intent and its policy,
the budget's tier, the query's vector, the time filter, the fusion and the index it reads.
Every later step takes the plan, so a query reads one index and one set of decisions, and no
step needs a dozen parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rerank_plus.memory.index.memory_index import MemoryIndex
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.policy import TOKENS_PER_READ, IntentPolicy
from rerank_plus.memory.query import QueryAnalysis
from rerank_plus.memory.retrieve.search import Allowed, LevelSearch
from rerank_plus.memory.trace import Trace


@dataclass(frozen=True)
class QueryPlan:
    """What one retrieval decided before it searched (``notes`` and ``trace`` collect what it
    finds on the way)."""

    #: the question as asked (what a final reranker reads)
    question: str
    #: what the light stage reads: the keywords for a lexical stage (its task words, "summarize
    #: the discussion about", would match every window alike), else the question
    text: str
    analysis: QueryAnalysis
    intent: str
    policy: IntentPolicy
    #: the policy's tier for this budget (``small``, ``medium``, ``large``)
    tier: str
    max_tokens: int
    moment: datetime | None
    vector: Any
    index: MemoryIndex
    search: LevelSearch
    #: per level, which items the question's time window (or recency) lets through
    allowed: Callable[[int], Allowed | None]
    trace: Trace
    notes: list[str]

    @property
    def memory(self) -> Memory:
        """The memory version the index was built from: the one this query reads."""
        return self.index.memory

    @property
    def terms(self) -> list[str]:
        return list(self.analysis.keywords)

    @property
    def lead_quotes(self) -> int:
        """How many of the best messages found anywhere lead the quotes: the policy's
        ``lead_quotes``, and at least its ``lead_quotes_across_days`` where the memory's
        messages span two days or more (a chat kept over weeks, not one sitting)."""
        count = self.policy.lead_quotes[self.tier]
        if len(self.index.message_days) >= 2:
            count = max(count, self.policy.lead_quotes_across_days[self.tier])
        return count

    @property
    def readable(self) -> int:
        """What the largest block could read of a level (see ``policy.TOKENS_PER_READ``)."""
        quota = max(self.policy.quotas.values())
        return max(1, int(self.max_tokens * quota // TOKENS_PER_READ))
