"""The LRU cache every stage shares: evicts the least recently used at its size, counts hits,
refuses a size that cannot be one, and stays consistent under threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from rerank_plus import Analyzer
from rerank_plus.analysis.cache import SHORT_TEXT, LRUCache, content_key


def test_evicts_the_least_recently_used_at_its_size() -> None:
    cache: LRUCache[int] = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recently used
    cache.put("c", 3)
    assert len(cache) == 2
    assert cache.get("b") is None
    assert (cache.get("a"), cache.get("c")) == (1, 3)


def test_get_or_compute_computes_once_and_evicts_in_order() -> None:
    cache: LRUCache[str] = LRUCache(3)
    calls: list[str] = []

    def compute(key: str) -> str:
        calls.append(key)
        return key.upper()

    for key in ["a", "b", "c", "a", "d", "b", "a"]:
        assert cache.get_or_compute(key, lambda key=key: compute(key)) == key.upper()
    # d evicts b (a was used again), so b is computed twice; a stays cached throughout
    assert calls == ["a", "b", "c", "d", "b"]
    assert (cache.hits, cache.misses) == (2, 5)
    assert len(cache) == 3


def test_size_zero_caches_nothing() -> None:
    cache: LRUCache[int] = LRUCache(0)
    assert cache.get_or_compute("a", lambda: 1) == 1
    cache.put("b", 2)
    assert len(cache) == 0 and cache.get("b") is None


def test_clear_empties_and_resets_the_counters() -> None:
    cache: LRUCache[int] = LRUCache(4)
    cache.put("a", 1)
    cache.get("a")
    cache.get("z")
    cache.clear()
    assert (len(cache), cache.hits, cache.misses) == (0, 0, 0)


@pytest.mark.parametrize("size", [-1, -100, 1.5, True, "10", None])
def test_a_size_that_is_not_a_count_is_refused(size) -> None:
    with pytest.raises(ValueError, match=r"cache size must be a whole number >= 0 \(0 turns"):
        LRUCache(size)


def test_public_constructors_refuse_a_negative_cache_size() -> None:
    with pytest.raises(ValueError, match="cache size must be a whole number >= 0"):
        Analyzer(cache_size=-1)
    pytest.importorskip("sentence_transformers")
    from rerank_plus import BiEncoderReranker, CrossEncoderReranker

    for reranker in (CrossEncoderReranker, BiEncoderReranker):
        with pytest.raises(ValueError, match="cache size must be a whole number >= 0"):
            reranker("any-model", cache_size=-5)


def test_long_texts_get_short_distinct_keys() -> None:
    long_a, long_b = "a" * (SHORT_TEXT + 1), "a" * SHORT_TEXT + "b"
    assert content_key("short") == "short"
    assert content_key("x" * SHORT_TEXT) == "x" * SHORT_TEXT
    assert len(content_key(long_a)) == 16
    assert content_key(long_a) != content_key(long_b)
    assert content_key(long_a) == content_key("a" * (SHORT_TEXT + 1))


def test_sixteen_threads_keep_the_size_and_the_counts() -> None:
    cache: LRUCache[int] = LRUCache(50)
    keys = [f"k{n % 80}" for n in range(4000)]
    with ThreadPoolExecutor(max_workers=16) as pool:
        values = list(pool.map(lambda k: cache.get_or_compute(k, lambda: int(k[1:])), keys))
    assert values == [int(k[1:]) for k in keys]
    assert len(cache) == 50
    assert cache.hits + cache.misses == len(keys)
