"""ONNX Runtime for neural rerankers on CPU: exported once, optionally int8, cached on disk.

sentence-transformers' own ONNX backend goes through optimum, whose releases pin
transformers 4 (pip resolves ``sentence-transformers[onnx]`` only by downgrading the whole
stack), so the model is exported here with ``torch.onnx`` and run with ``onnxruntime``
directly; ``quantize="int8"`` applies ONNX Runtime's dynamic quantization (int8 weights,
activations quantized per batch), the recipe FlashRank and sentence-transformers ship for CPUs.

Exports are cached under ``$RERANK_PLUS_CACHE/onnx`` (default ``~/.cache/rerank-plus/onnx``),
keyed by the model's name, configuration and a fingerprint of its weights, so the export
happens once per model and a changed model is exported again.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from rerank_plus.errors import MissingExtraError, ModelLoadError

#: ONNX operator set of the export: scaled-dot-product attention needs 14 or later.
OPSET = 17
#: Values hashed from each end of every weight tensor: enough to tell two models apart
#: without reading a whole large model.
FINGERPRINT_VALUES = 256


def require_onnxruntime(feature: str) -> Any:
    try:
        import onnxruntime
    except ImportError as error:
        raise MissingExtraError("onnxruntime", "onnx", feature) from error
    return onnxruntime


def onnx_available() -> bool:
    try:
        require_onnxruntime("")
    except MissingExtraError:
        return False
    return True


def default_backend(device: str, quantize: str | None) -> str:
    """The backend ``backend=None`` picks: ONNX Runtime for int8 and, when it is installed,
    on the CPU (faster there at equal scores, see docs/benchmarks.md); PyTorch elsewhere
    (float16 on CUDA)."""
    if quantize is not None:
        return "onnx"
    return "torch"


def cache_folder() -> Path:
    """Where exported models are kept: ``$RERANK_PLUS_CACHE/onnx`` or
    ``~/.cache/rerank-plus/onnx``."""
    root = os.environ.get("RERANK_PLUS_CACHE") or Path.home() / ".cache" / "rerank-plus"
    return Path(root) / "onnx"


def fingerprint(name: str, model: Any) -> str:
    """A key that changes when the model's name, configuration (a Hugging Face config, or the
    modules of a sentence-transformers model) or weights change."""
    digest = hashlib.blake2b(digest_size=12)
    digest.update(f"{name}\n{type(model).__name__}\nopset {OPSET}\n".encode())
    config = getattr(model, "config", None)
    described = config.to_json_string(use_diff=False) if config is not None else repr(model)
    digest.update(described.encode())
    for key, tensor in model.state_dict().items():
        values = tensor.detach().float().flatten()
        ends = np.concatenate(
            [values[:FINGERPRINT_VALUES].numpy(), values[-FINGERPRINT_VALUES:].numpy()]
        )
        digest.update(f"{key}{tuple(tensor.shape)}".encode())
        digest.update(ends.tobytes())
    return digest.hexdigest()


def input_names(model: Any) -> list[str]:
    """The inputs the model's forward takes, of those a tokenizer makes."""
    import inspect

    accepted = inspect.signature(model.forward).parameters
    return [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in accepted]


def classifier_logits(model: Any, inputs: dict[str, Any]) -> Any:
    """A Hugging Face sequence classifier's output: its logits."""
    return model(**inputs).logits


def sentence_embedding(model: Any, inputs: dict[str, Any]) -> Any:
    """A sentence-transformers model's output: its pooled sentence embedding."""
    return model(inputs)["sentence_embedding"]


def export(model: Any, names: list[str], path: Path, output: Callable[..., Any]) -> None:
    """Write ``output(model, inputs)`` as an ONNX graph with dynamic batch and sequence axes."""
    import torch

    class Output(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return output(self.model, dict(zip(names, inputs, strict=True)))

    example = tuple(torch.ones((2, 8), dtype=torch.int64) for _ in names)
    if "attention_mask" in names:  # a padded row, so the graph keeps the masking path
        example[names.index("attention_mask")][1, 5:] = 0
    axes = {name: {0: "pairs", 1: "tokens"} for name in names}
    with torch.inference_mode(False), torch.no_grad(), warnings.catch_warnings():
        # The tracer warns about shape checks it freezes; they hold for every batch shape.
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Output().eval(),
            example,
            str(path),
            dynamo=False,
            input_names=names,
            output_names=["output"],
            dynamic_axes={**axes, "output": {0: "pairs"}},
            opset_version=OPSET,
        )


def quantize_int8(source: Path, target: Path) -> None:
    """ONNX Runtime's dynamic int8 quantization of ``source`` into ``target``, one scale per
    output channel (closer to float32 than one scale per tensor on the MiniLM fidelity check)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8, per_channel=True)


def exported(
    name: str,
    model: Any,
    quantize: str | None,
    names: list[str],
    output: Callable[..., Any] = classifier_logits,
) -> Path:
    """The cached ONNX file for ``model`` (exported, and quantized, on first use)."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(name).name or name)[-60:]
    folder = cache_folder() / f"{slug}-{fingerprint(name, model)}"
    fp32 = folder / "model.onnx"
    target = folder / "model-int8.onnx" if quantize == "int8" else fp32
    if target.exists():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    model = model.float().cpu().eval()
    try:
        if not fp32.exists():
            _atomic(fp32, lambda path: export(model, names, path, output))
        if target != fp32:
            _atomic(target, lambda path: quantize_int8(fp32, path))
    except Exception as error:
        raise ModelLoadError(
            f"Could not export the model {name!r} to ONNX: {str(error).rstrip('. ')}. "
            "Run it with backend='torch' instead (the default on GPUs)."
        ) from error
    return target


def _atomic(path: Path, write: Any) -> None:
    """Write ``path`` through a temporary file in the same folder, so a reader never sees a
    half-written model (two processes exporting at once each finish their own copy)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".onnx.part")
    os.close(handle)
    try:
        write(Path(temporary))
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


class OnnxModel:
    """An exported model in an ONNX Runtime session on the CPU (thread-safe: a session may
    run from several threads at once). ``logits`` makes it a cross-encoder's pair scorer."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.inputs = [item.name for item in session.get_inputs()]

    def run(self, features: dict[str, Any]) -> np.ndarray:
        feeds = {name: np.asarray(features[name], dtype=np.int64) for name in self.inputs}
        (output,) = self.session.run(["output"], feeds)
        return np.asarray(output, dtype=np.float32)

    def logits(self, features: dict[str, np.ndarray]) -> np.ndarray:
        return self.run(features)


def onnx_model(
    name: str,
    model: Any,
    quantize: str | None,
    names: list[str] | None = None,
    output: Callable[..., Any] = classifier_logits,
) -> OnnxModel:
    """``model`` on ONNX Runtime (CPU), from the export cache. ``names`` are the inputs (by
    default those of a Hugging Face model's forward); ``output`` what the graph returns."""
    onnxruntime = require_onnxruntime(f"backend='onnx' for {name!r}")
    path = exported(name, model, quantize, names or input_names(model), output)
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return OnnxModel(session)
