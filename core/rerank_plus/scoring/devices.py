"""Where a neural model runs, and whether it may run in half precision there."""

from __future__ import annotations

from typing import Any


def pick_device(device: str | None) -> str:
    """``None`` picks CUDA, then Apple's MPS, then the CPU."""
    if device is not None:
        return device
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        return "mps"
    return "cpu"


def use_half_precision(device: str, wanted: bool) -> bool:
    """float16 only on CUDA: CPUs run it slower than float32, and MPS kernels vary by model."""
    return wanted and device.startswith("cuda")


def half_dtype(device: str, wanted: bool, config: Any) -> Any:
    """The half-precision torch dtype to run in on ``device``, or None to keep float32:
    bfloat16 for models saved in bfloat16 (float16 can overflow their activations), else
    float16."""
    if not use_half_precision(device, wanted):
        return None
    import torch

    saved = getattr(config, "dtype", None) or getattr(config, "torch_dtype", None)
    return torch.bfloat16 if saved in (torch.bfloat16, "bfloat16") else torch.float16
