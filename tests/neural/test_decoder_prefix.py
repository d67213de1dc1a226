"""Generative rerankers share each query's prompt head: the template, instruction and query run
once, each batch of documents only its tails after them, right padded.

The reference here is the plainest one: the causal language model's own forward pass over one
whole prompt at a time (no padding, no cache, the vocabulary-wide logits), weighted into the
recipe's score. tests/neural/test_decoder_recipes.py compares the same path with each
family's reference code.
"""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest
from rerank_plus import CrossEncoderReranker
from rerank_plus.scoring.prefix_cache import SharedPrefix

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("sentence_transformers")

QUERIES = ["What is the capital of China?", "gravity", "how does a marathon runner train? 🏃"]
DOCUMENTS = [
    "The capital of China is Beijing.",
    "",
    " ".join(["the park river bridge"] * 30),
    "?! punctuation first",
    "\nnew line first, then the park",
    "北京是中国的首都",
    "coffee",
]
FAMILIES = ["qwen3_reranker_path", "gemma_reranker_path", "mxbai_reranker_path"]


def whole_prompts(reranker: CrossEncoderReranker, folder: str, query: str, documents) -> list:
    """Each prompt alone through the language model: the sigmoid of the weighted logits of
    the scored tokens at the last position."""
    loaded = reranker.load(folder)
    tokens, model = loaded.tokens, loaded.scorer.model
    (encoded,) = tokens.queries([query])
    weights = [weight for _, weight in tokens.recipe.scored]
    probabilities = []
    with torch.no_grad():
        for document in tokens.documents(documents):
            ids = torch.from_numpy(tokens.prompt(encoded, document))[None, :]
            logits = model(input_ids=ids).logits[0, -1]
            score = sum(
                w * float(logits[t]) for t, w in zip(tokens.scored_ids, weights, strict=True)
            )
            probabilities.append(1.0 / (1.0 + math.exp(-score)))
    return probabilities


def recorded(reranker: CrossEncoderReranker, folder: str) -> tuple[list, list[np.ndarray]]:
    """The heads the model runs and the attention masks of the tails' batches, as it runs
    them."""
    scorer = reranker.load(folder).scorer
    assert scorer.shares_prefix, "the model shares its prompt head"
    heads: list[SharedPrefix] = []
    masks: list[np.ndarray] = []
    prefix, continued = scorer.prefix, scorer.continued

    def recording_prefix(ids):
        heads.append(prefix(ids))
        return heads[-1]

    def recording_continued(head, features):
        masks.append(features["attention_mask"])
        return continued(head, features)

    scorer.prefix = recording_prefix  # type: ignore[method-assign]
    scorer.continued = recording_continued  # type: ignore[method-assign]
    return heads, masks


@pytest.mark.parametrize("family", FAMILIES)
def test_several_queries_in_one_call_equal_whole_prompts(request, family):
    folder = str(request.getfixturevalue(family))
    reranker = CrossEncoderReranker(folder, device="cpu", instruction="Find the answer")
    heads, masks = recorded(reranker, folder)
    lists = [DOCUMENTS, DOCUMENTS[::-1][:4], DOCUMENTS[2:]]
    results = reranker.score_many(QUERIES, lists, [{}, {}, {}])
    for query, documents, scores in zip(QUERIES, lists, results, strict=True):
        expected = whole_prompts(reranker, folder, query, documents)
        assert scores.relevance == pytest.approx(expected, abs=1e-5)
    assert len(heads) == len(QUERIES), "one head per query"
    assert any(not mask.all() for mask in masks), "tails of mixed lengths share a batch"
    for mask in masks:  # right padded: every row starts on a real token
        assert mask[:, 0].all() and all(np.all(np.diff(row) <= 0) for row in mask)


def test_one_document_batches_equal_whole_prompts(qwen3_reranker_path):
    folder = str(qwen3_reranker_path)
    reranker = CrossEncoderReranker(folder, device="cpu", batch_size=1)
    _, masks = recorded(reranker, folder)
    assert reranker.score(QUERIES[0], DOCUMENTS).relevance == pytest.approx(
        whole_prompts(reranker, folder, QUERIES[0], DOCUMENTS), abs=1e-5
    )
    assert reranker.score(QUERIES[1], ["coffee"]).relevance == pytest.approx(
        whole_prompts(reranker, folder, QUERIES[1], ["coffee"]), abs=1e-5
    )
    assert {len(mask) for mask in masks} == {1}


def test_a_query_that_fills_the_window_leaves_the_template_s_end(qwen3_reranker_path):
    """With max_length 100, a query of nearly the whole budget leaves the document no token:
    its tail is the template's end alone, read after the head; a longer query is refused."""
    folder = str(qwen3_reranker_path)
    reranker = CrossEncoderReranker(folder, device="cpu", max_length=100)
    tokens = reranker.load(folder).tokens
    query = "river"
    while tokens.queries([query])[0].length < tokens.room:
        query += " river"  # one token more
    words = query.count("river")
    (encoded,) = tokens.queries([query])
    document = tokens.documents(["the city park"])[0]
    assert tokens.tail(encoded, document).tolist() == list(tokens.suffix)
    assert reranker.score(query, ["the city park", ""]).relevance == pytest.approx(
        whole_prompts(reranker, folder, query, ["the city park", ""]), abs=1e-5
    )
    with pytest.raises(ValueError, match=r"The query 'river river.*shorten the query or raise"):
        reranker.score(" ".join(["river"] * (words + 1)), ["the city park"])


def test_a_long_query_is_cut_at_its_share_before_the_head_runs(gemma_reranker_path):
    """bge-reranker-v2-gemma keeps 3/4 of max_length for the query (its reference code's
    cut): the head holds the cut query, and the scores are the whole prompts'."""
    folder = str(gemma_reranker_path)
    reranker = CrossEncoderReranker(folder, device="cpu", max_length=64)
    heads, _ = recorded(reranker, folder)
    query = " ".join(["river"] * 200)
    tokens = reranker.load(folder).tokens
    documents = ["the park", " ".join(["the city"] * 100)]
    assert reranker.score(query, documents).relevance == pytest.approx(
        whole_prompts(reranker, folder, query, documents), abs=1e-5
    )
    (encoded,) = tokens.queries([query])
    assert encoded.length == 1 + 64 * 3 // 4  # BOS and the query's share
    assert heads[0].length == len(tokens.head(encoded))


def test_the_shared_head_is_never_written(qwen3_reranker_path):
    """Batch after batch and query after query, each head's keys and values stay as the head
    left them (batch 1, its own length)."""
    folder = str(qwen3_reranker_path)
    reranker = CrossEncoderReranker(folder, device="cpu", batch_size=2)
    heads, masks = recorded(reranker, folder)
    snapshots = []
    original = reranker.load(folder).scorer.prefix

    def snapshotting(ids):
        head = original(ids)
        snapshots.append([t.clone() for t in (*head.keys, *head.values)])
        return head

    reranker.load(folder).scorer.prefix = snapshotting  # type: ignore[method-assign]
    for query in QUERIES[:2]:
        reranker.score(query, DOCUMENTS)
    assert len(masks) >= 2 * math.ceil(len(DOCUMENTS) / 2), "several batches per head"
    assert len(heads) == 2
    for head, snapshot in zip(heads, snapshots, strict=True):
        for tensor, before in zip((*head.keys, *head.values), snapshot, strict=True):
            assert tensor.shape == before.shape and tensor.shape[0] == 1
            assert tensor.shape[2] == head.length
            assert torch.equal(tensor, before)


def test_eager_attention_builds_its_own_mask_after_the_head(qwen3_reranker_path):
    """Only SDPA gets the one broadcast mask; another attention implementation builds the
    causal mask for the cached head itself: the same scores."""
    folder = str(qwen3_reranker_path)
    sdpa = CrossEncoderReranker(folder, device="cpu")
    eager = CrossEncoderReranker(folder, device="cpu")
    eager.load(folder).scorer.model.set_attn_implementation("eager")
    assert eager.load(folder).scorer.decoder.config._attn_implementation == "eager"
    assert eager.score(QUERIES[0], DOCUMENTS).relevance == pytest.approx(
        sdpa.score(QUERIES[0], DOCUMENTS).relevance, abs=1e-5
    )


def test_a_model_with_a_sliding_window_scores_whole_left_padded_prompts(
    qwen3_reranker_path, tmp_path
):
    """A sliding window would have to drop head tokens as tails grow: such a model runs whole
    prompts, padded on the left. (This window is wider than the prompts: the same scores.)"""
    folder = tmp_path / "tiny-qwen3-reranker-sliding"
    shutil.copytree(qwen3_reranker_path, folder)
    config = transformers.AutoConfig.from_pretrained(folder)
    config.use_sliding_window, config.sliding_window, config.max_window_layers = True, 4096, 0
    config.layer_types = ["sliding_attention"] * config.num_hidden_layers
    config.save_pretrained(folder)
    sliding = CrossEncoderReranker(str(folder), device="cpu")
    scorer = sliding.load(str(folder)).scorer
    assert not scorer.shares_prefix
    masks: list[np.ndarray] = []
    logits = scorer.logits

    def recording(features):
        masks.append(features["attention_mask"])
        return logits(features)

    scorer.logits = recording  # type: ignore[method-assign]
    shared = CrossEncoderReranker(str(qwen3_reranker_path), device="cpu")
    assert sliding.score(QUERIES[0], DOCUMENTS).relevance == pytest.approx(
        shared.score(QUERIES[0], DOCUMENTS).relevance, abs=1e-5
    )
    assert masks and all(mask[:, -1].all() for mask in masks), "left padded"
    assert any(not mask.all() for mask in masks)
