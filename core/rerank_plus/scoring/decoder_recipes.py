"""How each family of generative (decoder) rerankers builds its prompt and reads its score.

A decoder reranker reads one prompt per (query, document) pair and is scored by the logits of
an answer token at the last position. Families differ only in text: what comes before the
query, where the instruction goes, how the document is introduced, what follows it, and which
tokens are scored. A :class:`DecoderRecipe` writes that down as data, each piece tokenized
alone exactly as the family's reference code does it, so a new family is one entry in
``RECIPES`` and the token ids equal the reference's (tests/neural/test_decoder_recipes.py writes
each model card's code out and compares, id for id and score for score).

The recipe is picked by ``recipe=``, else by the model's name, else by the architecture in its
saved configuration (``DECODER_ARCHITECTURES``: one family per architecture).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

#: What ``max_length`` bounds: the whole prompt (``"prompt"``), or the query and document
#: pieces with what lies between them, the fixed text before and after coming on top
#: (``"pair"``, as the bge and mxbai reference code count it).
Budget = Literal["prompt", "pair"]


@dataclass(frozen=True)
class DecoderRecipe:
    """One family's prompt, as pieces each tokenized alone (``add_special_tokens=False``).

    The prompt is ``prefix + [bos] query + separator + document + suffix``. ``{instruction}``
    in ``query`` or ``suffix`` becomes ``instruction_format`` filled with the instruction (or
    nothing when the instruction is empty); ``{query}`` and ``{document}`` are the texts.

    Attributes:
        name: what ``recipe=`` takes.
        models: lower-case fragments of the model names of the family.
        prefix: fixed pieces before the query (chat-template headers written out).
        bos: the tokenizer's BOS token starts the query piece.
        query: the query piece (with the instruction where the family puts it there).
        separator: pieces between the query and the document.
        document: the document piece; the only piece cut when the prompt is too long (its tail).
        suffix: pieces after the document, ending where the model answers.
        scored: the answer tokens and their weights; the score is the weighted sum of their
            logits (``yes`` - ``no``, or one token's logit), its sigmoid the probability.
        instruction_format: how an instruction is written into its place.
        default_instruction: the family's own instruction when none is given (None: none).
        budget: what ``max_length`` bounds (see ``Budget``).
        query_share: the query piece keeps at most this share of ``max_length`` (None: all).
        max_length: the default ``max_length`` (the reference code's).
    """

    name: str
    models: tuple[str, ...]
    prefix: tuple[str, ...]
    bos: bool
    query: str
    separator: tuple[str, ...]
    document: str
    suffix: tuple[str, ...]
    scored: tuple[tuple[str, float], ...]
    instruction_format: str
    default_instruction: str | None
    budget: Budget
    query_share: float | None
    max_length: int

    def instruction_text(self, instruction: str | None) -> str:
        """What replaces ``{instruction}``: the formatted instruction, or nothing."""
        return self.instruction_format.format(instruction=instruction) if instruction else ""


QWEN3_SYSTEM = (
    "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query "
    'and the Instruct provided. Note that the answer can only be "yes" or "no".<|im_end|>\n'
    "<|im_start|>user\n"
)
MXBAI_TASK = (
    "You are a search relevance expert who evaluates how well documents match search queries. "
    "For each query-document pair, carefully analyze the semantic relationship between them, "
    "then provide your binary relevance judgment (0 for not relevant, 1 for relevant).\n"
    "Relevance:"
)

RECIPES: dict[str, DecoderRecipe] = {
    # Qwen/Qwen3-Reranker-{0.6B,4B,8B} model card: one text "<Instruct>: ...<Document>: doc"
    # tokenized whole; it is cut here after "<Document>:", a pre-token boundary of the Qwen2
    # byte-level regex whatever the document starts with, so the ids are the same.
    "qwen3-reranker": DecoderRecipe(
        name="qwen3-reranker",
        models=("qwen3-reranker",),
        prefix=(QWEN3_SYSTEM,),
        bos=False,
        query="<Instruct>: {instruction}\n<Query>: {query}\n<Document>:",
        separator=(),
        document=" {document}",
        suffix=("<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n",),
        scored=(("yes", 1.0), ("no", -1.0)),
        instruction_format="{instruction}",
        default_instruction=(
            "Given a web search query, retrieve relevant passages that answer the query"
        ),
        budget="prompt",
        query_share=None,
        max_length=8192,
    ),
    # BAAI/bge-reranker-v2-gemma model card (FlagEmbedding's get_inputs): the "Yes" logit.
    "bge-reranker-v2-gemma": DecoderRecipe(
        name="bge-reranker-v2-gemma",
        models=("bge-reranker-v2-gemma",),
        prefix=(),
        bos=True,
        query="A: {query}",
        separator=("\n",),
        document="B: {document}",
        suffix=("\n", "{instruction}"),
        scored=(("Yes", 1.0),),
        instruction_format="{instruction}",
        default_instruction=(
            "Given a query A and a passage B, determine whether the passage contains an answer "
            "to the query by providing a prediction of either 'Yes' or 'No'."
        ),
        budget="pair",
        query_share=0.75,
        max_length=1024,
    ),
    # mixedbread-ai/mxbai-rerank-{base,large}-v2 (the mxbai-rerank package's MxbaiRerankV2):
    # "1" minus "0"; the instruction line only when one is given.
    "mxbai-rerank-v2": DecoderRecipe(
        name="mxbai-rerank-v2",
        models=("mxbai-rerank-base-v2", "mxbai-rerank-large-v2"),
        prefix=(
            "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful "
            "assistant.<|im_end|>\n<|im_start|>user\n",
        ),
        bos=False,
        query="{instruction}query: {query}",
        separator=("\n",),
        document="document: {document}",
        suffix=("\n", MXBAI_TASK, "<|im_end|>\n<|im_start|>assistant\n"),
        scored=(("1", 1.0), ("0", -1.0)),
        instruction_format="instruction: {instruction}\n",
        default_instruction=None,
        budget="pair",
        query_share=0.75,
        max_length=8192,
    ),
}

#: The family a saved configuration's architecture implies, where the name does not tell.
DECODER_ARCHITECTURES: dict[str, str] = {
    "Qwen3ForCausalLM": "qwen3-reranker",
    "GemmaForCausalLM": "bge-reranker-v2-gemma",
    "Qwen2ForCausalLM": "mxbai-rerank-v2",
}
#: Architecture name endings of decoder (causal language) models.
DECODER_SUFFIXES = ("ForCausalLM", "LMHeadModel")


def families() -> str:
    """The known families, for error messages."""
    return ", ".join(sorted(RECIPES))


def recipe_named(name: str) -> DecoderRecipe:
    """The recipe ``recipe=name`` asks for; an unknown name lists the known ones."""
    if not isinstance(name, str) or name not in RECIPES:
        raise ValueError(f"recipe must be one of {families()} or None, got {name!r}.")
    return RECIPES[name]


def recipe_by_name(model: str) -> DecoderRecipe | None:
    """The family whose model names ``model`` contains (case-insensitive), if exactly one."""
    lowered = model.lower()
    found = [r for r in RECIPES.values() if any(part in lowered for part in r.models)]
    return found[0] if len(found) == 1 else None


def recipe_by_architecture(architectures: Sequence[str]) -> DecoderRecipe | None:
    """The family a saved configuration's architectures imply, if exactly one."""
    found = {DECODER_ARCHITECTURES[a] for a in architectures if a in DECODER_ARCHITECTURES}
    return RECIPES[found.pop()] if len(found) == 1 else None


def is_decoder(architectures: Sequence[str]) -> bool:
    return any(a.endswith(DECODER_SUFFIXES) for a in architectures)


def is_classifier(architectures: Sequence[str]) -> bool:
    return any(a.endswith("ForSequenceClassification") for a in architectures)


def check_instruction(instruction: object) -> None:
    """An instruction is a string or None (the family's own)."""
    if instruction is not None and not isinstance(instruction, str):
        raise TypeError(
            f"instruction must be a string or None (the model family's own), got "
            f"{type(instruction).__name__}: {instruction!r}."
        )
