"""What the query-analysis tests share: the moment every relative time is resolved against,
and one way to ask."""

from __future__ import annotations

from datetime import datetime, timezone

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import QueryAnalysis, analyze_query

UTC = timezone.utc
#: A Wednesday morning: "yesterday" is Tuesday 7 May 2024, "on Monday" the 6th.
NOW = datetime(2024, 5, 8, 9, 30, tzinfo=UTC)


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def analyze(query: str, analyzer: Analyzer, now: datetime | None = NOW, **options) -> QueryAnalysis:
    return analyze_query(query, now, analyzer=analyzer, **options)
