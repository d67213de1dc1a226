"""The prompts, and passages cut to a token budget before they go in.

Listwise follows RankGPT (Sun et al., "Is ChatGPT Good at Search? Investigating Large Language
Models as Re-Ranking Agents", EMNLP 2023): numbered passages, the answer a permutation
``[2] > [1] > [3]``. The graded pointwise scale is the 0-3 scale of Thomas et al. ("Large
language models can accurately predict searcher preferences", SIGIR 2024) as UMBRELA uses it;
the yes/no prompt follows Liang et al. (HELM, 2022), whose P(yes) ranks by logprobs.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass

from rerank_plus.scoring.batching import CHARS_PER_TOKEN
from rerank_plus.scoring.llm.protocol import Prompt
from rerank_plus.scoring.llm.usage import estimate_tokens

LISTWISE_SYSTEM = (
    "You are RankGPT, an intelligent assistant that ranks passages by their relevance to a "
    "search query."
)
LISTWISE_USER = (
    "I will give you {count} passages, each marked with a number in brackets. Rank them by "
    "their relevance to the search query: {query}\n\n{passages}\n\nSearch query: {query}\n"
    "Rank the {count} passages above from most to least relevant. List every identifier "
    "exactly once, most relevant first, in the format [2] > [1] > [3]. Answer with the ranking "
    "only, no explanation."
)
GRADE_SYSTEM = "You are a search quality rater judging how well passages answer queries."
GRADE_USER = (
    "Judge how well the passage answers the query, on a scale of 0 to 3:\n"
    "3 = the passage is dedicated to the query and contains the exact answer.\n"
    "2 = the passage answers the query, but the answer is unclear or hidden among other "
    "information.\n"
    "1 = the passage is related to the query but does not answer it.\n"
    "0 = the passage has nothing to do with the query.\n\n"
    "Query: {query}\nPassage: {passage}\n\n"
    "Answer with a single digit (0, 1, 2 or 3) and nothing else."
)
YES_NO_SYSTEM = "You judge whether passages answer search queries."
YES_NO_USER = (
    "Query: {query}\nPassage: {passage}\n\n"
    "Does the passage answer the query? Answer Yes or No, and nothing else."
)


@dataclass(frozen=True, slots=True)
class PromptTemplate:
    """The two messages of a rerank prompt, with ``str.format`` placeholders.

    Listwise prompts fill ``{query}``, ``{passages}`` (the numbered passages, one per line) and
    may use ``{count}``; pointwise prompts fill ``{query}`` and ``{passage}``. A custom prompt
    must still ask for the answer the reranker reads (a permutation ``[2] > [1]``, a 0-3 digit,
    yes or no); write literal braces as ``{{`` and ``}}``.
    """

    system: str
    user: str

    def fill(self, **values: object) -> Prompt:
        return Prompt(self.system.format(**values), self.user.format(**values))


#: The prompt each task uses unless given another, by task ("listwise", "grade", "yes-no").
DEFAULT_TEMPLATES = {
    "listwise": PromptTemplate(LISTWISE_SYSTEM, LISTWISE_USER),
    "grade": PromptTemplate(GRADE_SYSTEM, GRADE_USER),
    "yes-no": PromptTemplate(YES_NO_SYSTEM, YES_NO_USER),
}
#: The placeholders a task's prompt must contain, and the ones it may contain besides.
PLACEHOLDERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "listwise": (frozenset({"query", "passages"}), frozenset({"count"})),
    "grade": (frozenset({"query", "passage"}), frozenset()),
    "yes-no": (frozenset({"query", "passage"}), frozenset()),
}


def task_of(mode: str, judgment: str) -> str:
    """The prompt a reranker sends: ``"listwise"``, or the pointwise judgment."""
    return "listwise" if mode == "listwise" else judgment


def placeholders(text: str) -> set[str]:
    """The field names of a ``str.format`` template (``""`` for a positional ``{}``)."""
    try:
        return {
            name.split(".")[0].split("[")[0]
            for _, name, _, _ in string.Formatter().parse(text)
            if name is not None
        }
    except ValueError as error:
        raise ValueError(
            f"The prompt is not a valid template ({error}); write literal braces as {{{{ and }}}}."
        ) from error


def check_template(template: PromptTemplate, task: str) -> PromptTemplate:
    """``template`` when it has every placeholder ``task`` fills and no other, else an error
    that names the missing and the unknown ones."""
    if not isinstance(template, PromptTemplate):
        raise TypeError(
            f"prompt must be a PromptTemplate(system, user), got {type(template).__name__}."
        )
    required, optional = PLACEHOLDERS[task]
    found = placeholders(template.system) | placeholders(template.user)
    missing = sorted(required - found)
    unknown = sorted(found - required - optional)
    if missing or unknown:
        problems = [f"it lacks {', '.join('{' + n + '}' for n in missing)}"] if missing else []
        problems += [f"{{{n}}} is not filled in" for n in unknown]
        needed = " and ".join("{" + n + "}" for n in sorted(required))
        allowed = ", ".join("{" + n + "}" for n in sorted(required | optional))
        raise ValueError(
            f"The {task} prompt must contain {needed} (it may use {allowed}): "
            f"{'; '.join(problems)}."
        )
    return template


def truncate(text: str, max_tokens: int) -> str:
    """``text`` on one line, cut to about ``max_tokens`` tokens at a word boundary.

    Whitespace runs (newlines included) become one space, so a passage cannot break the
    numbered layout of a listwise prompt.
    """
    flat = " ".join(text.split())
    if estimate_tokens(flat) <= max_tokens:
        return flat
    cut = flat[: max_tokens * CHARS_PER_TOKEN]
    space = cut.rfind(" ")
    # cut at the last word boundary unless that loses much (text without spaces: CJK, URLs)
    return cut[:space] if space > len(cut) * 0.8 else cut


def listwise_prompt(
    query: str, passages: Sequence[str], template: PromptTemplate = DEFAULT_TEMPLATES["listwise"]
) -> Prompt:
    numbered = "\n".join(f"[{number}] {text}" for number, text in enumerate(passages, start=1))
    return template.fill(count=len(passages), query=query, passages=numbered)


def pointwise_prompt(query: str, passage: str, template: PromptTemplate) -> Prompt:
    return template.fill(query=query, passage=passage)
