"""A query's shared prompt head, run once and read by every document's tail.

Every prompt of a generative reranker for one query starts with the same tokens: the
template's head, the instruction and the query (``PromptTokenizer.head``). The model reads
them once (batch 1); each batch of documents then runs only its tails (document and closing
template, ``PromptTokenizer.tail``) on top of the head's keys and values, positions counted
on from the head. The head's keys and values are expanded to the batch (a view, no copy) and
never written to: each layer returns them with the tail's and keeps nothing, so one head
serves every batch of its query and memory stays that of one layer at a time, as without a
cache.

Tails are padded on the right: a causal model's real tokens never see the padding after
them, so no padding mask is needed, and each row's score is read at its own last token.

Imports torch: import it where a decoder is scored.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import cache
from typing import Any

import torch


@dataclass(frozen=True)
class SharedPrefix:
    """The head's keys and values, layer by layer, each (1, key-value heads, length, head
    size), and its length (where the tails' positions start)."""

    keys: tuple[torch.Tensor, ...]
    values: tuple[torch.Tensor, ...]
    length: int


def shares_prefix(decoder: Any) -> bool:
    """Whether a head can be run once for all tails: the base model takes a ``cache`` of
    layers (transformers 5's Cache API) and every layer attends to all earlier tokens (a
    sliding window would have to drop head tokens as tails grow)."""
    if "cache" not in inspect.signature(decoder.forward).parameters:
        return False
    config = decoder.config
    full = set(getattr(config, "layer_types", None) or ["full_attention"]) == {"full_attention"}
    return full and getattr(config, "sliding_window", None) is None


def run_prefix(decoder: Any, input_ids: Any) -> SharedPrefix:
    """The head's keys and values: one forward pass of the base model over ``input_ids``
    (1, length), the cache kept."""
    cache = decoder(input_ids=input_ids, use_cache=True).cache
    return SharedPrefix(
        tuple(layer.keys for layer in cache.layers),
        tuple(layer.values for layer in cache.layers),
        int(input_ids.shape[-1]),
    )


def batch_cache(prefix: SharedPrefix, batch: int) -> Any:
    """A cache that shows ``prefix`` to ``batch`` rows and keeps nothing of theirs."""
    from transformers.cache_utils import Cache

    layer = _read_only_layer()
    return Cache(
        layers=[
            layer(keys, values, batch)
            for keys, values in zip(prefix.keys, prefix.values, strict=True)
        ]
    )


def tail_mask(prefix: int, width: int, device: Any) -> Any:
    """The causal mask of ``width`` tail positions after ``prefix`` head positions, (1, 1,
    width, prefix + width), True where a position may look: every head position and the
    tail's own positions up to itself. One for the whole batch (rows are right padded), so
    SDPA broadcasts it instead of converting a mask per row."""
    seen = torch.arange(prefix + width, device=device)
    return (seen[None, :] <= prefix + torch.arange(width, device=device)[:, None])[None, None]


@cache
def _read_only_layer() -> type:
    """The cache layer class (built on first use: transformers is imported where used)."""
    from transformers.cache_utils import DynamicLayer

    class ReadOnlyLayer(DynamicLayer):
        """One layer's head keys and values, expanded to the batch; ``update`` returns them
        followed by the batch's own and stores nothing."""

        def __init__(self, keys: torch.Tensor, values: torch.Tensor, batch: int) -> None:
            super().__init__()
            self.head = (keys.expand(batch, -1, -1, -1), values.expand(batch, -1, -1, -1))
            self.keys, self.values = self.head  # what the cache reads its length from
            self.device = keys.device
            self.is_initialized = True

        def update(
            self, key_states: torch.Tensor, value_states: torch.Tensor, *args: Any, **kwargs: Any
        ) -> tuple[torch.Tensor, torch.Tensor]:
            keys, values = self.head
            return (
                torch.cat([keys, key_states], dim=-2),
                torch.cat([values, value_states], dim=-2),
            )

    return ReadOnlyLayer
