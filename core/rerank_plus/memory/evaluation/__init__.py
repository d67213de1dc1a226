"""Measuring memory retrieval on real meetings (QMSum): methods given equal words, judged on
the turns and answers the dataset provides. See docs/memory.md and ``rerank-plus memory eval``.
"""

from rerank_plus.memory.evaluation.contexts import MethodContext, fill
from rerank_plus.memory.evaluation.embeddings import EmbeddingCache
from rerank_plus.memory.evaluation.judges import MeetingJudge, answer_recall
from rerank_plus.memory.evaluation.methods import PLUGIN_GROUP, available
from rerank_plus.memory.evaluation.qmsum import Meeting, Query, Turn, load_meetings
from rerank_plus.memory.evaluation.report import markdown_tables, summarize
from rerank_plus.memory.evaluation.runner import Method, Record, Run, evaluate
from rerank_plus.memory.evaluation.suite import run_suite
from rerank_plus.memory.evaluation.views import Resources

__all__ = [
    "PLUGIN_GROUP",
    "EmbeddingCache",
    "Meeting",
    "MeetingJudge",
    "Method",
    "MethodContext",
    "Query",
    "Record",
    "Resources",
    "Run",
    "Turn",
    "answer_recall",
    "available",
    "evaluate",
    "fill",
    "load_meetings",
    "markdown_tables",
    "run_suite",
    "summarize",
]
