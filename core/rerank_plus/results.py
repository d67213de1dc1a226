"""The value a reranker hands back for each document it keeps."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class RankedResult:
    """One kept document, in the shape rerank APIs use.

    ``index`` points into the caller's list, so the caller keeps its own objects (and their
    metadata) and we never copy or mutate them. ``score`` is the scorer's raw value (a BM25 sum,
    a logit, a cosine); ``relevance_score`` is that value mapped to [0, 1], the one thresholds
    read. ``explanation`` is filled only when ``rank(..., explain=True)`` asks for it.

    >>> RankedResult(index=2, score=3.1, relevance_score=0.62)
    RankedResult(index=2, score=3.1, relevance_score=0.62, explanation=None)
    """

    index: int
    score: float
    relevance_score: float
    explanation: Mapping[str, Any] | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the explanation only when there is one."""
        out: dict[str, Any] = {
            "index": self.index,
            "relevance_score": self.relevance_score,
            "score": self.score,
        }
        if self.explanation is not None:
            out["explanation"] = dict(self.explanation)
        return out
