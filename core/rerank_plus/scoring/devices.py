"""Where a neural model runs, and whether it may run in half precision there."""

from __future__ import annotations


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
