"""In what order a context shows its quote stretches: the best first, or for a question about
the current state of something that changes, the newest statements about it first.

"Where does Ana live now?" is answered by the last of several statements ("here in Reading",
then weeks later "we finally moved to Oxford"); the reader needs them all, each with its date,
the newest first, to judge which still holds. The stretches about the question's subject (a
best score at least :data:`ABOUT_THE_SUBJECT` of the best stretch's) come newest first; the
others follow, best first, so a recent message that merely shares a word does not lead. A
statement supersedes another over days: said in one sitting (one day) or without times (a
meeting's transcript), the stretches stay best first, where the strongest evidence leads
(on QMSum's test meetings, whose 18 "what is the current ..." questions have no times, moving
the later stretches first cost 0.8 to 3.0 points of MRR).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from rerank_plus.memory.context.render import QuoteOrder, runs_of, stretches_best_first
from rerank_plus.memory.context.state import Placed
from rerank_plus.memory.model.items import MemoryItem

Follows = Callable[[MemoryItem, MemoryItem], bool]

#: A stretch is about the question's subject when its best quote scores at least this share of
#: the best stretch's. Half: the statements of a changed fact score alike (they name the same
#: thing), the small talk around them far lower. On the development chats' current-state
#: questions (``rerank-plus memory eval --data benchmarks/data/chats``, the shape given, MiniLM),
#: the contexts holding two statements or more showed them newest first in 19 of 19 at 700 and
#: at 2,000 tokens with a share of 0.3 or 0.5, in 16 of 19 with 0.7; best first, in 1 and 2.
ABOUT_THE_SUBJECT = 0.5


def _best(run: Sequence[Placed]) -> float:
    return max(entry.hit.score for entry in run)


def _newest(run: Sequence[Placed]) -> tuple[float, int]:
    """When a run's latest message was said (its place in the conversation without a time)."""
    last = max(run, key=lambda entry: entry.hit.item.index).hit.item
    return (last.time.timestamp() if last.time is not None else float("-inf"), last.index)


def _days(run: Sequence[Placed]) -> set[date]:
    return {entry.hit.item.time.date() for entry in run if entry.hit.item.time is not None}


def newest_about_first(members: Sequence[Placed], follows: Follows) -> list[Placed]:
    """:func:`stretches_best_first`, then the stretches about the subject moved to the front,
    the newest first, where they were said on different days (see the module docstring)."""
    ordered = stretches_best_first(members, follows)
    runs = runs_of(ordered, follows)
    if not runs:
        return []
    top = max(_best(run) for run in runs)
    about = [run for run in runs if _best(run) >= ABOUT_THE_SUBJECT * top]
    if len(set().union(*map(_days, about))) < 2:
        return ordered  # said in one sitting, or untimed: the best statement first
    others = [run for run in runs if _best(run) < ABOUT_THE_SUBJECT * top]
    about.sort(key=_newest, reverse=True)
    return [entry for run in (*about, *others) for entry in run]


#: The quote orders a policy's ``quote_order`` names.
QUOTE_ORDERS: dict[str, QuoteOrder] = {
    "best_first": stretches_best_first,
    "newest_first": newest_about_first,
}
