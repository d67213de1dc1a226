"""backend="onnx": the tiny cross-encoder through the real export, ranked like PyTorch, exported
once, and a clear error without the extra."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from rerank_plus import CrossEncoderReranker, MissingExtraError
from rerank_plus.scoring import onnx_backend

pytest.importorskip("sentence_transformers")
pytest.importorskip("onnxruntime")

QUERY = "race"
DOCUMENTS = [
    "the park river bridge",
    "a marathon along the river",
    "coffee in the morning",
    "the marathon runner at the station",
    "painting in the museum",
    "the park river bridge",
    "🙂",
    " ".join(["the marathon river"] * 60),
]


@pytest.fixture
def exports(monkeypatch) -> list[str]:
    """The file names each ONNX export and quantization writes, in order."""
    calls: list[str] = []
    export, quantize = onnx_backend.export, onnx_backend.quantize_int8
    monkeypatch.setattr(onnx_backend, "export", lambda *a: (calls.append("export"), export(*a))[1])
    monkeypatch.setattr(
        onnx_backend, "quantize_int8", lambda *a: (calls.append("int8"), quantize(*a))[1]
    )
    return calls


def assert_clear_preferences_kept(scores, reference, margin: float) -> None:
    """Every pair the reference orders by more than ``margin`` keeps its order."""
    for i in range(len(reference)):
        for j in range(len(reference)):
            if reference[i] > reference[j] + margin:
                assert scores[i] > scores[j], (i, j, scores, reference)


def _order(scores) -> list[int]:
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


@pytest.mark.parametrize("quantize", [None, "int8"])
def test_onnx_ranks_like_torch_and_exports_once(
    tiny_cross_encoder_path, onnx_cache, exports, quantize
) -> None:
    model = str(tiny_cross_encoder_path)
    torch_scores = CrossEncoderReranker(model, device="cpu", backend="torch").score(
        QUERY, DOCUMENTS
    )
    onnx = CrossEncoderReranker(model, device="cpu", backend="onnx", quantize=quantize)
    scores = onnx.score(QUERY, DOCUMENTS)
    if quantize is None:
        assert _order(scores.relevance) == _order(torch_scores.relevance)
        assert np.allclose(scores.raw, torch_scores.raw, atol=1e-4)
    else:  # int8 moves the tiny model's saturated logits; every clear preference stays
        assert_clear_preferences_kept(scores.raw, torch_scores.raw, margin=1.0)
    assert exports in (["export"], ["int8"], ["export", "int8"])
    assert any(onnx_cache.rglob("model-int8.onnx" if quantize else "model.onnx"))
    exports.clear()
    again = CrossEncoderReranker(model, device="cpu", backend="onnx", quantize=quantize)
    assert np.allclose(again.score(QUERY, DOCUMENTS).raw, scores.raw, atol=1e-6)
    assert exports == []  # the second load reads the cached export


def test_two_label_models_on_onnx(two_label_cross_encoder_path, onnx_cache) -> None:
    model = str(two_label_cross_encoder_path)
    expected = CrossEncoderReranker(model, device="cpu").score(QUERY, DOCUMENTS)
    got = CrossEncoderReranker(model, device="cpu", backend="onnx").score(QUERY, DOCUMENTS)
    assert np.allclose(got.relevance, expected.relevance, atol=1e-5)


def test_missing_onnxruntime_names_the_extra(tiny_cross_encoder_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # what a missing install looks like
    reranker = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu", backend="onnx")
    with pytest.raises(MissingExtraError, match=r"pip install rerank-plus\[onnx\]"):
        reranker.rank(QUERY, DOCUMENTS)
    assert onnx_backend.default_backend("cpu", None) == "torch"


def test_a_model_that_cannot_be_exported_says_how_to_fall_back(
    tiny_cross_encoder_path, onnx_cache, monkeypatch
) -> None:
    def broken(*args):
        raise RuntimeError("unsupported operator aten::frobnicate")

    monkeypatch.setattr(onnx_backend, "export", broken)
    monkeypatch.setattr(onnx_backend, "cache_folder", lambda: onnx_cache / "broken")
    reranker = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cpu", backend="onnx")
    with pytest.raises(Exception, match=r"aten::frobnicate.*backend='torch'"):
        reranker.rank(QUERY, DOCUMENTS)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "tensorrt"}, "backend must be one of torch, onnx"),
        ({"quantize": "int4"}, "quantize must be one of int8"),
        ({"backend": "torch", "quantize": "int8"}, "pass backend='onnx'"),
    ],
)
def test_bad_backend_options(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        CrossEncoderReranker("any", **options)


def test_onnx_is_refused_on_a_gpu_device(tiny_cross_encoder_path) -> None:
    reranker = CrossEncoderReranker(str(tiny_cross_encoder_path), device="cuda", backend="onnx")
    with pytest.raises(ValueError, match="device='cpu'"):
        reranker.rank(QUERY, DOCUMENTS)


@pytest.mark.parametrize("quantize", [None, "int8"])
def test_bi_encoder_on_onnx_ranks_like_torch(minilm_path, onnx_cache, exports, quantize) -> None:
    from rerank_plus import BiEncoderReranker

    documents = [
        "A cat sleeps on the sofa.",
        "Kittens nap a lot during the day.",
        "Tax rules changed this year.",
        "The stock market fell on Monday.",
        "🙂",
    ]
    torch_scores = BiEncoderReranker(minilm_path, device="cpu").score("cats sleeping", documents)
    onnx = BiEncoderReranker(minilm_path, device="cpu", backend="onnx", quantize=quantize)
    scores = onnx.score("cats sleeping", documents)
    if quantize is None:
        assert _order(scores.raw) == _order(torch_scores.raw)
        assert np.allclose(scores.raw, torch_scores.raw, atol=1e-4)
    else:  # int8 moves cosines by a few hundredths; every clear preference stays
        assert_clear_preferences_kept(scores.raw, torch_scores.raw, margin=0.1)
    exports.clear()
    again = BiEncoderReranker(minilm_path, device="cpu", backend="onnx", quantize=quantize)
    assert np.allclose(again.score("cats sleeping", documents).raw, scores.raw, atol=1e-6)
    assert exports == []


def test_the_cached_graph_is_fused_and_the_model_keeps_its_attention(
    tiny_cross_encoder_path, onnx_cache
) -> None:
    """The export goes through the transformer optimizer (fused attention and LayerNorms), and
    the int8 copy quantizes the weight matrices only, not the embeddings."""
    import onnx
    from sentence_transformers import CrossEncoder

    encoder = CrossEncoder(str(tiny_cross_encoder_path), device="cpu")
    before = encoder.model.config._attn_implementation
    path = onnx_backend.exported(
        "tiny", encoder.model, "int8", onnx_backend.input_names(encoder.model)
    )
    assert encoder.model.config._attn_implementation == before  # switched back after export
    fused = {node.op_type for node in onnx.load(str(path.parent / "model.onnx")).graph.node}
    assert {"Attention", "SkipLayerNormalization"} <= fused
    quantized = onnx.load(str(path)).graph.node
    assert any(node.op_type in ("QAttention", "MatMulInteger") for node in quantized)
    embeddings = [n for n in quantized if n.op_type == "EmbedLayerNormalization"]
    assert embeddings, "the embeddings stay float32 in their fused operator"
    assert not any(path.parent.glob("*.part")) and not any(path.parent.glob("*exported*"))


def test_a_new_export_recipe_does_not_read_old_exports(
    tiny_cross_encoder_path, onnx_cache, exports, monkeypatch
) -> None:
    model = str(tiny_cross_encoder_path)
    CrossEncoderReranker(model, device="cpu", backend="onnx").score(QUERY, DOCUMENTS)
    old = set(onnx_cache.rglob("model.onnx"))
    monkeypatch.setattr(onnx_backend, "RECIPE", onnx_backend.RECIPE + ", changed")
    exports.clear()
    CrossEncoderReranker(model, device="cpu", backend="onnx").score(QUERY, DOCUMENTS)
    assert exports == ["export"]
    assert len(set(onnx_cache.rglob("model.onnx")) - old) == 1  # a folder of its own


def test_int8_keeps_the_feed_forward_blocks_in_float32(tiny_cross_encoder_path, onnx_cache) -> None:
    """The roles come from the fused graph's structure: one of each per layer; the int8 copy
    quantizes attention's projections and keeps the feed-forward blocks float32."""
    from collections import Counter

    import onnx
    from rerank_plus.scoring import onnx_int8
    from sentence_transformers import CrossEncoder

    encoder = CrossEncoder(str(tiny_cross_encoder_path), device="cpu")
    path = onnx_backend.exported(
        "tiny", encoder.model, "int8", onnx_backend.input_names(encoder.model)
    )
    roles = onnx_int8.weight_roles(onnx.load(str(path.parent / "model.onnx")).graph)
    layers = encoder.model.config.num_hidden_layers
    counts = Counter(roles.values())
    for role in (
        onnx_int8.ATTENTION_INPUT,
        onnx_int8.ATTENTION_OUTPUT,
        onnx_int8.FEED_FORWARD_INPUT,
        onnx_int8.FEED_FORWARD_OUTPUT,
    ):
        assert counts[role] == layers, (role, counts)
    quantized = onnx.load(str(path)).graph.node
    still_float = {node.name for node in quantized if node.op_type == "MatMul"}
    expected = {name for name, role in roles.items() if role in onnx_int8.FLOAT32_ROLES}
    assert still_float == expected
    assert {
        onnx_int8.FEED_FORWARD_INPUT,
        onnx_int8.FEED_FORWARD_OUTPUT,
    } == onnx_int8.FLOAT32_ROLES
    assert sum(node.op_type == "QAttention" for node in quantized) == layers


def test_a_graph_without_fused_roles_is_quantized_whole() -> None:
    """A product the rules do not place (no attention or GELU around it) counts as "other",
    which int8 quantizes."""
    from onnx import TensorProto, helper
    from rerank_plus.scoring import onnx_int8

    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["x", "w1"], ["h"], name="first"),
            helper.make_node("Relu", ["h"], ["r"], name="act"),
            helper.make_node("MatMul", ["r", "w2"], ["y"], name="second"),
        ],
        "plain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
    )
    assert onnx_int8.weight_roles(graph) == {"first": "other", "second": "other"}
