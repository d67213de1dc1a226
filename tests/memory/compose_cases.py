"""Hand-made candidates for composition tests, the cases their property tests draw, and the
no-repeat check they share."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from rerank_plus.memory.context.state import Placed
from rerank_plus.memory.context.texts import ELISION
from rerank_plus.memory.index.text_cache import fold
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.sentences import split_sentences
from rerank_plus.memory.retrieve.search import Hit


def hits_by_block(
    texts: list[str], levels: list[int], speakers: bool = False
) -> dict[str, list[Hit]]:
    """Item ``i`` at ``levels[i]`` in its level's block, scored ``1 / (i + 1)``."""
    blocks = {0: "quotes", 1: "extracts", 2: "overview"}
    hits: dict[str, list[Hit]] = {"overview": [], "extracts": [], "quotes": []}
    for i, text in enumerate(texts):
        speaker = "Ana" if speakers and i % 2 else None
        item = MemoryItem(f"i{i}", levels[i], i, text, speaker=speaker)
        hits[blocks[levels[i]]].append(Hit(item, 1.0 / (i + 1)))
    return hits


def shown_once(placed: Sequence[Placed]) -> bool:
    """No sentence is shown by two items (an item shown whole may repeat itself)."""
    per_item = Counter(
        sentence
        for entry in placed
        for sentence in {fold(s) for s in split_sentences(entry.shown) if s != ELISION}
    )
    return all(count == 1 for count in per_item.values())


def composition_cases(
    sentences: st.SearchStrategy[str], items: int, most_tokens: int = 300
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Hypothesis draws ``texts`` (1 to ``items`` of them, each 1 to 4 of ``sentences``), a
    level for each (0 to 2) and a ``budget`` of 1 to ``most_tokens`` tokens."""
    texts = st.lists(sentences, min_size=1, max_size=4).map(" ".join)
    return given(
        texts=st.lists(texts, min_size=1, max_size=items),
        levels=st.lists(st.integers(0, 2), min_size=items, max_size=items),
        budget=st.integers(1, most_tokens),
    )
