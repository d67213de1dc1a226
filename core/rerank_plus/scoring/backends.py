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
