"""Selection: which scored results to keep, and in what order.

Ordering and top-n/threshold (:mod:`.order`), a dynamic cutoff where relevance drops sharply
(:mod:`.cutoff`), a token budget (:mod:`.budget`) and maximal marginal relevance
(:mod:`.diversity`).
"""

from rerank_plus.selection.budget import TokenBudget, approximate_tokens
from rerank_plus.selection.cutoff import CUTOFFS, GapCutoff, RatioCutoff, build_cutoff
from rerank_plus.selection.diversity import (
    SIMILARITIES,
    EmbeddingSimilarity,
    LexicalSimilarity,
    MaximalMarginalRelevance,
)
from rerank_plus.selection.order import order_results, select_results

__all__ = [
    "CUTOFFS",
    "SIMILARITIES",
    "EmbeddingSimilarity",
    "GapCutoff",
    "LexicalSimilarity",
    "MaximalMarginalRelevance",
    "RatioCutoff",
    "TokenBudget",
    "approximate_tokens",
    "build_cutoff",
    "order_results",
    "select_results",
]
