"""Building a hierarchical memory from messages: windows, levels, summaries, entities, and
incremental appends (``Memory.add``)."""

from rerank_plus.memory.build.entities import extract_entities
from rerank_plus.memory.build.extractive import ExtractiveSummarizer
from rerank_plus.memory.build.hierarchy import build_memory
from rerank_plus.memory.build.incremental import append_message, attach_builder
from rerank_plus.memory.build.llm import LLMSummarizer
from rerank_plus.memory.build.precomputed import PrecomputedSummaries
from rerank_plus.memory.build.requests import (
    SourceSentence,
    Summarizer,
    Summary,
    SummaryError,
    SummaryRequest,
)
from rerank_plus.memory.build.settings import BuildSettings

__all__ = [
    "BuildSettings",
    "ExtractiveSummarizer",
    "LLMSummarizer",
    "PrecomputedSummaries",
    "SourceSentence",
    "Summarizer",
    "Summary",
    "SummaryError",
    "SummaryRequest",
    "append_message",
    "attach_builder",
    "build_memory",
    "extract_entities",
]
