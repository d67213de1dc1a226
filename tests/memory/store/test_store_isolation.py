"""Isolation (issue #46): a query in one namespace never returns text of another, whatever
the namespaces hold and whatever the query names, before and after summaries."""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rerank_plus.memory import open_store

#: Words every namespace may use, so that queries match across namespaces lexically.
SHARED = ("budget", "launch", "venue", "march", "team", "review", "plan", "price")


def _marker(space: int, word: int) -> str:
    return f"zq{space}x{word}"


messages_of_a_namespace = st.lists(
    st.lists(
        st.one_of(st.sampled_from(SHARED), st.integers(0, 5).map(str)), min_size=1, max_size=8
    ),
    min_size=1,
    max_size=6,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    spaces=st.lists(messages_of_a_namespace, min_size=2, max_size=4),
    asked=st.integers(0, 3),
    query_words=st.lists(
        st.one_of(st.sampled_from(SHARED), st.tuples(st.integers(0, 3), st.integers(0, 5))),
        min_size=1,
        max_size=6,
    ),
    summarized=st.booleans(),
)
def test_a_query_never_returns_another_namespace(
    store_url: str, spaces, asked: int, query_words, summarized: bool
) -> None:
    run = uuid.uuid4().hex[:8]
    names = [f"{run}/{n}" for n in range(len(spaces))]
    asked %= len(spaces)
    with open_store(store_url, background=False) as store:
        for space, (name, lines) in enumerate(zip(names, spaces, strict=True)):
            texts = [
                " ".join(_marker(space, int(word)) if word.isdigit() else word for word in line)
                for line in lines
            ]
            store.add(name, texts)
            if summarized:
                store.flush(name)
        query = " ".join(word if isinstance(word, str) else _marker(*word) for word in query_words)
        context = store.retrieve(names[asked], query, max_tokens=400)
        foreign = {
            _marker(space, word)
            for space in range(len(spaces))
            if space != asked
            for word in range(6)
        }
        assert not any(marker in context.text for marker in foreign)
        own = {item.text for item in store.memory(names[asked])}
        assert all(item.item.text in own for item in context.items)
