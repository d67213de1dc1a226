"""Batches of pairs cut by length, so short pairs are not padded to the size of a long one.

``CrossEncoder.predict`` sorts pairs by length but cuts a fixed number per batch: on a list of
48 candidates of 20..400 words, a batch of 32 pads a 60-word pair to 512 tokens. A budget of
padded tokens per batch keeps long pairs in small batches and short pairs in large ones.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Characters per token of a subword tokenizer on English text. The estimate only sizes
#: batches; it never changes a score (a text that tokenizes finer just makes fuller batches).
CHARS_PER_TOKEN = 4


def estimate_tokens(query: str, text: str, limit: int, added: int = 3) -> int:
    """Tokens of the (query, text) pair as the model sees it: the texts' and the ``added``
    tokens of the model's template (3 for ``[CLS] A [SEP] B [SEP]``, 70 and more for a
    generative reranker's prompt), cut at ``limit``."""
    return min(limit, (len(query) + len(text)) // CHARS_PER_TOKEN + added)


def length_batches(lengths: Sequence[int], max_pairs: int, max_tokens: int) -> list[list[int]]:
    """Indices into ``lengths``, longest first, grouped so that a batch holds at most
    ``max_pairs`` pairs and ``pairs x longest length <= max_tokens`` (a single pair longer
    than the budget gets a batch of its own). Ties keep input order.

    >>> length_batches([10, 400, 20, 380], max_pairs=8, max_tokens=800)
    [[1, 3], [2, 0]]
    """
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    batches: list[list[int]] = []
    for index in order:
        batch = batches[-1] if batches else None
        if (
            batch is None
            or len(batch) >= max_pairs
            or (len(batch) + 1) * lengths[batch[0]] > max_tokens
        ):
            batches.append([index])
        else:
            batch.append(index)
    return batches
