"""Patterns compiled when first used.

The lexicons hold hundreds of patterns for twenty-odd languages, and compiling them all was
more than half a second of a new process's first query (``benchmarks/memory_store.py --only
retrieval``); a query meets the patterns of the few languages whose words it holds. Two
threads may both compile a pattern; they compile the same one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator


class DeferredPattern:
    """``re.compile(source)``, done on the first match."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source)
        return self._compiled

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)

    def match(self, text: str, position: int = 0) -> re.Match[str] | None:
        return self.compiled.match(text, position)

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)
