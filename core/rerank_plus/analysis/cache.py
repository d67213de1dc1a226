"""A small thread-safe LRU cache keyed by content hash, so repeated texts are analyzed once."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


#: Texts up to this many characters are their own cache key.
SHORT_TEXT = 2048


def content_key(text: str) -> str | bytes:
    """A cache key for ``text``: the text itself when short (Python caches a string's hash, so
    repeated lookups cost almost nothing), a 16-byte digest when long, so that keys stay small
    even for a 1 MB document. A str key never equals a bytes key."""
    if len(text) <= SHORT_TEXT:
        return text
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class LRUCache(Generic[V]):
    """Keeps the ``maxsize`` most recently used values; ``maxsize=0`` turns caching off."""

    def __init__(self, maxsize: int) -> None:
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 0:
            raise ValueError(
                f"cache size must be a whole number >= 0 (0 turns the cache off), got {maxsize!r}."
            )
        self.maxsize = maxsize
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_or_compute(self, key: Hashable, compute: Callable[[], V]) -> V:
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                self.hits += 1
                return self._values[key]
            self.misses += 1
        value = compute()
        if self.maxsize:
            with self._lock:
                self._values[key] = value
                if len(self._values) > self.maxsize:
                    self._values.popitem(last=False)
        return value

    def get(self, key: Hashable) -> V | None:
        """The cached value (now the most recently used), or None."""
        with self._lock:
            if key not in self._values:
                self.misses += 1
                return None
            self._values.move_to_end(key)
            self.hits += 1
            return self._values[key]

    def put(self, key: Hashable, value: V) -> None:
        if not self.maxsize:
            return
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            if len(self._values) > self.maxsize:
                self._values.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._values)
