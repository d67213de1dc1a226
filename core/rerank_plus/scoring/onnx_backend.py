"""ONNX Runtime for neural rerankers on CPU: exported once, optionally int8, cached on disk.

sentence-transformers' own ONNX backend goes through optimum, whose releases pin
transformers 4 (pip resolves ``sentence-transformers[onnx]`` only by downgrading the whole
stack), so the model is exported here with ``torch.onnx`` and run with ``onnxruntime``
directly. The export uses the model's plain ("eager") attention, whose graph ONNX Runtime's
transformer optimizer recognizes: it fuses each layer's attention, GELU and residual
LayerNorms into single operators (what optimum's ``optimize`` does), which runs faster on the
CPU at the same scores. ``quantize="int8"`` then applies ONNX Runtime's dynamic quantization to
the weight matrices of that fused graph (int8 weights, activations quantized per batch), the
recipe FlashRank and sentence-transformers ship for CPUs, but for the feed-forward blocks'
second matrices (see ``onnx_int8``).

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
from rerank_plus.scoring.onnx_int8 import quantize_int8

#: ONNX operator set of the export: scaled-dot-product attention needs 14 or later.
OPSET = 17
#: What the cached files are made with; changing the recipe changes the cache key, so no
#: export made by an older recipe is read back.
RECIPE = (
    "eager attention, transformer optimizer, int8 MatMul weights reduce_range, "
    "feed-forward blocks float32"
)
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
    """The backend ``backend=None`` picks: ONNX Runtime when int8 is asked for, PyTorch
    otherwise (float16 on CUDA). On the CPUs measured so far (AVX2, no VNNI) ONNX Runtime fp32
    scored like PyTorch but was not reliably faster, see docs/benchmarks.md."""
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
    digest.update(f"{name}\n{type(model).__name__}\nopset {OPSET}\n{RECIPE}\n".encode())
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
    restore = eager_attention(model)
    try:
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
    finally:
        restore()


def eager_attention(model: Any) -> Callable[[], None]:
    """Switch every Hugging Face model inside ``model`` to its plain attention (the graph the
    transformer optimizer fuses; scaled-dot-product attention exports to a pattern it does
    not); returns what switches them back."""
    switched = []
    for module in model.modules():
        config = getattr(module, "config", None)
        current = getattr(config, "_attn_implementation", None)
        if hasattr(module, "set_attn_implementation") and current not in (None, "eager"):
            module.set_attn_implementation("eager")
            switched.append((module, current))

    def restore() -> None:
        for module, implementation in switched:
            module.set_attn_implementation(implementation)

    return restore


def transformer_shape(model: Any) -> tuple[int, int] | None:
    """``(attention heads, hidden size)`` of the first Hugging Face encoder inside ``model``,
    or None when it has none (the optimizer then only runs its generic fusions)."""
    for module in model.modules():
        config = getattr(module, "config", None)
        heads = getattr(config, "num_attention_heads", None)
        hidden = getattr(config, "hidden_size", None)
        if isinstance(heads, int) and isinstance(hidden, int):
            return heads, hidden
    return None


def optimize(source: Path, target: Path, shape: tuple[int, int] | None) -> None:
    """ONNX Runtime's transformer optimizer (BERT-like encoders: BERT, RoBERTa, XLM-R, MiniLM,
    ELECTRA): fused attention, embedding and skip LayerNorms, bias+GELU. The fusions are exact
    rewrites; a graph it finds nothing to fuse in is written unchanged."""
    from onnxruntime.transformers.optimizer import optimize_model

    heads, hidden = shape or (0, 0)  # 0: read from the graph
    optimized = optimize_model(str(source), model_type="bert", num_heads=heads, hidden_size=hidden)
    optimized.save_model_to_file(str(target))


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
            _atomic(fp32, lambda path: export_optimized(model, names, path, output))
        if target != fp32:
            _atomic(target, lambda path: quantize_int8(fp32, path))
    except Exception as error:
        raise ModelLoadError(
            f"Could not export the model {name!r} to ONNX: {str(error).rstrip('. ')}. "
            "Run it with backend='torch' instead (the default on GPUs)."
        ) from error
    return target


def export_optimized(model: Any, names: list[str], path: Path, output: Callable[..., Any]) -> None:
    """The export, through the transformer optimizer, into ``path``."""
    raw = path.with_name(path.name + ".exported.onnx")
    try:
        export(model, names, raw, output)
        optimize(raw, path, transformer_shape(model))
    finally:
        raw.unlink(missing_ok=True)


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
