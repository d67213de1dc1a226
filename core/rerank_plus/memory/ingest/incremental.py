"""Appending one message and updating only the summaries on its path to the top (what
:meth:`MemoryWriter.add <rerank_plus.memory.ingest.writer.MemoryWriter.add>` runs).

The new message joins the open window or opens a new one by the build's own rule (windows
are cut one message at a time, so a window a build would have closed is closed here too); a
full window may be split where its topic drifted most, which changes that window and adds
the next. Above level 1, each item groups ``fan_out`` consecutive items by position, so
only the parents of changed items are re-summarized, and a level is added when the top one
grows past ``top_items``: the same shape a build from scratch gives. Untouched items stay
the very same objects.

A builder that did not build this version of the memory (a memory loaded or made elsewhere,
or changed by another writer) first rebuilds its state: term statistics from the messages, the
open window from the last window's messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import zip_longest
from typing import Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.ingest.builder import MemoryBuilder, ReadMessage
from rerank_plus.memory.ingest.hierarchy import (
    build_levels,
    check_message_ids,
    keep_for_add,
    summarize_group,
    summarize_window,
)
from rerank_plus.memory.ingest.segment import OpenWindow, Segmenter
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.messages import message_to_item

#: Earlier messages that help detect the language of a short new one.
LANGUAGE_CONTEXT = 8


def _check_embedder(builder: MemoryBuilder, memory: Memory) -> None:
    if builder.embedder is None and any(item.embedding is not None for item in memory):
        raise MemoryFormatError(
            "this memory's items carry embeddings but its writer has no embedder to embed the "
            "new message; pass embedder=... to MemoryWriter."
        )


def _resume(builder: MemoryBuilder, memory: Memory) -> None:
    """Rebuild the state ``add`` continues from: term statistics over every message, and
    the last window (if it ends at the last message) as the open window."""
    messages = memory.messages
    languages = builder.languages([item.text for item in messages])
    builder.statistics.documents = 0
    builder.statistics.frequencies.clear()
    read = [
        builder.read(item, language) for item, language in zip(messages, languages, strict=True)
    ]
    for message in read:
        builder.statistics.add(message.terms)
    builder.kept = {}
    last = memory.level(1)[-1]
    children = memory.children(last.id)
    session = last_session(memory.level(1))
    window = OpenWindow(len(messages), session=session)
    builder.window_messages = []
    if children and children[-1].index == len(messages) - 1 and all(c.level == 0 for c in children):
        opened_by = str(last.signals.get("opened_by", "start"))
        window = OpenWindow(children[0].index, opened_by, session)
        builder.window_messages = read[children[0].index :]
        builder.embed(
            text
            for m in builder.window_messages
            for text in (m.item.text, *(s.text for s in m.sentences))
        )
        for message in builder.window_messages:
            window.add(builder.turn(message, count=False))
    builder.segmenter = Segmenter(builder.settings, window)


def last_session(windows: Sequence[MemoryItem]) -> int:
    """The session the last of ``windows`` is in: the last one a window names (0 if none)."""
    for window in reversed(windows):
        session = window.signals.get("session")
        if isinstance(session, int) and not isinstance(session, bool):
            return session
    return 0


def _changed_windows(
    builder: MemoryBuilder, memory: Memory, closed: Sequence[OpenWindow], read: ReadMessage
) -> list[MemoryItem]:
    """Level 1 after the push: the windows from the last one on, re-summarized where their
    messages changed; returns the whole new level."""
    level = list(memory.level(1))
    open_window = builder.segmenter.window
    windows = [*closed, open_window]
    messages = {m.item.index: m for m in builder.window_messages}
    messages[read.item.index] = read
    last = memory.children(level[-1].id)
    position = len(level) - 1 if last and last[0].index == windows[0].start else len(level)
    for offset, window in enumerate(windows):
        index = position + offset
        span = [messages[i] for i in range(window.start, window.start + window.size)]
        covers = tuple(m.item.id for m in span)
        if index < len(level) and level[index].covers == covers:
            continue
        item = summarize_window(builder, index, window, span)
        if index < len(level):
            level[index] = item
        else:
            level.append(item)
    builder.window_messages = [messages[i] for i in range(open_window.start, read.item.index + 1)]
    return level


def _reuse(memory: Memory, item: MemoryItem) -> MemoryItem:
    """The stored item when a re-summary changed nothing (same object, no new embedding),
    or the new item with the stored embedding when only its text stayed the same."""
    if item.id not in memory:
        return item
    stored = memory.get(item.id)
    if stored is item or stored == item:
        return stored
    if stored.text == item.text and item.embedding is None:
        return replace(item, embedding=stored.embedding)
    return item


def append_message(builder: MemoryBuilder, memory: Memory, message: Any) -> MemoryItem:
    """Append ``message`` (a str, a mapping or a level-0 MemoryItem) to ``memory`` with
    ``builder``'s models and settings and update the summaries it touches; returns the stored
    message. See the module docstring."""
    _check_embedder(builder, memory)
    index = len(memory.messages)
    item = builder.enrich(message_to_item(message, index, where="the added message"))
    if item.id in memory:
        raise MemoryFormatError(
            f"the added message's id {item.id!r} is already in the memory; give it its own id "
            "(or none: one is generated)."
        )
    check_message_ids([item])
    if memory.depth < 2:
        return _build_whole(builder, memory, [*memory.messages, item])
    if builder.version != memory.version:
        _resume(builder, memory)
    context = [m.item.text for m in builder.window_messages[-LANGUAGE_CONTEXT:]]
    read = builder.read(item, builder.languages([item.text], context)[0])
    builder.embed([item.text, *(sentence.text for sentence in read.sentences)])
    closed = builder.segmenter.push(builder.turn(read), index)
    old_windows = memory.level(1)
    levels = [[*memory.messages, item], _changed_windows(builder, memory, closed, read)]
    changed = {
        i
        for i, window in enumerate(levels[1])
        if i >= len(old_windows) or window is not old_windows[i]
    }
    settings = builder.settings
    depth = 1
    while True:
        depth += 1
        below, level = levels[-1], list(memory.level(depth))
        if not level and len(below) <= settings.top_items:
            break
        if level:
            parents = sorted({i // settings.fan_out for i in changed})
        else:
            parents = list(range(-(-len(below) // settings.fan_out)))
        for parent in parents:
            children = below[parent * settings.fan_out : (parent + 1) * settings.fan_out]
            summary = summarize_group(builder, depth, parent, children, memory)
            if parent < len(level):
                level[parent] = summary
            else:
                level.append(summary)
        levels.append(level)
        changed = set(parents)
    items = [
        entry if entry is stored else _reuse(memory, entry)
        for depth, level in enumerate(levels)
        for entry, stored in zip_longest(level, memory.level(depth)[: len(level)])
    ]
    memory.replace(builder.with_embeddings(items))
    keep_for_add(builder, [entry for level in levels[1:] for entry in level[-settings.fan_out :]])
    builder.version = memory.version
    return memory.messages[-1]


def _build_whole(builder: MemoryBuilder, memory: Memory, items: list[MemoryItem]) -> MemoryItem:
    """A memory without summaries gets them all, as a build would."""
    builder.statistics.documents = 0
    builder.statistics.frequencies.clear()
    languages = builder.languages([item.text for item in items])
    read = [builder.read(item, language) for item, language in zip(items, languages, strict=True)]
    summaries = build_levels(builder, read)
    memory.replace(builder.with_embeddings([*items, *summaries]))
    keep_for_add(builder, summaries)
    builder.version = memory.version
    return memory.messages[-1]
