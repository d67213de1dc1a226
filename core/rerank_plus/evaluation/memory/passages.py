"""A passage collection (BEIR layout) read as one long conversation, for the memory's evaluation.

QMSum holds English meetings only. A collection of passages with judged queries (XQuAD in
seven languages and PIAF in French, in ``../shared/eval``) becomes one conversation: each
passage's sentences are messages, passage after passage in the corpus's order (an article's
paragraphs stay together, as a conversation keeps to a subject for a while), and each query is
a specific question whose gold turns are its relevant passages' sentences. The same judges and
baselines then measure what a precise question finds in a long memory in languages QMSum does
not have; there are no broad questions and no topics.
"""

from __future__ import annotations

from pathlib import Path

from rerank_plus.evaluation.beir import load_collection
from rerank_plus.evaluation.memory.qmsum import Meeting, Query, Turn
from rerank_plus.memory.model.sentences import split_sentences


def is_passage_collection(folder: str | Path) -> bool:
    """Whether ``folder`` holds a BEIR collection (a ``corpus.jsonl``, plain or gzipped)."""
    folder = Path(folder)
    return any((folder / name).is_file() for name in ("corpus.jsonl", "corpus.jsonl.gz"))


def load_passages(folder: str | Path, limit: int | None = None) -> list[Meeting]:
    """The collection in ``folder`` as one meeting (see the module docstring); ``limit`` keeps
    the first N judged queries. Queries without a relevant passage are left out: nothing could
    judge them."""
    collection = load_collection(folder)
    if collection.problems:
        raise ValueError(
            f"{collection.name}: {len(collection.problems)} judgment(s) point to no query or "
            f"passage, the first: {collection.problems[0]}"
        )
    turns: list[Turn] = []
    sentences_of: dict[str, list[int]] = {}
    for passage, text in collection.documents.items():
        at = sentences_of.setdefault(passage, [])
        for sentence in split_sentences(text):
            at.append(len(turns))
            turns.append(Turn(len(turns), "", sentence))
    judged = [
        query
        for query in collection.queries
        if any(score >= 1 for score in collection.qrels.get(query, {}).values())
    ]
    queries = tuple(
        Query(
            collection.name,
            number,
            "specific",
            collection.queries[query],
            "",
            tuple(
                sorted(
                    turn
                    for passage, score in collection.qrels[query].items()
                    if score >= 1
                    for turn in sentences_of[passage]
                )
            ),
        )
        for number, query in enumerate(judged[:limit])
    )
    return [Meeting(collection.name, tuple(turns), (), queries)]
