"""Each generative-reranker recipe against its family's reference procedure, written out here
from the model card (or the family's package), on tiny offline models of the family's shape:
the same token ids for every prompt, the same probabilities within 1e-5.

- Qwen3-Reranker: the Qwen/Qwen3-Reranker-0.6B model card's transformers code;
- bge-reranker-v2-gemma: the BAAI/bge-reranker-v2-gemma model card's ``get_inputs``;
- mxbai-rerank-v2: ``MxbaiRerankV2.prepare_inputs`` and ``forward`` of the mxbai-rerank package.

Texts are chosen where tokenizing pieces apart could go wrong: queries ending in punctuation
(the Qwen2 regex glues "?" to a following newline), documents starting with spaces, newlines,
digits or punctuation, emoji, CJK, braces, a chat special token, empty documents, and documents
long enough to be cut.
"""

from __future__ import annotations

import pytest
from rerank_plus import CrossEncoderReranker

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("sentence_transformers")

QUERIES = [
    "What is the capital of China?",
    "explain gravity",
    "how?  ",
    "marathon {query} runner 🏃",
]
DOCUMENTS = [
    "The capital of China is Beijing.",
    "Gravity is a force that attracts two bodies towards each other.",
    " leading space and a river",
    "\nnew line first, then the park",
    "42 is the answer",
    "?! punctuation first",
    "北京是中国的首都",
    "🙂🙂🙂",
    "",
    "a <|im_end|> inside the text {document}",
    " ".join(["the city park river bridge music book"] * 40),
]
INSTRUCTION = "Given a question, find the passage that answers it"


def _pairs() -> list[tuple[str, str]]:
    return [(q, d) for q in QUERIES for d in DOCUMENTS]


def _rows(inputs) -> list[list[int]]:
    """The unpadded ids of each row of a padded batch."""
    return [
        [int(t) for t, keep in zip(ids, mask, strict=True) if keep]
        for ids, mask in zip(inputs["input_ids"], inputs["attention_mask"], strict=True)
    ]


# --- Qwen3-Reranker: the model card's code ---------------------------------------------------


def qwen3_reference(folder, pairs, instruction=None, max_length=8192):
    tokenizer = transformers.AutoTokenizer.from_pretrained(folder, padding_side="left")
    model = transformers.AutoModelForCausalLM.from_pretrained(folder).eval()
    token_false_id = tokenizer.convert_tokens_to_ids("no")
    token_true_id = tokenizer.convert_tokens_to_ids("yes")
    prefix = (
        "<|im_start|>system\nJudge whether the Document meets the requirements based on the "
        'Query and the Instruct provided. Note that the answer can only be "yes" or "no".'
        "<|im_end|>\n<|im_start|>user\n"
    )
    suffix = "<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
    prefix_tokens = tokenizer.encode(prefix, add_special_tokens=False)
    suffix_tokens = tokenizer.encode(suffix, add_special_tokens=False)

    def format_instruction(instruction, query, doc):
        if instruction is None:
            instruction = (
                "Given a web search query, retrieve relevant passages that answer the query"
            )
        return f"<Instruct>: {instruction}\n<Query>: {query}\n<Document>: {doc}"

    texts = [format_instruction(instruction, q, d) for q, d in pairs]
    inputs = tokenizer(
        texts,
        padding=False,
        truncation="longest_first",
        return_attention_mask=False,
        max_length=max_length - len(prefix_tokens) - len(suffix_tokens),
    )
    for i, ele in enumerate(inputs["input_ids"]):
        inputs["input_ids"][i] = prefix_tokens + ele + suffix_tokens
    inputs = tokenizer.pad(inputs, padding=True, return_tensors="pt", max_length=max_length)
    with torch.no_grad():
        batch_scores = model(**inputs).logits[:, -1, :]
    true_vector = batch_scores[:, token_true_id]
    false_vector = batch_scores[:, token_false_id]
    batch_scores = torch.stack([false_vector, true_vector], dim=1)
    batch_scores = torch.nn.functional.log_softmax(batch_scores, dim=1)
    return _rows(inputs), batch_scores[:, 1].exp().tolist()


# --- bge-reranker-v2-gemma: the model card's get_inputs --------------------------------------


def _prepare_for_model_only_second(first, second, max_length):
    """``tokenizer.prepare_for_model(first, second, truncation="only_second", max_length=...,
    add_special_tokens=False)`` (gone from transformers 5's fast tokenizers): the second
    sequence loses its tail until the two fit, or stays whole if it cannot make them fit."""
    remove = len(first) + len(second) - max_length
    if remove > 0 and len(second) > remove:
        second = second[:-remove]
    return first + second


def bge_gemma_reference(folder, pairs, prompt=None, max_length=1024):
    tokenizer = transformers.AutoTokenizer.from_pretrained(folder)
    model = transformers.AutoModelForCausalLM.from_pretrained(folder).eval()
    yes_loc = tokenizer("Yes", add_special_tokens=False)["input_ids"][0]
    if prompt is None:
        prompt = (
            "Given a query A and a passage B, determine whether the passage contains an answer "
            "to the query by providing a prediction of either 'Yes' or 'No'."
        )
    sep = "\n"
    prompt_inputs = tokenizer(prompt, return_tensors=None, add_special_tokens=False)["input_ids"]
    sep_inputs = tokenizer(sep, return_tensors=None, add_special_tokens=False)["input_ids"]
    inputs = []
    for query, passage in pairs:
        query_inputs = tokenizer(
            f"A: {query}",
            return_tensors=None,
            add_special_tokens=False,
            max_length=max_length * 3 // 4,
            truncation=True,
        )
        passage_inputs = tokenizer(
            f"B: {passage}",
            return_tensors=None,
            add_special_tokens=False,
            max_length=max_length,
            truncation=True,
        )
        ids = _prepare_for_model_only_second(
            [tokenizer.bos_token_id] + query_inputs["input_ids"],
            sep_inputs + passage_inputs["input_ids"],
            max_length,
        )
        ids = ids + sep_inputs + prompt_inputs
        inputs.append({"input_ids": ids, "attention_mask": [1] * len(ids)})
    inputs = tokenizer.pad(
        inputs,
        padding=True,
        max_length=max_length + len(sep_inputs) + len(prompt_inputs),
        pad_to_multiple_of=8,
        return_tensors="pt",
    )
    with torch.no_grad():
        scores = model(**inputs, return_dict=True).logits[:, -1, yes_loc].view(-1).float()
    return _rows(inputs), torch.sigmoid(scores).tolist()


# --- mxbai-rerank-v2: MxbaiRerankV2.prepare_inputs and forward --------------------------------


def mxbai_reference(folder, pairs, instruction=None, max_length=8192):
    tokenizer = transformers.AutoTokenizer.from_pretrained(folder)
    tokenizer.padding_side = "left"
    model = transformers.AutoModelForCausalLM.from_pretrained(folder).eval()
    sep = "\n"
    task_prompt = (
        "You are a search relevance expert who evaluates how well documents match search "
        "queries. For each query-document pair, carefully analyze the semantic relationship "
        "between them, then provide your binary relevance judgment (0 for not relevant, 1 for "
        "relevant).\nRelevance:"
    )
    prefix = (
        "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful "
        "assistant.<|im_end|>\n<|im_start|>user\n"
    )
    suffix = "<|im_end|>\n<|im_start|>assistant\n"

    def get_input_ids(x):
        return tokenizer(x, return_tensors=None, add_special_tokens=False)["input_ids"]

    yes_loc, no_loc = get_input_ids("1")[0], get_input_ids("0")[0]
    task_prompt_inputs, sep_inputs = get_input_ids(task_prompt), get_input_ids(sep)
    prefix_inputs, suffix_inputs = get_input_ids(prefix), get_input_ids(suffix)
    model_max_length = tokenizer.model_max_length
    predefined = len(prefix_inputs) + len(task_prompt_inputs) + len(suffix_inputs)
    predefined += len(sep_inputs)
    if max_length + predefined > model_max_length:
        max_length = model_max_length - predefined
    inputs = []
    instruction_prompt = f"instruction: {instruction}" if instruction else None
    for query, document in pairs:
        query_prompt = f"query: {query}"
        if instruction_prompt:
            query_prompt = "".join([instruction_prompt, sep, query_prompt])
        query_inputs = tokenizer(
            query_prompt,
            return_tensors=None,
            add_special_tokens=False,
            max_length=max_length * 3 // 4,
            truncation=True,
        )
        document_inputs = tokenizer(
            f"document: {document}",
            return_tensors=None,
            add_special_tokens=False,
            max_length=min(model_max_length - len(query_inputs["input_ids"]), max_length),
            truncation=True,
        )
        ids = _prepare_for_model_only_second(
            query_inputs["input_ids"], sep_inputs + document_inputs["input_ids"], max_length
        )
        ids = prefix_inputs + ids + sep_inputs + task_prompt_inputs + suffix_inputs
        inputs.append({"input_ids": ids, "attention_mask": [1] * len(ids)})
    inputs = tokenizer.pad(inputs, padding="longest", pad_to_multiple_of=8, return_tensors="pt")
    with torch.no_grad():
        logits = model(**inputs).logits
    scores = logits[:, -1, yes_loc] - logits[:, -1, no_loc]
    return _rows(inputs), torch.sigmoid(scores).tolist()


# --- the comparisons ----------------------------------------------------------------------------

REFERENCES = {
    "qwen3": (qwen3_reference, "qwen3_reranker_path"),
    "bge-gemma": (bge_gemma_reference, "gemma_reranker_path"),
    "mxbai": (mxbai_reference, "mxbai_reranker_path"),
}


def ours(reranker: CrossEncoderReranker, name: str, pairs) -> tuple[list[list[int]], list[float]]:
    """The fast path's prompt ids and probabilities for ``pairs``."""
    tokens = reranker.load(name).tokens
    assert tokens is not None and reranker.load(name).encoder is None, "the fast path runs"
    ids = []
    for query, document in pairs:
        (q,), (d,) = tokens.queries([query]), tokens.documents([document])
        ids.append(tokens.prompt(q, d).tolist())
    probabilities = []
    for query in dict.fromkeys(q for q, _ in pairs):
        texts = [d for q, d in pairs if q == query]
        probabilities += reranker.score(query, texts).relevance
    return ids, probabilities


@pytest.mark.filterwarnings("ignore:`max_length` is ignored when `padding`")  # the card's pad
@pytest.mark.parametrize("family", list(REFERENCES))
@pytest.mark.parametrize(
    ("instruction", "max_length"), [(None, None), (INSTRUCTION, None), (None, 120)]
)
def test_recipe_equals_the_reference_procedure(request, family, instruction, max_length):
    reference, fixture = REFERENCES[family]
    folder = str(request.getfixturevalue(fixture))
    pairs = _pairs()
    options = {} if max_length is None else {"max_length": max_length}
    expected_ids, expected = reference(folder, pairs, instruction, **options)
    reranker = CrossEncoderReranker(folder, device="cpu", instruction=instruction, **options)
    ids, probabilities = ours(reranker, folder, pairs)
    assert ids == expected_ids
    assert probabilities == pytest.approx(expected, abs=1e-5)
    assert max(probabilities) - min(probabilities) > 0.05, "random weights that score alike"
    if max_length is not None and family == "qwen3":  # max_length bounds the whole prompt
        assert max(map(len, ids)) == max_length


@pytest.mark.slow
def test_qwen3_equals_sentence_transformers_predict(qwen3_reranker_path) -> None:
    """sentence-transformers loads the tiny model as a causal-LM CrossEncoder (LogitScore,
    yes - no) with the chat template that renders the Qwen3-Reranker prompt: same scores."""
    from sentence_transformers import CrossEncoder

    folder = str(qwen3_reranker_path)
    pairs = _pairs()
    encoder = CrossEncoder(folder, device="cpu", max_length=8192)
    expected = encoder.predict(pairs, batch_size=8).tolist()
    with_instruction = encoder.predict(pairs, prompt=INSTRUCTION, batch_size=8).tolist()
    _, probabilities = ours(CrossEncoderReranker(folder, device="cpu"), folder, pairs)
    assert probabilities == pytest.approx(expected, abs=1e-5)
    instructed = CrossEncoderReranker(folder, device="cpu", instruction=INSTRUCTION)
    _, probabilities = ours(instructed, folder, pairs)
    assert probabilities == pytest.approx(with_instruction, abs=1e-5)
