"""What fine-tuning reads: passages, and queries with the passages that answer them.

Every reader (JSONL pairs, a BEIR folder, meetings, generated questions) produces one
:class:`TrainingData`, so mining, training and evaluation never look at the source format.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class Passage:
    """A text that can be retrieved. Passages of the same ``group`` (a meeting) compete with
    each other only; ``""`` means the whole corpus."""

    id: str
    text: str
    group: str = ""


@dataclass(frozen=True, slots=True)
class Example:
    """One query and its judged passages (ids into :attr:`TrainingData.passages`).

    ``labels``, when given, hold a relevance in [0, 1] for ``positives + negatives`` in that
    order (graded data); without them positives count 1 and negatives 0.
    """

    query_id: str
    query: str
    positives: tuple[str, ...]
    negatives: tuple[str, ...] = ()
    labels: tuple[float, ...] = ()
    group: str = ""

    def judged(self) -> list[tuple[str, float]]:
        """(passage id, label) of every judged passage, positives first."""
        ids = [*self.positives, *self.negatives]
        labels = self.labels or tuple([1.0] * len(self.positives) + [0.0] * len(self.negatives))
        return list(zip(ids, labels, strict=True))


@dataclass(frozen=True)
class TrainingData:
    """Passages by id, the examples, where they came from and what was skipped on reading."""

    source: str
    passages: dict[str, Passage]
    examples: tuple[Example, ...]
    skipped: dict[str, int] = field(default_factory=dict)

    def pool(self, group: str) -> list[str]:
        """Ids of the passages a query of ``group`` is ranked against."""
        if not group:
            return list(self.passages)
        return [pid for pid, passage in self.passages.items() if passage.group == group]

    def groups(self) -> dict[str, list[str]]:
        """Passage ids per group, in corpus order (computed once per call)."""
        out: dict[str, list[str]] = {}
        for pid, passage in self.passages.items():
            out.setdefault(passage.group, []).append(pid)
        return out

    def with_examples(self, examples: Iterable[Example]) -> TrainingData:
        return replace(self, examples=tuple(examples))

    def __iter__(self) -> Iterator[Example]:
        return iter(self.examples)

    def summary(self) -> dict[str, object]:
        """Counts for the model card: queries, passages, judged pairs, what was skipped."""
        return {
            "source": self.source,
            "queries": len(self.examples),
            "passages": len(self.passages),
            "positives": sum(len(e.positives) for e in self.examples),
            "negatives": sum(len(e.negatives) for e in self.examples),
            "skipped": dict(self.skipped),
        }
