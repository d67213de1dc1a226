"""Measuring memory retrieval on real meetings (QMSum): methods given equal words, judged on
the turns and answers the dataset provides. See docs/memory.md and ``rerank-plus memory eval``.
"""

from rerank_plus.evaluation.memory.contexts import MethodContext, fill
from rerank_plus.evaluation.memory.embeddings import EmbeddingCache
from rerank_plus.evaluation.memory.judges import MeetingJudge, answer_recall
from rerank_plus.evaluation.memory.methods import PLUGIN_GROUP, available
from rerank_plus.evaluation.memory.qmsum import Meeting, Query, Turn, load_meetings
from rerank_plus.evaluation.memory.report import markdown_tables, summarize
from rerank_plus.evaluation.memory.runner import Method, Record, Run, evaluate
from rerank_plus.evaluation.memory.suite import run_suite
from rerank_plus.evaluation.memory.views import Resources

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
