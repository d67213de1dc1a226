"""Query analysis, step 1 of the memory retriever: intent, shape, keywords, entities, time
window.

>>> from datetime import datetime, timezone
>>> from rerank_plus.memory.query import analyze_query
>>> analyze_query("Summarize the whole meeting").intent
'synthesis'
>>> analyze_query("quelle commande à 00:18 ?", now=datetime(2024, 5, 2, 9, 0,
...               tzinfo=timezone.utc)).window.start.isoformat()
'2024-05-02T00:18:00+00:00'
"""

from rerank_plus.memory.query.analysis import QueryAnalysis, analyze_query, warm_up
from rerank_plus.memory.query.intent import INTENTS
from rerank_plus.memory.query.shape import SHAPES
from rerank_plus.memory.query.specificity import Vocabulary
from rerank_plus.memory.query.time_window import TimeWindow

__all__ = [
    "INTENTS",
    "SHAPES",
    "QueryAnalysis",
    "TimeWindow",
    "Vocabulary",
    "analyze_query",
    "warm_up",
]
