"""What runs a cross-encoder's forward pass on padded pairs: PyTorch, or ONNX Runtime.

Both take the numpy arrays :class:`~rerank_plus.scoring.pair_tokens.PairTokenizer` assembles
and return the logits as float32, one row per pair, so tokenization, batching and the score
cache are shared by every backend.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

#: Backends by name; ``None`` picks one per device (see ``default_backend``).
BACKENDS = ("torch", "onnx")
QUANTIZATIONS = ("int8",)


class PairScorer(Protocol):
    """Logits of padded pairs: ``features`` holds ``input_ids``, ``attention_mask`` and, for
    models that read them, ``token_type_ids``, each (pairs, tokens) int64."""

    def logits(self, features: dict[str, np.ndarray]) -> np.ndarray: ...


class TorchPairScorer:
    """A Hugging Face sequence-classification model under ``torch.inference_mode``.

    On CUDA the inputs go through pinned memory and a non-blocking copy; the logits come back
    as float32 whatever the model's precision.
    """

    def __init__(self, model: Any) -> None:
        self.model = model
        self.device = next(model.parameters()).device

    def logits(self, features: dict[str, np.ndarray]) -> np.ndarray:
        import torch

        on_cuda = self.device.type == "cuda"
        with torch.inference_mode():
            inputs = {}
            for name, array in features.items():
                tensor = torch.from_numpy(array)
                if on_cuda:
                    tensor = tensor.pin_memory().to(self.device, non_blocking=True)
                elif self.device.type != "cpu":
                    tensor = tensor.to(self.device)
                inputs[name] = tensor
            return self.model(**inputs).logits.float().cpu().numpy()


def check_backend(backend: str | None, quantize: str | None) -> None:
    """Refuse unknown backends and quantizations, naming the valid ones."""
    if backend is not None and backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)} or None, got {backend!r}.")
    if quantize is not None and quantize not in QUANTIZATIONS:
        raise ValueError(
            f"quantize must be one of {', '.join(QUANTIZATIONS)} or None, got {quantize!r}."
        )
    if quantize is not None and backend == "torch":
        raise ValueError(
            f"quantize={quantize!r} runs on ONNX Runtime: pass backend='onnx' (or leave "
            "backend=None), or drop quantize to run PyTorch."
        )


class TorchDecoderScorer:
    """A causal language model scored on a few answer tokens, never the whole vocabulary.

    The base model gives the last hidden state of each row; its dot product with the scored
    tokens' output embeddings gives their logits, weighted into one score per pair: with
    ``yes`` - ``no`` that is one projection on the difference of the two embeddings. The
    vocabulary-wide logits (``lm_head`` on every position: pairs x tokens x 150k floats for
    Qwen) are never made, so memory does not grow with the vocabulary. A final logit
    soft-cap (Gemma 2) is applied to each token's logit before they are weighted.

    Where the model allows it (``prefix_cache.shares_prefix``), a query's prompt head runs
    once (:meth:`prefix`) and each batch only its documents' tails after it
    (:meth:`continued`); otherwise whole left-padded prompts run (:meth:`logits`).

    Args:
        model: a Hugging Face ``*ForCausalLM`` model.
        token_ids: the scored tokens' ids.
        weights: each token's weight in the score.
    """

    def __init__(self, model: Any, token_ids: tuple[int, ...], weights: tuple[float, ...]) -> None:
        import torch

        from rerank_plus.scoring.prefix_cache import shares_prefix

        self.model = model
        self.decoder = model.get_decoder()
        self.device = next(model.parameters()).device
        self.shares_prefix = shares_prefix(self.decoder)
        head = model.get_output_embeddings()
        with torch.no_grad():
            rows = head.weight[list(token_ids)].float()
            bias = getattr(head, "bias", None)
            offsets = (
                bias[list(token_ids)].float()
                if bias is not None
                else torch.zeros(len(token_ids), device=rows.device)
            )
            weight = torch.tensor(weights, dtype=torch.float32, device=rows.device)
        self.softcap = getattr(model.config, "final_logit_softcapping", None)
        if self.softcap:
            self.rows, self.offsets, self.weight = rows, offsets, weight
        else:  # one direction: sum_i w_i (h . e_i + b_i) = h . (sum_i w_i e_i) + sum_i w_i b_i
            self.rows, self.offsets = (weight @ rows)[None, :], (weight @ offsets)[None]
            self.weight = torch.ones(1, device=rows.device)

    def _tensor(self, array: np.ndarray) -> Any:
        import torch

        tensor = torch.from_numpy(array)
        if self.device.type == "cuda":
            return tensor.pin_memory().to(self.device, non_blocking=True)
        return tensor.to(self.device) if self.device.type != "cpu" else tensor

    def _scores(self, hidden: Any) -> np.ndarray:
        """One score per row of last hidden states (rows, hidden size)."""
        import torch

        logits = hidden.float() @ self.rows.T + self.offsets
        if self.softcap:
            logits = torch.tanh(logits / self.softcap) * self.softcap
        return (logits @ self.weight)[:, None].cpu().numpy()

    def logits(self, features: dict[str, np.ndarray]) -> np.ndarray:
        """One score per row of left-padded whole prompts: the weighted answer-token logits
        at the row's last position."""
        import torch

        with torch.inference_mode():
            inputs = {name: self._tensor(array) for name, array in features.items()}
            hidden = self.decoder(**inputs, use_cache=False).last_hidden_state[:, -1, :]
            return self._scores(hidden)

    def prefix(self, ids: np.ndarray) -> Any:
        """The keys and values of a query's prompt head (``PromptTokenizer.head``), for
        :meth:`continued`."""
        import torch

        from rerank_plus.scoring.prefix_cache import run_prefix

        with torch.inference_mode():
            return run_prefix(self.decoder, self._tensor(ids[None, :]))

    def continued(self, prefix: Any, features: dict[str, np.ndarray]) -> np.ndarray:
        """One score per row of right-padded tails (``PromptTokenizer.tails``) read after
        ``prefix``: the weighted answer-token logits at each row's last real token."""
        import torch

        from rerank_plus.scoring.prefix_cache import batch_cache, tail_mask

        with torch.inference_mode():
            input_ids = self._tensor(features["input_ids"])
            last = self._tensor(features["attention_mask"].sum(axis=1) - 1)
            rows, width = input_ids.shape
            # the same positions for every row: one rotary table for the batch
            positions = prefix.length + torch.arange(width, device=self.device)
            mask = None  # the implementation builds its own causal mask after the cache
            if self.decoder.config._attn_implementation == "sdpa":
                mask = tail_mask(prefix.length, width, self.device)
            hidden = self.decoder(
                input_ids=input_ids,
                attention_mask=mask,
                position_ids=positions[None, :],
                cache=batch_cache(prefix, rows),
                use_cache=True,
            ).last_hidden_state
            return self._scores(hidden[torch.arange(rows, device=self.device), last])
