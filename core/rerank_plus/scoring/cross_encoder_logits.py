"""A loaded cross-encoder's logits for many (query, text) pairs, batched, and what a logit
means as a relevance probability.

Pairs are batched by length under a budget of padded tokens (``batching``), across queries,
while a thread prepares the next batch (``prefetch``); a generative reranker runs each query's
prompt head once and its documents' tails after it (``prefix_cache``); a model of neither fast
path goes through ``CrossEncoder.predict`` with the same batching. Logits come back in input
order, whatever the batches.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from rerank_plus.scoring.backends import PairScorer, TorchDecoderScorer
from rerank_plus.scoring.batching import estimate_tokens, length_batches
from rerank_plus.scoring.cross_encoder_loading import DEFAULT_MAX_LENGTH, LoadedModel
from rerank_plus.scoring.pair_tokens import PairTokenizer
from rerank_plus.scoring.prefetch import prefetched
from rerank_plus.scoring.prompt_tokens import PromptTokenizer

#: Padded tokens per batch when ``batch_tokens=None``: CPUs gain nothing from big batches and
#: lose to padding; GPUs want full batches.
BATCH_TOKENS = {"cpu": 4096, "mps": 8192, "cuda": 32768}
#: The same for generative rerankers, whose prompts share a template and differ little in
#: length once sorted: on a CPU their many small element-wise operations (RMSNorm, rotary
#: embeddings) run faster in fuller batches.
DECODER_BATCH_TOKENS = {**BATCH_TOKENS, "cpu": 16384}
#: Pairs tokenized, sorted and cut into batches at a time: large enough to sort many queries'
#: pairs together, small enough that the first batch starts early.
CHUNK_PAIRS = 4096


def pair_logits(
    loaded: LoadedModel,
    pairs: list[tuple[str, str]],
    *,
    batch_size: int,
    batch_tokens: int | None,
) -> list[Any]:
    """The logits of ``pairs``, in order, on the fastest path ``loaded`` offers: at most
    ``batch_size`` pairs and ``batch_tokens`` padded tokens per batch (``None``: by device)."""
    scorer = loaded.scorer
    if isinstance(scorer, TorchDecoderScorer) and scorer.shares_prefix:
        assert isinstance(loaded.tokens, PromptTokenizer)
        budget = _budget(loaded.device, batch_tokens, decoder=True)
        return _prefix_logits(loaded.tokens, scorer, loaded.device, pairs, batch_size, budget)
    if loaded.tokens is not None and scorer is not None:
        decoder = isinstance(loaded.tokens, PromptTokenizer)
        budget = _budget(loaded.device, batch_tokens, decoder)
        return _fast_logits(loaded.tokens, scorer, loaded.device, pairs, batch_size, budget)
    return _predict_logits(loaded, pairs, batch_size, batch_tokens)


def _budget(device: str, batch_tokens: int | None, decoder: bool = False) -> int:
    defaults = DECODER_BATCH_TOKENS if decoder else BATCH_TOKENS
    return batch_tokens or defaults.get(device.split(":")[0], 4096)


def _fast_logits(
    tokens: PairTokenizer | PromptTokenizer,
    scorer: PairScorer,
    device: str,
    pairs: list[tuple[str, str]],
    batch_size: int,
    budget: int,
) -> list[Any]:
    """Logits of ``pairs`` through the fast path; while the model runs one batch, a
    thread tokenizes and pads the next (on CPU both would share the same cores, so
    there the batches are prepared in turn)."""
    queries = list(dict.fromkeys(query for query, _ in pairs))
    query_tokens = dict(zip(queries, tokens.queries(queries), strict=True))

    def batches() -> Iterator[tuple[list[int], dict[str, np.ndarray]]]:
        for start in range(0, len(pairs), CHUNK_PAIRS):
            chunk = pairs[start : start + CHUNK_PAIRS]
            documents = tokens.documents([text for _, text in chunk])
            encoded = [
                (query_tokens[query], document)
                for (query, _), document in zip(chunk, documents, strict=True)
            ]
            lengths = [tokens.length(*pair) for pair in encoded]
            for rows in length_batches(lengths, batch_size, budget):
                batch = tokens.batch(rows, encoded)
                yield [start + row for row in rows], batch.features

    logits: list[Any] = [None] * len(pairs)
    depth = 0 if device.startswith("cpu") else 2
    for rows, features in prefetched(batches(), depth=depth):
        for row, output in zip(rows, scorer.logits(features), strict=True):
            logits[row] = output
    return logits


def _prefix_logits(
    tokens: PromptTokenizer,
    scorer: TorchDecoderScorer,
    device: str,
    pairs: list[tuple[str, str]],
    batch_size: int,
    budget: int,
) -> list[Any]:
    """Logits of decoder ``pairs``, query by query: the prompt head (template,
    instruction, query) runs once, then the documents' tails after it, batched by length
    (``prefix_cache``); a thread prepares the next batch where the model runs on a GPU."""
    by_query: dict[str, list[int]] = {}
    for index, (query, _) in enumerate(pairs):
        by_query.setdefault(query, []).append(index)
    query_tokens = dict(zip(by_query, tokens.queries(list(by_query)), strict=True))

    def batches() -> Iterator[tuple[str, list[int], dict[str, np.ndarray]]]:
        for query, indices in by_query.items():
            for start in range(0, len(indices), CHUNK_PAIRS):
                chunk = indices[start : start + CHUNK_PAIRS]
                documents = tokens.documents([pairs[i][1] for i in chunk])
                tails = [tokens.tail(query_tokens[query], d) for d in documents]
                for rows in length_batches(list(map(len, tails)), batch_size, budget):
                    batch = tokens.tails(rows, tails)
                    yield query, [chunk[row] for row in rows], batch.features

    logits: list[Any] = [None] * len(pairs)
    head: tuple[str, Any] | None = None
    depth = 0 if device.startswith("cpu") else 2
    for query, rows, features in prefetched(batches(), depth=depth):
        if head is None or head[0] != query:
            head = (query, scorer.prefix(tokens.head(query_tokens[query])))
        for row, output in zip(rows, scorer.continued(head[1], features), strict=True):
            logits[row] = output
    return logits


def _predict_logits(
    loaded: LoadedModel, pairs: list[tuple[str, str]], batch_size: int, batch_tokens: int | None
) -> list[Any]:
    """Logits of ``pairs`` through ``CrossEncoder.predict``, batched by estimated length
    (the template's tokens included)."""
    import torch

    encoder = loaded.encoder
    limit = getattr(encoder, "max_seq_length", None) or DEFAULT_MAX_LENGTH
    added = loaded.template_tokens
    lengths = [estimate_tokens(query, text, limit, added) for query, text in pairs]
    logits: list[Any] = [None] * len(pairs)
    budget = _budget(str(encoder.device), batch_tokens, loaded.decoder)
    for batch in length_batches(lengths, batch_size, budget):
        outputs = encoder.predict(
            [pairs[i] for i in batch],
            batch_size=len(batch),
            activation_fn=torch.nn.Identity(),
            show_progress_bar=False,
            **({"prompt": loaded.prompt} if loaded.prompt is not None else {}),
        )
        for i, output in zip(batch, outputs, strict=True):
            logits[i] = output
    return logits


def logit_and_probability(output: Any) -> tuple[float, float]:
    """One output of the model: a single logit (sigmoid), or two (softmax, class 1)."""
    values = np.atleast_1d(np.asarray(output, dtype=float)).tolist()
    if len(values) == 1:
        logit = values[0]
        return logit, _sigmoid(logit)
    if len(values) == 2:
        return values[1], _sigmoid(values[1] - values[0])  # softmax of two classes
    raise ValueError(
        f"The cross-encoder returns {len(values)} scores per pair; rerank-plus needs a model "
        "with one output (a relevance logit) or two (not relevant / relevant)."
    )


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)
