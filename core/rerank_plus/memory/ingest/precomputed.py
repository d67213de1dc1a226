"""Summaries written beforehand (by hand, by another tool, by an earlier LLM run), looked up
by the summary's id, by the ids it covers, or by level and position."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rerank_plus.memory.ingest.requests import Summary, SummaryError, SummaryRequest


def _check_text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{where} must be a str summary, got {type(value).__name__}.")
    return value


class PrecomputedSummaries:
    """Summaries given as a mapping or as lists per level.

    A mapping's keys are summary ids (``"L1.0"``, ``"L2.3"``) or tuples of the ids a summary
    covers (``("m0", "m1", "m2")``); lists give ``summaries[level - 1][index]``. A summary the
    build asks for and does not find raises :class:`SummaryError` (``build_memory`` with
    ``on_summary_error="extractive"`` keeps an extractive one instead).

    >>> summaries = PrecomputedSummaries({("m0", "m1"): "Ann and Bob agree on Lyon."})
    >>> summaries.lookup("L1.0", 1, 0, ("m0", "m1"))
    'Ann and Bob agree on Lyon.'
    """

    name = "precomputed"

    def __init__(
        self, summaries: Mapping[str | tuple[str, ...], str] | Sequence[Sequence[str]]
    ) -> None:
        self._by_key: dict[str | tuple[str, ...], str] = {}
        self._by_level: list[list[str]] = []
        if isinstance(summaries, Mapping):
            for key, text in summaries.items():
                if not isinstance(key, (str, tuple)):
                    raise TypeError(
                        f"summary key {key!r} must be a summary id (str) or a tuple of the ids "
                        "it covers."
                    )
                self._by_key[key] = _check_text(text, f"summaries[{key!r}]")
        elif isinstance(summaries, Sequence) and not isinstance(summaries, str):
            for level, texts in enumerate(summaries, start=1):
                if isinstance(texts, str) or not isinstance(texts, Sequence):
                    raise TypeError(
                        f"summaries[{level - 1}] must be the list of level-{level} summaries, "
                        f"got {type(texts).__name__}."
                    )
                self._by_level.append(
                    [_check_text(t, f"summaries[{level - 1}][{i}]") for i, t in enumerate(texts)]
                )
        else:
            raise TypeError(
                "summaries must be a mapping (summary id or covered ids -> text) or a list of "
                f"lists (one per level), got {type(summaries).__name__}."
            )

    def lookup(self, summary_id: str, level: int, index: int, covers: tuple[str, ...]) -> str:
        for key in (summary_id, covers):
            if key in self._by_key:
                return self._by_key[key]
        if level <= len(self._by_level) and index < len(self._by_level[level - 1]):
            return self._by_level[level - 1][index]
        raise SummaryError(
            f"no precomputed summary for {summary_id} (covering {covers[0]}..{covers[-1]}); "
            "add one under that id or the tuple of ids it covers, or pass "
            "on_summary_error='extractive' to build_memory."
        )

    def summarize(self, request: SummaryRequest) -> Summary:
        text = self.lookup(request.id, request.level, request.index, request.covers)
        return Summary(text=text, summarizer=self.name)

    def __repr__(self) -> str:
        return f"PrecomputedSummaries({len(self._by_key) + sum(map(len, self._by_level))})"
