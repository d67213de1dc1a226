"""Ingesting messages into a hierarchical memory: windows, levels, summaries, entities, and
incremental appends."""

from rerank_plus.memory.ingest.entities import extract_entities
from rerank_plus.memory.ingest.extractive import ExtractiveSummarizer
from rerank_plus.memory.ingest.hierarchy import build_memory
from rerank_plus.memory.ingest.llm import LLMSummarizer
from rerank_plus.memory.ingest.precomputed import PrecomputedSummaries
from rerank_plus.memory.ingest.requests import (
    SourceSentence,
    Summarizer,
    Summary,
    SummaryError,
    SummaryRequest,
)
from rerank_plus.memory.ingest.settings import BuildSettings
from rerank_plus.memory.ingest.writer import MemoryWriter

__all__ = [
    "BuildSettings",
    "ExtractiveSummarizer",
    "LLMSummarizer",
    "MemoryWriter",
    "PrecomputedSummaries",
    "SourceSentence",
    "Summarizer",
    "Summary",
    "SummaryError",
    "SummaryRequest",
    "build_memory",
    "extract_entities",
]
