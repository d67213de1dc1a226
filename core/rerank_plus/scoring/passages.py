"""Overlapping windows over a long document, so a relevant end is not cut off."""

from __future__ import annotations


def windows(text: str, size: int, overlap: int) -> list[str]:
    """Split ``text`` into windows of ``size`` words that overlap by ``overlap`` words.

    A text of at most ``size`` words is one window. The last window always reaches the end.
    """
    if size < 1 or not 0 <= overlap < size:
        raise ValueError(f"window size must be >= 1 and 0 <= overlap < size, got {size}/{overlap}.")
    words = text.split()
    if len(words) <= size:
        return [text]
    step = size - overlap
    starts = [*range(0, len(words) - size, step), len(words) - size]
    return [" ".join(words[start : start + size]) for start in starts]
