"""Int8 for an exported transformer: which weight matrices to quantize, found by their place.

ONNX Runtime's dynamic quantization multiplies int8 weights by activations quantized per
batch with a single scale for the whole tensor, so a product whose input has a few very large
values loses the precision of all the others. In a BERT-style layer the feed-forward block is
where that hurts: quantizing its two matrices moved all-MiniLM-L6-v2's embeddings about four
times more than quantizing attention's (docs/benchmarks.md, "Bi-encoder on ONNX Runtime"),
and cost 0.7 nDCG@10 points on cranfield. So the int8 copy quantizes attention's input (query,
key, value) and output projections and any head, and keeps the feed-forward blocks float32.
The roles are read from the fused graph's structure (what produces a product's input, what
consumes its output), not from layer names, so the rule holds for BERT, RoBERTa, XLM-R,
ELECTRA and MiniLM alike; a graph the optimizer could not fuse has no recognized roles and is
quantized whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The fused attention operator: its weight is the query, key and value projection.
ATTENTION_INPUT = "attention input"
#: The product after attention (its input comes from the attention operator).
ATTENTION_OUTPUT = "attention output"
#: The feed-forward block's first matrix (its output goes into the GELU).
FEED_FORWARD_INPUT = "feed-forward input"
#: The feed-forward block's second matrix (its input is the GELU output).
FEED_FORWARD_OUTPUT = "feed-forward output"
#: Any other product with a weight matrix (a pooler, a classification head).
OTHER = "other"

#: Roles whose weight matrices stay float32 in the int8 copy.
FLOAT32_ROLES = frozenset({FEED_FORWARD_INPUT, FEED_FORWARD_OUTPUT})
#: Operators whose weights int8 may quantize. Embedding lookups (Gather) stay float32:
#: quantizing them costs fidelity and saves no time.
INT8_OPERATORS = ("MatMul", "Attention")

_ATTENTIONS = {"Attention", "MultiHeadAttention"}
_GELUS = {"Gelu", "BiasGelu", "FastGelu", "QuickGelu"}


def weight_roles(graph: Any) -> dict[str, str]:
    """The role of every ``MatMul`` and fused ``Attention`` node of an ONNX ``graph``, by
    node name."""
    producers = {output: node for node in graph.node for output in node.output}
    consumers: dict[str, list[Any]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    roles = {}
    for node in graph.node:
        if node.op_type in _ATTENTIONS:
            roles[node.name] = ATTENTION_INPUT
        elif node.op_type == "MatMul":
            source = producers.get(node.input[0])
            targets = {n.op_type for n in consumers.get(node.output[0], [])}
            if source is not None and source.op_type in _ATTENTIONS:
                roles[node.name] = ATTENTION_OUTPUT
            elif source is not None and source.op_type in _GELUS:
                roles[node.name] = FEED_FORWARD_OUTPUT
            elif targets & _GELUS:
                roles[node.name] = FEED_FORWARD_INPUT
            else:
                roles[node.name] = OTHER
    return roles


def quantize_int8(
    source: Path, target: Path, float32_roles: frozenset[str] = FLOAT32_ROLES
) -> None:
    """ONNX Runtime's dynamic int8 quantization of the weight matrices in ``source``, but for
    those whose role is in ``float32_roles``.

    One scale per output channel, and 7-bit weights (``reduce_range``): on CPUs without VNNI
    the u8 x s8 kernel adds pairs of products in 16 bits, which saturates with full-range
    weights (ONNX Runtime's quantization guide). Only products with a constant weight matrix
    are quantized (``MatMulConstBOnly``): attention's query x key and weights x value products
    stay float32.
    """
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    roles = weight_roles(onnx.load(str(source), load_external_data=False).graph)
    quantize_dynamic(
        str(source),
        str(target),
        weight_type=QuantType.QInt8,
        per_channel=True,
        reduce_range=True,
        op_types_to_quantize=list(INT8_OPERATORS),
        nodes_to_exclude=[name for name, role in roles.items() if role in float32_roles],
        extra_options={
            "MatMulConstBOnly": True,
            # The fused operators (com.microsoft domain) have no shape inference in onnx.
            "DefaultTensorType": onnx.TensorProto.FLOAT,
        },
    )
