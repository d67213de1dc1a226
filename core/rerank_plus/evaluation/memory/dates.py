"""Which date a context gives a recalled message: the date a reader would attach to it.

A chat question ("when did Ana start at the bakery?") is answered by a message and the date it
was said; a context that quotes the message without its date, or under another day's header,
leaves the answer unrecoverable. A context's line *states a date*
when it opens with a bracket holding one ISO date (the policy's headers, ``[L0 #14-20
2024-03-04 19:02]``, ``[L1 #3 2024-03-04 09:31-10:12]``; a flat method's dated lines,
``[2024-03-04 19:02] Ana: ...``) or with an ISO date itself; that date holds for the lines after
it until the next line that states one. A header spanning days (``[L2 #1 2024-05-02 09:31 to
2024-05-09 18:00]``) states none: it does not say on which of them a sentence was said. A
message is *dated* when the first place the context shows one of its judged sentences lies
under the message's own date (in the message's own UTC offset).

A date written inside a quoted message (the policy's dated relative times, ``yesterday
[2024-03-03]``, ``last week [week of 2024-02-26]``, ``[since 2024-03-01]``, ``[2024-02]``) is not
a header and states nothing; :func:`without_annotations` takes such notes out before the judges
look for a message's sentences, so an annotated quote still reads as said.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from datetime import date

from rerank_plus.evaluation.memory.folding import fold

_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
#: What a line opens with when it may state a date: a bracket, or a date.
_OPENING = re.compile(r"\s*(\[[^\]\n]*\]|\d{4}-\d{2}-\d{2}\b)")
#: A dated note inside a line (after some text): a year, month or day, a week or a "since".
_ANNOTATION = re.compile(r"(?<=\S)[ \t]*\[(?:week of |since )?\d{4}(?:-\d{2}(?:-\d{2})?)?\]")


def without_annotations(text: str) -> str:
    """``text`` without the dated notes that follow other text on their line.

    >>> without_annotations("Ana: yesterday [2024-03-03], last week [week of 2024-02-26].")
    'Ana: yesterday, last week.'
    """
    return _ANNOTATION.sub("", text)


def stated_date(line: str) -> date | None:
    """The date ``line`` states (see the module docstring), or None.

    >>> stated_date("[L0 #3-9 2024-03-04 19:02]"), stated_date("Ana: on 2024-03-04")
    (datetime.date(2024, 3, 4), None)
    >>> stated_date("[L2 #1 2024-05-02 09:31 to 2024-05-09 18:00] A summary.") is None
    True
    """
    opening = _OPENING.match(line)
    if opening is None:
        return None
    days = set(_ISO_DATE.findall(opening.group(1)))
    if len(days) != 1:
        return None
    year, month, day = (int(part) for part in days.pop())
    try:
        return date(year, month, day)
    except ValueError:
        return None


class DatedContext:
    """A context folded as the judges read it (annotations out, see :class:`FoldedContext`),
    with the date in force at each of its folded words."""

    def __init__(self, text: str) -> None:
        starts: list[int] = []
        dates: list[date | None] = []
        folded: list[str] = []
        current: date | None = None
        offset = 1  # the padded text starts with a space
        for line in text.split("\n"):
            current = stated_date(line) or current
            words = fold(without_annotations(line))
            if not words:
                continue
            starts.append(offset)
            dates.append(current)
            folded.append(words)
            offset += len(words) + 1
        self.padded = f" {' '.join(folded)} "
        self._starts = starts
        self._dates = dates

    def __contains__(self, folded_sentence: str) -> bool:
        return f" {folded_sentence} " in self.padded

    def date_of(self, folded_sentences: list[str]) -> date | None:
        """The date in force where the first of ``folded_sentences`` to appear appears (None:
        none appears, or no date is stated before it)."""
        found = (self.padded.find(f" {sentence} ") for sentence in folded_sentences)
        at = min((position for position in found if position >= 0), default=-1)
        if at < 0 or not self._starts:
            return None
        line = bisect_right(self._starts, at + 1) - 1
        return self._dates[line] if line >= 0 else None
