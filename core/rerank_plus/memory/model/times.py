"""Times of memory items: ISO 8601 text, datetimes, dates or epoch seconds, always aware.

A naive time is taken as UTC, the convention of the whole library
(:func:`rerank_plus.combine.boosts.parse_timestamp`), so ages and windows compare safely.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rerank_plus.combine.boosts import parse_timestamp
from rerank_plus.memory.errors import MemoryFormatError


def parse_time(value: Any, where: str) -> datetime | None:
    """``value`` as an aware datetime (None stays None); ``where`` names the item and field in
    the error, e.g. ``"messages[3].time"``.

    >>> parse_time("2024-05-01T09:30:00+02:00", "m0.time").isoformat()
    '2024-05-01T09:30:00+02:00'
    """
    if value is None:
        return None
    try:
        return parse_timestamp(value)
    except (TypeError, ValueError, OverflowError, OSError) as error:
        raise MemoryFormatError(
            f"{where}: {value!r} is not a time; give ISO 8601 text (2024-05-01T09:30:00Z), "
            "a datetime, or epoch seconds."
        ) from error
