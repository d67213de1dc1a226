"""``build_memory``: messages -> windows (level 1) -> groups of windows (levels 2..k).

Each level above 1 groups ``fan_out`` consecutive items of the level below, until a level has
at most ``top_items`` items; every summary keeps verbatim sentences of what it covers (with the
default summarizer), so the top of a long meeting is a handful of its most central lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.ingest.builder import MemoryBuilder, ReadMessage
from rerank_plus.memory.ingest.embedding import as_embedder
from rerank_plus.memory.ingest.llm import as_summarizer
from rerank_plus.memory.ingest.requests import SourceSentence
from rerank_plus.memory.ingest.segment import OpenWindow, Segmenter
from rerank_plus.memory.ingest.settings import BuildSettings
from rerank_plus.memory.ingest.summaries import Coverage, summary_id
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.messages import messages_to_items


def level_groups(count: int, fan_out: int) -> list[range]:
    """Consecutive groups of ``fan_out`` positions (the last one may be shorter)."""
    return [range(start, min(start + fan_out, count)) for start in range(0, count, fan_out)]


def summarize_window(
    builder: MemoryBuilder, index: int, window: OpenWindow, read: Sequence[ReadMessage]
) -> MemoryItem:
    """The level-1 summary of ``window`` over its messages ``read`` (in order)."""
    children = [message.item for message in read]
    candidates = [sentence for message in read for sentence in message.sentences]
    request = builder.request(1, index, children, candidates, window.words)
    return builder.summary(
        request, children, opened_by=window.opened_by, session=window.timed_session
    )


def summarize_group(
    builder: MemoryBuilder,
    level: int,
    index: int,
    children: Sequence[MemoryItem],
    memory: Memory | None = None,
) -> MemoryItem:
    """The summary at ``level`` of ``children`` (one level down), from the sentences their
    summaries kept (read anew from their text when this builder did not write them)."""
    candidates: list[SourceSentence] = []
    for child in children:
        kept = builder.kept.get(child.id)
        if kept is None:
            kept = builder.sentences_of(child.text, child.index)
        candidates.extend(kept)
    coverage = Coverage.of(children, memory)
    request = builder.request(level, index, children, candidates, coverage.words)
    return builder.summary(request, children, memory=memory)


def build_levels(builder: MemoryBuilder, read: Sequence[ReadMessage]) -> list[MemoryItem]:
    """The summaries of every level over the read messages ``read``; leaves the builder
    ready for ``add`` (its segmenter holds the open window)."""
    settings = builder.settings
    builder.embed(text for m in read for text in (m.item.text, *(s.text for s in m.sentences)))
    segmenter = Segmenter(settings)
    windows = [
        window
        for position, message in enumerate(read)
        for window in segmenter.push(builder.turn(message), position)
    ]
    if segmenter.window.turns:
        windows.append(segmenter.window)
    level = [
        summarize_window(builder, index, window, read[window.start : window.start + window.size])
        for index, window in enumerate(windows)
    ]
    builder.segmenter = segmenter
    builder.window_messages = list(read[segmenter.window.start :])
    summaries = list(level)
    depth = 1
    while len(level) > settings.top_items:
        depth += 1
        below = level
        level = [
            summarize_group(builder, depth, index, [below[position] for position in group])
            for index, group in enumerate(level_groups(len(below), settings.fan_out))
        ]
        summaries += level
    return summaries


def check_message_ids(items: Sequence[MemoryItem]) -> None:
    for item in items:
        level, _, index = item.id[1:].partition(".")
        numbered = item.id.startswith("L") and level.isdigit() and index.isdigit()
        if numbered and summary_id(int(level), int(index)) == item.id:
            raise MemoryFormatError(
                f"messages[{item.index}].id {item.id!r} is an id the build gives summaries "
                "(L<level>.<index>); rename the message."
            )


def keep_for_add(builder: MemoryBuilder, summaries: Sequence[MemoryItem]) -> None:
    """Forget what no later ``add`` reads: only the last ``fan_out`` items of each level can
    be re-summarized."""
    last: dict[int, list[str]] = {}
    for item in summaries:
        last.setdefault(item.level, []).append(item.id)
    wanted = {i for ids in last.values() for i in ids[-builder.settings.fan_out :]}
    builder.kept = {key: value for key, value in builder.kept.items() if key in wanted}
    texts = [s.text for sentences in builder.kept.values() for s in sentences]
    texts += [s.text for message in builder.window_messages for s in message.sentences]
    texts += [message.item.text for message in builder.window_messages]
    builder.trim(texts)


def build_memory(
    messages: Sequence[Any],
    embedder: Any = None,
    summarizer: Any = None,
    *,
    window_words: int = 250,
    min_window_words: int | None = None,
    time_gap: timedelta = timedelta(minutes=30),
    session_gap: timedelta = timedelta(hours=4),
    shift_ratio: float = 0.5,
    fan_out: int = 4,
    top_items: int = 4,
    summary_ratio: float = 0.3,
    summary_min_words: int = 20,
    summary_max_words: int = 100,
    on_summary_error: str = "raise",
    extract_entities: bool = True,
    analyzer: Analyzer | None = None,
) -> Memory:
    """A hierarchical memory of ``messages``: the messages (level 0), summaries of windows
    (level 1) and summaries of groups of summaries up to a small top level.

    Args:
        messages: str or mappings (see :func:`rerank_plus.memory.messages_to_items`).
        embedder: anything :class:`~rerank_plus.memory.Embedder` accepts; every item then
            carries its embedding, topic shifts and centrality are read from embeddings, and
            each text is embedded once. None: term vectors from the project's analyzer.
        summarizer: None (an :class:`ExtractiveSummarizer`), an :class:`LLMSummarizer`, a
            :class:`PrecomputedSummaries`, a LlamaIndex or LangChain LLM or a callable from a
            prompt to text (wrapped in an LLMSummarizer), or any object with
            ``summarize(request)``.
        window_words, min_window_words, time_gap, session_gap, shift_ratio, fan_out, top_items,
            summary_ratio, summary_min_words, summary_max_words: see :class:`BuildSettings`.
        on_summary_error: ``"raise"`` (a :class:`SummaryError` naming the summary) or
            ``"extractive"`` (keep the extractive summary; the item's
            ``extras["summary_error"]`` says why).
        extract_entities: find entities and #hashtag tags in messages that carry none (see
            :func:`extract_entities`).
        analyzer: the :class:`~rerank_plus.analysis.Analyzer` for terms and languages.

    An empty list gives an empty memory. To add messages later with the same models and
    settings, build through :meth:`MemoryWriter.build <rerank_plus.memory.MemoryWriter.build>`
    and keep the writer.

    >>> memory = build_memory([f"Point {i}: the budget for item {i} is {i * 10} euros."
    ...                        for i in range(60)], window_words=40, min_window_words=20)
    >>> memory.depth, len(memory.level(1))
    (4, 18)
    """
    settings = BuildSettings(
        window_words=window_words,
        min_window_words=min_window_words,
        time_gap=time_gap,
        session_gap=session_gap,
        shift_ratio=shift_ratio,
        fan_out=fan_out,
        top_items=top_items,
        summary_ratio=summary_ratio,
        summary_min_words=summary_min_words,
        summary_max_words=summary_max_words,
        on_summary_error=on_summary_error,
        extract_entities=extract_entities,
    )
    builder = MemoryBuilder(settings, as_summarizer(summarizer), as_embedder(embedder), analyzer)
    return build_with(builder, messages)


def build_with(builder: MemoryBuilder, messages: Sequence[Any]) -> Memory:
    """``messages`` built into a new memory by ``builder``, which keeps the state a
    :class:`~rerank_plus.memory.ingest.writer.MemoryWriter` continues from."""
    items = [builder.enrich(item) for item in messages_to_items(messages)]
    check_message_ids(items)
    languages = builder.languages([item.text for item in items])
    read = [builder.read(item, language) for item, language in zip(items, languages, strict=True)]
    summaries = build_levels(builder, read) if items else []
    memory = Memory(builder.with_embeddings([*items, *summaries]))
    keep_for_add(builder, summaries)
    builder.version = memory.version
    return memory
