"""Pointwise reranking: one judgment per (query, passage), all asked at once (bounded).

``"grade"`` asks for a 0-3 grade and scores ``grade / 3``. ``"yes-no"`` asks whether the
passage answers the query and scores P(yes) from the first answer token's logprobs (normalized
over yes and no, as HELM does) when the backend returns them, else 1 for a yes and 0 for a no.
An answer that says neither scores 0 and is marked ``unreadable`` in the explanation. Identical
passages are asked once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rerank_plus.scoring.llm.parsing import parse_grade, parse_yes_no, yes_probability
from rerank_plus.scoring.llm.prompts import DEFAULT_TEMPLATES, PromptTemplate, pointwise_prompt
from rerank_plus.scoring.llm.protocol import Completion, Prompt
from rerank_plus.scoring.llm.steps import Batch, Steps

JUDGMENTS = ("grade", "yes-no")
#: Room for a digit or a yes/no, plus a few tokens of prose some models add anyway.
ANSWER_TOKENS = 8


@dataclass(frozen=True, slots=True)
class Judgment:
    """One passage's judgment: relevance in [0, 1], how it was read, and the answer."""

    relevance: float
    prompt: Prompt
    answer: str | None = None
    grade: int | None = None
    read_from: str = "text"
    unreadable: bool = False

    @property
    def judged(self) -> bool:
        """False when the call budget ran out before this passage was asked."""
        return self.answer is not None


def read(judgment: str, prompt: Prompt, completion: Completion | None) -> Judgment:
    """Turn one answer into a judgment (None: never asked, scores 0)."""
    if completion is None:
        return Judgment(0.0, prompt)
    text = completion.text
    if judgment == "grade":
        grade = parse_grade(text)
        if grade is None:
            return Judgment(0.0, prompt, text, unreadable=True)
        return Judgment(grade / 3, prompt, text, grade=grade)
    if completion.top_logprobs:
        probability = yes_probability(completion.top_logprobs)
        if probability is not None:
            return Judgment(probability, prompt, text, read_from="logprobs")
    said_yes = parse_yes_no(text)
    if said_yes is None:
        return Judgment(0.0, prompt, text, unreadable=True)
    return Judgment(1.0 if said_yes else 0.0, prompt, text)


def judge_each(
    query: str, passages: Sequence[str], judgment: str, template: PromptTemplate | None = None
) -> Steps[list[Judgment]]:
    """Judge every passage (already truncated), in one batch of distinct prompts;
    ``template`` None asks with the judgment's default prompt."""
    template = template or DEFAULT_TEMPLATES[judgment]
    prompts = [pointwise_prompt(query, passage, template) for passage in passages]
    distinct = list(dict.fromkeys(prompts))
    answers = yield Batch(distinct, ANSWER_TOKENS)
    by_prompt = dict(zip(distinct, answers, strict=True))
    return [read(judgment, prompt, by_prompt[prompt]) for prompt in prompts]
