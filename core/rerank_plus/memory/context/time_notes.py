"""Quoted messages with their relative times dated against their own time ("yesterday
[2024-05-07]"), so that a model reading the context need not work out which day "yesterday"
was (:mod:`rerank_plus.memory.query.time_annotations` says what is dated and how).

Each message is read in its own language where its detection is reliable, else in the
memory's main language, else in every language with a lexicon; what a message shows is dated
once and kept for every later query.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rerank_plus.memory.index.text_cache import TextCache
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.query.lexicon import LEXICONS
from rerank_plus.memory.query.time_annotations import annotate
from rerank_plus.memory.trace import Trace

if TYPE_CHECKING:
    from rerank_plus.memory.index.memory_index import MemoryIndex


class TimeNotes:
    """Dates the relative times of messages (see the module docstring).

    ``languages``: each item's reliably detected language (None where not reliable);
    ``fallback``: the memory's main language (None where none is known); ``dated_headers``:
    the headers give each quote's date, so "today" and "this morning" need no note;
    ``kept``: a table that keeps the dated texts per item across queries (the index's text
    cache gives one per ``fallback`` and ``dated_headers``)."""

    def __init__(
        self,
        languages: Mapping[str, str | None],
        fallback: str | None,
        dated_headers: bool = False,
        kept: dict[str, dict[str, str]] | None = None,
    ) -> None:
        self.languages = languages
        self.fallback = fallback
        self.dated_headers = dated_headers
        self.kept = {} if kept is None else kept

    def dated(self, item: MemoryItem, text: str) -> str:
        """``text`` (what a context shows of message ``item``) with its relative times
        dated against ``item.time``; as it is when the message has no time."""
        if item.time is None:
            return text
        known = self.kept.get(item.id)
        if known is None:
            known = self.kept[item.id] = {}
        found = known.get(text)
        if found is None:
            language = self.languages.get(item.id) or self.fallback
            read = (language,) if language is not None and language in LEXICONS else None
            found = known[text] = annotate(text, item.time, read, own_day=not self.dated_headers)
        return found


def time_notes(
    index: MemoryIndex, cache: TextCache, annotate_times: bool, trace: Trace | None
) -> TimeNotes | None:
    """The notes a context over ``index`` dates its quotes with, kept in ``cache`` (None: the
    profile turned them off, or the memory has no times), said in ``trace``'s ``dates`` step
    with what the headers show."""
    notes = None
    if annotate_times and index.timed:
        fallback, dated = index.dominant_language, index.spans_days
        kept = cache.table(("time notes", fallback, dated), of_item_alone=True)
        notes = TimeNotes(index.reliable_languages, fallback, dated, kept)
    if trace is not None:
        trace.step(
            "dates",
            headers="date and time" if index.spans_days else "time" if index.timed else "none",
            relative_times="dated" if notes else "as said",
            session_breaks=len(index.session_starts),
            reason=None if index.timed else "no times in the memory",
        )
    return notes
