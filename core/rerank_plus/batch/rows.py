"""One row per query in, one row per query out: the batch format every engine shares.

In: ``{"query_id", "query", "candidates": [{"doc_id", "text", "score"?, "metadata"?}]}``.
Out: ``{"query_id", "results": [{"doc_id", "index", "relevance_score", "score"}]}``, best
first, or ``{"query_id", "error"}`` for a row that cannot be ranked. A bad row never stops the
others: it comes back as an error row naming what is wrong, so a job over millions of rows
reports the few broken ones instead of dying on the first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rerank_plus.reranker import RankInput, Reranker

Row = dict[str, Any]


class BadRowError(ValueError):
    """A row that is not one query with its candidates; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class Malformed:
    """A line of a JSONL input that is not JSON: kept as a value so it becomes an error row."""

    line: str
    reason: str


def decode_line(line: str) -> Any:
    """One JSONL line as its value, or :class:`Malformed` when it is not JSON."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        return Malformed(line[:80], error.msg)


def _identifier(value: Any, where: str) -> str:
    """Ids are strings; whole numbers (Parquet int columns) are read as their decimal text."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise BadRowError(f"{where} is {type(value).__name__}, not a string id.")


def query_id_of(row: Any) -> str | None:
    """The row's query id when it has a usable one (error rows carry it), else None."""
    if not isinstance(row, Mapping):
        return None
    try:
        return _identifier(row.get("query_id"), "query_id")
    except BadRowError:
        return None


def parse_row(row: Any) -> tuple[str, RankInput, list[str]]:
    """The query id, the :class:`RankInput` and the candidates' doc ids of one input row.

    Raises :class:`BadRowError` for a row without the batch shape. The texts and scores are
    checked by the reranker itself (:meth:`Reranker.rank_many`), whose errors name the item.
    """
    if isinstance(row, Malformed):
        raise BadRowError(f"line is not valid JSON ({row.reason}): {row.line!r}")
    if not isinstance(row, Mapping):
        raise BadRowError(f"a row must be a JSON object (mapping), got {type(row).__name__}.")
    if "query_id" not in row or row["query_id"] is None:
        raise BadRowError('row has no "query_id".')
    query_id = _identifier(row["query_id"], "query_id")
    if row.get("query") is None:
        raise BadRowError('row has no "query" text.')
    if not isinstance(row["query"], str):
        raise BadRowError(f'"query" is {type(row.get("query")).__name__}, not str.')
    candidates = row.get("candidates")
    if isinstance(candidates, (str, bytes, Mapping)) or not isinstance(candidates, Sequence):
        raise BadRowError(f'"candidates" is {type(candidates).__name__}, not a list.')
    if not candidates:
        raise BadRowError('"candidates" is empty: there is nothing to rerank.')
    doc_ids: list[str] = []
    texts: list[Any] = []
    scores: list[Any] = []
    metadata: list[Any] = []
    for position, candidate in enumerate(candidates):
        where = f"candidates[{position}]"
        if not isinstance(candidate, Mapping):
            raise BadRowError(f"{where} is {type(candidate).__name__}, not a mapping.")
        if candidate.get("doc_id") is None:
            raise BadRowError(f'{where} has no "doc_id".')
        doc_ids.append(_identifier(candidate["doc_id"], f"{where}.doc_id"))
        if candidate.get("text") is None:
            raise BadRowError(f'{where} (doc {doc_ids[-1]!r}) has no "text".')
        texts.append(candidate["text"])
        scores.append(candidate.get("score"))
        metadata.append(candidate.get("metadata"))
    given = [score is not None for score in scores]
    if any(given) and not all(given):
        missing = given.index(False)
        raise BadRowError(
            f'candidates[{missing}] has no "score" while others have one: give every '
            "candidate its first-stage score, or none."
        )
    items = None
    if any(item is not None for item in metadata):
        items = [{} if item is None else item for item in metadata]
    first_stage = scores if all(given) else None
    return query_id, RankInput(row["query"], texts, first_stage, items), doc_ids


def error_row(row: Any, error: Exception) -> Row:
    return {"query_id": query_id_of(row), "error": str(error)}


def rerank_rows(
    reranker: Reranker,
    rows: Sequence[Any],
    *,
    top_n: int | None = None,
    threshold: float | None = None,
) -> list[Row]:
    """One output row per input row, in order: its results, or its error.

    The good rows go to :meth:`Reranker.rank_many` together (a cross-encoder shares its
    batches across them). When the reranker rejects one of them (a non-string text, a NaN
    score), each is ranked on its own so that only the bad one becomes an error row.

    >>> from rerank_plus import BM25Reranker
    >>> row = {"query_id": "q1", "query": "capital of France", "candidates": [
    ...     {"doc_id": "a", "text": "Berlin is in Germany."},
    ...     {"doc_id": "b", "text": "Paris is the capital of France."}]}
    >>> [r["doc_id"] for r in rerank_rows(BM25Reranker(), [row], top_n=1)[0]["results"]]
    ['b']
    """
    out: list[Row | None] = [None] * len(rows)
    parsed: list[tuple[int, str, RankInput, list[str]]] = []
    for position, row in enumerate(rows):
        try:
            parsed.append((position, *parse_row(row)))
        except BadRowError as error:
            out[position] = error_row(row, error)
    try:
        ranked = reranker.rank_many(
            [item for _, _, item, _ in parsed], top_n=top_n, threshold=threshold
        )
    except (TypeError, ValueError):
        ranked = []
        for position, _, item, _ in parsed:
            try:
                ranked.extend(reranker.rank_many([item], top_n=top_n, threshold=threshold))
            except (TypeError, ValueError) as error:
                ranked.append([])
                out[position] = error_row(rows[position], error)
    for (position, query_id, _, doc_ids), results in zip(parsed, ranked, strict=True):
        if out[position] is None:
            out[position] = {
                "query_id": query_id,
                "results": [
                    {
                        "doc_id": doc_ids[result.index],
                        "index": result.index,
                        "relevance_score": result.relevance_score,
                        "score": result.score,
                    }
                    for result in results
                ],
            }
    return [row for row in out if row is not None]
