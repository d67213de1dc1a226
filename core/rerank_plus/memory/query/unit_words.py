"""Units of time are no topic: "which books did Paul finish in these weeks?", "on which day
does the club meet now?", "dans quelle ville vit-il en ce moment ?".

A question's "week", "day", "month" or "moment" names a span of time (the time window reads
it where it can) or the kind of answer it wants, not what the answer is about; as a keyword it
matches the small talk of every session ("busy week", "a long day", "a quiet moment") and
draws the quotes away from the answer. The words are each lexicon's ``[time.units]`` (the
grammar's own list, in every language it reads) and "moment"-like words of
:data:`MOMENT_WORDS`; a question left with no other keyword keeps them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from rerank_plus.memory.query.lexicon import LEXICONS

#: Words for "a moment" that the current-state cues ("at the moment", "en ce moment", "im
#: Moment") leave behind as keywords; not units of the grammar (no "3 moments ago").
MOMENT_WORDS = ("moment", "moments", "momento", "momentos", "augenblick")


@cache
def _unit_pattern(language: str) -> re.Pattern[str] | None:
    lexicon = LEXICONS.get(language)
    if lexicon is None:
        return None
    alternatives = [*lexicon.units.values(), *MOMENT_WORDS]
    return re.compile("|".join(f"(?:{words})" for words in alternatives), re.IGNORECASE)


def without_time_units(keywords: Sequence[str], language: str | None) -> tuple[str, ...]:
    """``keywords`` less the units of time of ``language`` (see the module docstring), unless
    nothing else would be left. Accents count: Vietnamese "tuần" is a week, "Tuấn" a name."""
    pattern = _unit_pattern(language) if language else None
    if pattern is None:
        return tuple(keywords)
    kept = tuple(word for word in keywords if not pattern.fullmatch(word.casefold()))
    return kept or tuple(keywords)
