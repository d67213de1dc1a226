"""Pairs assembled from cached token ids equal the tokenizer's own pair encoding, id for id.

Two tokenizer families: BERT's WordPiece (``[CLS] A [SEP] B [SEP]``, type ids 0/1; the real
uncased tokenizer of all-MiniLM-L6-v2) and an XLM-R-style sentencepiece Unigram tokenizer
(``<s> A </s></s> B </s>``, type ids all 0; trained here with the ``tokenizers`` library on the
collections' own text, since no XLM-R tokenizer ships offline). Texts: a sample of queries and
documents of each of the nine public sets, short windows so truncation happens often.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from rerank_plus.scoring.pair_tokens import PairTokenizer, longest_first

transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

SETS = (
    "cranfield",
    "piaf-fr",
    "xquad-ar",
    "xquad-de",
    "xquad-el",
    "xquad-en",
    "xquad-es",
    "xquad-th",
    "xquad-zh",
)
PER_SET = 40  # pairs per set and tokenizer
MAX_LENGTH = 96


def _texts(path: Path, field: str = "text") -> list[str]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line)[field] for line in handle]


@pytest.fixture(scope="module")
def collections(eval_root) -> dict[str, tuple[list[str], list[str]]]:
    """A seeded sample of each set's queries and documents (documents with their title)."""
    rng = random.Random(0)
    sample = {}
    for name in SETS:
        queries = rng.sample(_texts(eval_root / name / "queries.jsonl"), PER_SET)
        with (eval_root / name / "corpus.jsonl").open(encoding="utf-8") as handle:
            corpus = [json.loads(line) for line in handle]
        documents = [f"{d['title']} {d['text']}".strip() for d in rng.sample(corpus, PER_SET)]
        sample[name] = (queries, documents)
    return sample


@pytest.fixture(scope="module")
def bert_tokenizer(minilm_path):
    return transformers.AutoTokenizer.from_pretrained(minilm_path)


@pytest.fixture(scope="module")
def xlmr_style_tokenizer(collections):
    """A sentencepiece-style Unigram tokenizer with XLM-R's normalization, pre-tokenizer and
    pair template, trained on the sampled texts of all nine sets."""
    from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers, processors
    from tokenizers.trainers import UnigramTrainer

    backend = Tokenizer(models.Unigram())
    backend.normalizer = normalizers.Sequence(
        [normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    backend.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    specials = ["<s>", "<pad>", "</s>", "<unk>"]
    trainer = UnigramTrainer(vocab_size=3000, special_tokens=specials, unk_token="<unk>")
    texts = [text for queries, documents in collections.values() for text in queries + documents]
    backend.train_from_iterator(texts, trainer)
    backend.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", 0), ("</s>", 2)],
    )
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token="<s>",
        eos_token="</s>",
        sep_token="</s>",
        cls_token="<s>",
        pad_token="<pad>",
        unk_token="<unk>",
        model_input_names=["input_ids", "attention_mask"],
    )


def _check_set(tokenizer, queries: list[str], documents: list[str]) -> None:
    pairs = PairTokenizer(tokenizer, MAX_LENGTH)
    rng = random.Random(1)
    # Mostly (query, document); a few documents as long queries, so both sides get cut.
    firsts = queries[:-8] + documents[:8]
    seconds = [rng.choice(documents) for _ in firsts]
    expected = tokenizer(firsts, seconds, truncation="longest_first", max_length=MAX_LENGTH)
    first_tokens = pairs.encode(firsts)
    for cached in (False, True):  # tokenized, then from the token cache
        second_tokens = pairs.documents(seconds)
        for i, (first, second) in enumerate(zip(first_tokens, second_tokens, strict=True)):
            ids, types = pairs.pair(first, second)
            assert ids.tolist() == expected["input_ids"][i], (cached, firsts[i], seconds[i])
            if "token_type_ids" in expected:
                assert types.tolist() == expected["token_type_ids"][i]
            else:
                assert not pairs.with_types
            assert pairs.length(first, second) == len(ids)


@pytest.mark.parametrize("family", ["bert", "xlmr"])
def test_assembled_pairs_equal_the_tokenizer_on_every_public_set(
    family, collections, bert_tokenizer, xlmr_style_tokenizer
) -> None:
    tokenizer = bert_tokenizer if family == "bert" else xlmr_style_tokenizer
    for queries, documents in collections.values():
        _check_set(tokenizer, queries, documents)


def test_the_templates_of_both_families(bert_tokenizer, xlmr_style_tokenizer) -> None:
    bert = PairTokenizer(bert_tokenizer, 32).template
    assert (bert.prefix, bert.middle, bert.suffix) == ((101,), (102,), (102,))
    assert (bert.first_type, bert.second_type, bert.suffix_types) == (0, 1, (1,))
    xlmr = PairTokenizer(xlmr_style_tokenizer, 32).template
    assert (xlmr.prefix, xlmr.middle, xlmr.suffix) == ((0,), (2, 2), (2,))
    assert xlmr.added == 4


@pytest.mark.parametrize(
    "document", ["", "🙂🎉🚀", "Le café est fermé. 東京は雨です。 المكتبة مغلقة", "word " * 3000]
)
def test_odd_documents_pad_like_the_tokenizer(bert_tokenizer, document) -> None:
    pairs = PairTokenizer(bert_tokenizer, 64)
    queries = ["short query", "a much longer query about the weather in Tokyo and Paris"]
    expected = bert_tokenizer(
        queries, [document] * 2, truncation="longest_first", max_length=64, padding=True
    )
    encoded = list(zip(pairs.encode(queries), pairs.documents([document] * 2), strict=True))
    batch = pairs.batch([0, 1], encoded)
    assert batch.features["input_ids"].tolist() == expected["input_ids"]
    assert batch.features["attention_mask"].tolist() == expected["attention_mask"]
    assert batch.features["token_type_ids"].tolist() == expected["token_type_ids"]


def test_the_token_cache_is_bounded_and_can_be_off(bert_tokenizer) -> None:
    pairs = PairTokenizer(bert_tokenizer, 64, cache_size=2)
    pairs.documents(["one", "two", "three"])
    assert len(pairs._documents) == 2
    off = PairTokenizer(bert_tokenizer, 64, cache_size=0)
    first, again = off.documents(["same text", "same text"])
    assert np.array_equal(first.ids, again.ids) and len(off._documents) == 0


def test_longest_first_cuts_the_longer_side_then_halves() -> None:
    assert longest_first(5, 10, 20) == (5, 10)
    assert longest_first(5, 30, 20) == (5, 15)
    assert longest_first(30, 5, 20) == (15, 5)
    assert longest_first(30, 40, 21) == (10, 11)
    assert longest_first(40, 30, 21) == (11, 10)


def test_a_slow_tokenizer_is_refused() -> None:
    class NotFast:
        pass

    with pytest.raises(ValueError, match="not a fast"):
        PairTokenizer(NotFast(), 64)
