"""Generative rerankers through CrossEncoderReranker: how the family is found, batching and
padding, truncation, the instruction, the caches, sentence-transformers' path for decoders of
no known family, and bad input."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from rerank_plus import CrossEncoderReranker, from_config
from rerank_plus.scoring.decoder_recipes import RECIPES, DecoderRecipe
from rerank_plus.scoring.prompt_tokens import PromptTokenizer

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("sentence_transformers")

QUERY = "What is the capital of China?"
DOCUMENTS = [
    "The capital of China is Beijing.",
    "coffee in the morning",
    " ".join(["the park river bridge"] * 30),
    "",
    "the marathon runner at the station",
    "The capital of China is Beijing.",  # a duplicate of the first
]


def probabilities(reranker: CrossEncoderReranker, query: str = QUERY, documents=DOCUMENTS):
    return reranker.score(query, documents).relevance


def record_batches(reranker: CrossEncoderReranker, model: str) -> list[np.ndarray]:
    """The attention masks of the batches of tails the model runs after their query's
    prompt head, as it runs them."""
    scorer = reranker.load(model).scorer
    assert scorer is not None and scorer.shares_prefix, "the fast path shares the head"
    masks: list[np.ndarray] = []
    original = scorer.continued

    def recording(prefix, features):
        masks.append(features["attention_mask"])
        return original(prefix, features)

    scorer.continued = recording  # type: ignore[method-assign]
    return masks


@pytest.fixture(scope="module")
def qwen3(qwen3_reranker_path) -> CrossEncoderReranker:
    return CrossEncoderReranker(str(qwen3_reranker_path), device="cpu")


def _copy(source, target, *, template: bool) -> str:
    shutil.copytree(source, target)
    if not template:
        (target / "chat_template.jinja").unlink(missing_ok=True)
    return str(target)


def test_a_plain_qwen3_folder_gets_the_qwen3_recipe(qwen3, qwen3_reranker_path, tmp_path):
    """No name, no chat template: the saved architecture (Qwen3ForCausalLM) decides."""
    folder = _copy(qwen3_reranker_path, tmp_path / "local-model", template=False)
    plain = CrossEncoderReranker(folder, device="cpu")
    tokens = plain.load(folder).tokens
    assert isinstance(tokens, PromptTokenizer) and tokens.recipe.name == "qwen3-reranker"
    assert probabilities(plain) == pytest.approx(probabilities(qwen3), abs=1e-6)


def test_a_decoder_with_a_pair_template_goes_through_predict(qwen3, qwen3_reranker_path, tmp_path):
    """A decoder of no known name whose chat template renders a (query, document) pair is
    scored by sentence-transformers, with the instruction as its prompt: same scores."""
    folder = _copy(qwen3_reranker_path, tmp_path / "own-template", template=True)
    instruction = "Find the passage that names the city"
    templated = CrossEncoderReranker(folder, device="cpu", instruction=instruction)
    loaded = templated.load(folder)
    assert loaded.tokens is None and loaded.prompt == instruction
    fast = CrossEncoderReranker(str(qwen3_reranker_path), device="cpu", instruction=instruction)
    expected = probabilities(fast)
    assert probabilities(templated) == pytest.approx(expected, abs=1e-5)
    # the template's tokens count in the length estimate that sizes the batches
    prompt = fast.load(str(qwen3_reranker_path)).tokens
    query, empty = prompt.queries([""])[0], prompt.documents([""])[0]
    assert loaded.template_tokens == prompt.length(query, empty)


def test_predict_for_decoders_also_cuts_the_document_tail(qwen3_reranker_path, tmp_path):
    """With a short max_length, sentence-transformers cuts the rendered prompt and writes the
    template's end back: the prompt the fast path builds, so the same scores."""
    folder = _copy(qwen3_reranker_path, tmp_path / "own-template", template=True)
    templated = CrossEncoderReranker(folder, device="cpu", max_length=90)
    fast = CrossEncoderReranker(str(qwen3_reranker_path), device="cpu", max_length=90)
    assert templated.load(folder).tokens is None
    assert probabilities(templated) == pytest.approx(probabilities(fast), abs=1e-5)


@pytest.mark.parametrize(("batch_size", "batch_tokens"), [(1, None), (2, None), (64, 1), (64, 300)])
def test_scores_do_not_depend_on_batching_or_padding(qwen3_reranker_path, batch_size, batch_tokens):
    folder = str(qwen3_reranker_path)
    base = CrossEncoderReranker(folder, device="cpu", cache_size=0, batch_size=1)
    other = CrossEncoderReranker(
        folder, device="cpu", cache_size=0, batch_size=batch_size, batch_tokens=batch_tokens
    )
    masks = record_batches(other, folder)
    assert probabilities(other) == pytest.approx(probabilities(base), abs=1e-5)
    for mask in masks:  # right padded: every row starts on a real token
        assert mask[:, 0].all()
        assert all(np.all(np.diff(row) <= 0) for row in mask)
    if batch_size > 1 and batch_tokens is None:
        assert any(not mask.all() for mask in masks), "mixed lengths share a batch"


def test_tails_are_padded_on_the_right_whatever_the_tokenizer_says(qwen3_reranker_path, tmp_path):
    """Tails are assembled and padded here, on the right (the prompt head runs before them),
    whatever side the saved tokenizer pads on."""
    folder = tmp_path / "pads-left"
    shutil.copytree(qwen3_reranker_path, folder)
    tokenizer = transformers.AutoTokenizer.from_pretrained(folder, padding_side="left")
    tokenizer.save_pretrained(folder)
    reranker = CrossEncoderReranker(str(folder), device="cpu", recipe="qwen3-reranker")
    masks = record_batches(reranker, str(folder))
    reranker.score("a query never seen", ["short", "a somewhat longer document about a river"])
    assert masks[-1][:, -1].tolist() in ([0, 1], [1, 0])
    assert masks[-1][:, 0].all()


def test_a_long_document_loses_its_tail_never_the_query_or_the_template(qwen3_reranker_path):
    folder = str(qwen3_reranker_path)
    reranker = CrossEncoderReranker(folder, device="cpu", max_length=100)
    tokens = reranker.load(folder).tokens
    query = tokens.queries([QUERY])[0]
    huge = " ".join(["the city park river bridge"] * 20_000)
    document = tokens.documents([huge])[0]
    ids = tokens.prompt(query, document)
    assert len(ids) == 100
    assert ids[-len(tokens.suffix) :].tolist() == list(tokens.suffix)
    head = len(tokens.prefix) + len(query.ids)
    assert ids[:head].tolist() == [*tokens.prefix, *query.ids.tolist()]
    assert (
        ids[head : -len(tokens.suffix)].tolist()
        == document.ids[: 100 - head - len(tokens.suffix)].tolist()
    )
    scores = reranker.score(QUERY, [huge, ""])
    assert all(0.0 < p < 1.0 for p in scores.relevance)


def test_a_query_longer_than_the_window_is_refused(qwen3_reranker_path) -> None:
    reranker = CrossEncoderReranker(str(qwen3_reranker_path), device="cpu", max_length=100)
    with pytest.raises(ValueError, match=r"The query 'river river.*shorten the query or raise"):
        reranker.score(" ".join(["river"] * 200), ["a document"])


def test_families_with_a_query_share_cut_the_query_instead(gemma_reranker_path) -> None:
    """bge-reranker-v2-gemma's reference keeps 3/4 of max_length for the query: a long query
    is cut there (as the model card does), and the document keeps the rest."""
    folder = str(gemma_reranker_path)
    reranker = CrossEncoderReranker(folder, device="cpu", max_length=64)
    tokens = reranker.load(folder).tokens
    query = tokens.queries([" ".join(["river"] * 200)])[0]
    assert query.length == 1 + 64 * 3 // 4  # BOS and the query's share
    assert 0.0 < reranker.score(" ".join(["river"] * 200), ["the park"]).relevance[0] < 1.0


def test_the_instruction_changes_the_prompt_and_is_part_of_the_cache_key(qwen3_reranker_path):
    folder = str(qwen3_reranker_path)
    default = CrossEncoderReranker(folder, device="cpu")
    instructed = CrossEncoderReranker(folder, device="cpu", instruction="Find the city")
    assert probabilities(default) != pytest.approx(probabilities(instructed), abs=1e-4)
    tokens = instructed.load(folder).tokens
    assert tokens.instruction == "Find the city"
    assert all("Find the city" in key for key in instructed._cache._values)
    masks = record_batches(instructed, folder)
    probabilities(instructed)
    assert masks == [], "every pair came from the cache"


def test_each_distinct_pair_is_scored_once_and_documents_are_tokenized_once(qwen3_reranker_path):
    folder = str(qwen3_reranker_path)
    reranker = CrossEncoderReranker(folder, device="cpu")
    masks = record_batches(reranker, folder)
    tokens = reranker.load(folder).tokens
    encode = tokens._encode
    encoded: list[str] = []

    def counting(texts):
        encoded.extend(texts)
        return encode(texts)

    tokens._encode = counting  # type: ignore[method-assign]
    reranker.score("first query", DOCUMENTS)
    reranker.score("second query", DOCUMENTS)
    scored = sum(len(mask) for mask in masks)
    assert scored == 2 * len(set(DOCUMENTS))
    document_pieces = [text for text in encoded if not text.startswith("<Instruct>")]
    assert len(document_pieces) == len(set(DOCUMENTS)), "documents tokenized in the first call"


def test_the_model_runs_in_float32_on_cpu_whatever_it_was_saved_in(qwen3_reranker_path, tmp_path):
    folder = tmp_path / "tiny-qwen3-reranker-bf16"
    model = transformers.AutoModelForCausalLM.from_pretrained(qwen3_reranker_path)
    model.to(torch.bfloat16).save_pretrained(folder)
    transformers.AutoTokenizer.from_pretrained(qwen3_reranker_path).save_pretrained(folder)
    assert json.loads((folder / "config.json").read_text())["dtype"] == "bfloat16"
    reranker = CrossEncoderReranker(str(folder), device="cpu")
    scorer = reranker.load(str(folder)).scorer
    assert next(scorer.model.parameters()).dtype == torch.float32


def test_a_model_of_no_known_family_is_refused_naming_the_families(
    tmp_path, minilm_path, qwen3_reranker_path
):
    folder = tmp_path / "tiny-llama"
    tokenizer = transformers.AutoTokenizer.from_pretrained(qwen3_reranker_path)
    tokenizer.chat_template = None
    tokenizer.save_pretrained(folder)
    config = transformers.LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=1,
    )  # fmt: skip
    transformers.LlamaForCausalLM(config).save_pretrained(folder)
    families = "bge-reranker-v2-gemma, mxbai-rerank-v2, qwen3-reranker"
    with pytest.raises(ValueError, match=rf"LlamaForCausalLM.*known family \({families}\)"):
        CrossEncoderReranker(str(folder), device="cpu").score("q", ["d"])
    with pytest.raises(ValueError, match=r"\(BertModel\) is neither a sequence-classification"):
        CrossEncoderReranker(minilm_path, device="cpu").score("q", ["d"])


def test_recipe_names_the_family_of_a_model_whatever_its_name(mxbai_reranker_path, tmp_path):
    folder = _copy(mxbai_reranker_path, tmp_path / "renamed", template=False)
    chosen = CrossEncoderReranker(folder, device="cpu", recipe="mxbai-rerank-v2")
    named = CrossEncoderReranker(str(mxbai_reranker_path), device="cpu")
    assert probabilities(chosen) == pytest.approx(probabilities(named), abs=1e-6)


def test_bad_options_and_models(qwen3_reranker_path, tiny_cross_encoder_path) -> None:
    with pytest.raises(TypeError, match=r"instruction must be a string or None .* got int: 3"):
        CrossEncoderReranker("m", instruction=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"recipe must be one of bge-reranker-v2-gemma, mxbai"):
        CrossEncoderReranker("m", recipe="qwen4")
    classifier = CrossEncoderReranker(str(tiny_cross_encoder_path), recipe="qwen3-reranker")
    with pytest.raises(ValueError, match=r"sequence classifier \(BertForSequenceClassification"):
        classifier.score("q", ["d"])
    onnx = CrossEncoderReranker(str(qwen3_reranker_path), device="cpu", backend="onnx")
    with pytest.raises(ValueError, match=r"generative reranker, which runs on PyTorch here"):
        onnx.score("q", ["d"])


def test_scored_tokens_must_be_single_tokens(qwen3_reranker_path) -> None:
    tokenizer = transformers.AutoTokenizer.from_pretrained(qwen3_reranker_path)
    recipe = RECIPES["qwen3-reranker"]
    odd = DecoderRecipe(**{**recipe.__dict__, "scored": (("definitely yes", 1.0),)})
    with pytest.raises(ValueError, match=r"scores the token 'definitely yes', but this tok"):
        PromptTokenizer(tokenizer, odd, None, 512)


def test_a_tokenizer_without_pad_token_pads_with_eos_and_without_either_is_refused(
    qwen3_reranker_path,
) -> None:
    recipe = RECIPES["qwen3-reranker"]
    tokenizer = transformers.AutoTokenizer.from_pretrained(qwen3_reranker_path)
    eos = tokenizer.eos_token_id
    tokenizer.pad_token = None
    assert PromptTokenizer(tokenizer, recipe, None, 512).pad_id == eos
    tokenizer.eos_token = None
    with pytest.raises(ValueError, match=r"neither a pad token nor an EOS token .* set tokenizer"):
        PromptTokenizer(tokenizer, recipe, None, 512)


def test_profiles_take_the_instruction_and_the_recipe(qwen3_reranker_path) -> None:
    folder = str(qwen3_reranker_path)
    config = {
        "reranker": {
            "provider": "cross-encoder",
            "model": folder,
            "device": "cpu",
            "instruction": "Find the city",
            "recipe": "qwen3-reranker",
        }
    }
    pipeline = from_config(config)
    direct = CrossEncoderReranker(folder, device="cpu", instruction="Find the city")
    expected = {i: p for i, p in enumerate(probabilities(direct))}
    ranked = pipeline.rank(QUERY, DOCUMENTS)
    assert {r.index: r.relevance_score for r in ranked} == pytest.approx(expected, abs=1e-6)
