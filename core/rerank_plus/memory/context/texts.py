"""What a context shows of each item and what that costs: its header, its line (a quote names
its speaker), its whole text or the text with sentences already shown elided, and their token
counts, all kept across queries in the index's text cache."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import NamedTuple

from rerank_plus.memory.context.time_notes import TimeNotes
from rerank_plus.memory.index.text_cache import TextCache
from rerank_plus.memory.model.items import MemoryItem

ELISION = "…"
#: Texts of an item shown in part (only some sentences) kept per item, at most: the same
#: sentences of a summary are picked question after question.
MAX_PARTIALS = 16


def with_elisions(sentences: Sequence[str], kept: Sequence[int]) -> str:
    """``sentences`` at the positions ``kept`` (ascending), each run of the others left out
    shown as one elision mark.

    >>> with_elisions(["A.", "B.", "C.", "D."], [1])
    '… B. …'
    """
    parts: list[str] = []
    after = 0  # the first position not passed yet
    for k in kept:
        if k > after:
            parts.append(ELISION)
        parts.append(sentences[k])
        after = k + 1
    if after < len(sentences):
        parts.append(ELISION)
    return " ".join(parts)


def _clock(moment: datetime | None, with_date: bool) -> str:
    if moment is None:
        return ""
    return moment.strftime("%Y-%m-%d %H:%M" if with_date else "%H:%M")


def _span(first: datetime | None, last: datetime | None, with_date: bool) -> str:
    """A summary's time span: "2024-05-02 09:31-10:12", across days "2024-05-02 23:50 to
    2024-05-03 00:40" (the date only where the memory spans days)."""
    start = _clock(first, with_date)
    if first is None or last is None or last == first:
        return start
    if with_date and last.date() != first.date():
        return f"{start} to {_clock(last, True)}"
    return f"{start}-{last:%H:%M}"


class Known(NamedTuple):
    """What the fill reads of an item, kept across queries (one lookup per candidate): its
    sentences' folded forms, its whole text, the token counts of its whole line and header, and
    the header (a rendered context shows it)."""

    folded: frozenset[str]
    whole: str
    line_tokens: int
    header_tokens: int
    header: str


class ItemTexts:
    """Headers, lines and shown texts of items, counted with ``counter`` (see the module
    docstring); ``with_date`` puts the date in headers (a memory that spans several days).

    Quotes run in stretches of consecutive messages under one header, and a stretch breaks
    where a session starts (``session_starts``, message indices) or, with dates, where the
    day changes, so that every quote's date is in its own header. ``notes`` dates the relative
    times of quoted messages ("yesterday [2024-05-07]"; None: left as said)."""

    def __init__(
        self,
        counter: Callable[[str], int],
        with_date: bool,
        cache: TextCache | None = None,
        *,
        session_starts: Collection[int] = frozenset(),
        notes: TimeNotes | None = None,
    ) -> None:
        self.counter = counter
        self.with_date = with_date
        self.session_starts = session_starts
        self.notes = notes
        self.cache = cache if cache is not None and cache.counter is counter else TextCache(counter)
        self._line = "line" if notes is None else "dated line"
        self._knowns: dict[str, Known] = self.cache.table(
            ("known", with_date, self._line), of_item_alone=True
        )
        self._partials: dict[str, dict[tuple[int, ...], str]] = self.cache.table(
            ("partial",), of_item_alone=True
        )

    def header(self, item: MemoryItem, last: MemoryItem | None = None) -> str:
        """A quote's (or a stretch's, to ``last``) header with its first message's time, a
        summary's with the span it covers."""
        number = f"#{item.index}" if last is None else f"#{item.index}-{last.index}"
        if item.level:
            moment = _span(item.time, item.end_time, self.with_date)
        else:
            moment = _clock(item.time, self.with_date)
        return f"[{item.label()} {number}{' ' + moment if moment else ''}]"

    def follows(self, previous: MemoryItem, item: MemoryItem) -> bool:
        """Whether quote ``item`` continues the stretch ``previous`` ends, under its header:
        the next message, in the same session and, where headers carry dates, on the same
        day."""
        if item.index != previous.index + 1 or item.index in self.session_starts:
            return False
        if self.with_date and item.time is not None and previous.time is not None:
            return item.time.date() == previous.time.date()
        return True

    def line(self, item: MemoryItem, text: str) -> str:
        if self.notes is not None and item.level == 0:
            text = self.notes.dated(item, text)
        return f"{item.speaker}: {text}" if item.speaker else text

    def partial_text(self, item: MemoryItem, positions: list[int]) -> tuple[str, list[int]]:
        """``item``'s text with only the sentences at ``positions`` shown, the others elided,
        and those positions in order."""
        ordered = sorted(positions)
        known = self._partials.get(item.id)
        if known is None:
            known = self._partials[item.id] = {}
        key = tuple(ordered)
        text = known.get(key)
        if text is None:
            text = with_elisions([sentence for sentence, _ in self.cache.sentences(item)], ordered)
            if len(known) < MAX_PARTIALS:
                known[key] = text
        return text, ordered

    def shown_tokens(self, item: MemoryItem, text: str) -> int:
        """What ``item`` costs shown as ``text``: its line and its header."""
        return self.line_tokens(item, text) + self.known(item).header_tokens

    def line_tokens(self, item: MemoryItem, text: str) -> int:
        if text is self.cache.whole(item):  # kept per item: not built nor hashed again
            return self.cache.tokens_of((item.id, self._line), lambda: self.line(item, text))
        # keyed by the text, not the line: a part of an item shown before is the same string
        # (its hash kept), and the line is not built again
        return self.cache.tokens_of((item.id, self._line, text), lambda: self.line(item, text))

    def known(self, item: MemoryItem) -> Known:
        found = self._knowns.get(item.id)
        if found is None:
            whole = self.cache.whole(item)
            header = self.header(item)
            found = self._knowns[item.id] = Known(
                self.cache.folded(item),
                whole,
                self.line_tokens(item, whole),
                self.cache.tokens_of((item.id, "header", self.with_date), lambda: header),
                header,
            )
        return found

    def new_text(self, item: MemoryItem, known: Known, shown: set[str]) -> tuple[str, int] | None:
        """What ``item`` would show (its sentences not shown yet, the others elided) and the
        tokens of its line; None when nothing of it is new."""
        folded = known.folded
        if not folded:
            return None
        if shown.isdisjoint(folded):  # the common case (tested first): nothing of it shown yet
            return known.whole, known.line_tokens
        if folded <= shown:
            return None
        return self.cache.elided((item.id, folded & shown), lambda: self.elide(item, shown))

    def elide(self, item: MemoryItem, shown: set[str]) -> tuple[str, int]:
        """``item``'s text with its ``shown`` sentences elided, and its line's tokens."""
        sentences = self.cache.sentences(item)
        kept = [k for k, (_, form) in enumerate(sentences) if form not in shown]
        text = with_elisions([sentence for sentence, _ in sentences], kept)
        return text, self.line_tokens(item, text)
