"""Reading the model's answers robustly: a permutation, a 0-3 grade, a yes or a no.

Models add prose, repeat numbers, skip some and invent others. A permutation is repaired, never
trusted blindly: numbers out of range and repeats are dropped, and every passage the answer
left out is appended in its previous order, so no document is ever lost. Each repair is
reported, and the reranker puts the report in the explanation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_BRACKETED = re.compile(r"\[\s*(\d+)\s*\]")
_NUMBER = re.compile(r"\d+")
_RANGE = re.compile(r"\d+\s*(?:-|\u2013|to)\s*\d+")  # "0-3", "0 to 3", en dash
_LABELLED_GRADE = re.compile(r"(?:score|grade|relevance|rating|answer)\W{0,4}([0-3])(?!\d)", re.I)
_GRADE = re.compile(r"(?<![\d.])([0-3])(?!\.?\d)")
_LEADING_GRADE = re.compile(r"([0-3])(?!\.?\d)")
_YES_NO = re.compile(r"\b(yes|no)\b", re.I)


@dataclass(frozen=True, slots=True)
class Permutation:
    """An order of ``count`` passages (0-based positions, each exactly once) and its repairs.

    ``out_of_range``, ``duplicates`` and ``missing`` are 1-based numbers as the model saw them.
    """

    order: tuple[int, ...]
    out_of_range: tuple[int, ...] = ()
    duplicates: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()
    found_no_numbers: bool = False
    extra_text: bool = False

    @property
    def repaired(self) -> bool:
        return bool(self.out_of_range or self.duplicates or self.missing)

    def repairs(self) -> dict[str, Any]:
        """The repairs made, empty when the answer was a clean permutation."""
        notes: dict[str, Any] = {}
        if self.found_no_numbers:
            notes["no_ranking_found"] = True
        if self.out_of_range:
            notes["out_of_range_dropped"] = list(self.out_of_range)
        if self.duplicates:
            notes["duplicates_dropped"] = list(self.duplicates)
        if self.missing:
            notes["missing_appended_in_previous_order"] = list(self.missing)
        return notes


def parse_permutation(text: str, count: int) -> Permutation:
    """The order a listwise answer gives ``count`` numbered passages, repaired.

    Bracketed numbers (``[3] > [1]``) are read when there are any, so numbers in surrounding
    prose ("Passage [3] mentions 2021") do not count; otherwise every number is read.

    >>> parse_permutation("Sure! [3] > [1] > [3] > [7]", 4).order
    (2, 0, 1, 3)
    """
    numbers = [int(n) for n in _BRACKETED.findall(text)] or [int(n) for n in _NUMBER.findall(text)]
    seen: list[int] = []
    out_of_range: list[int] = []
    duplicates: list[int] = []
    for number in numbers:
        if not 1 <= number <= count:
            out_of_range.append(number)
        elif number in seen:
            duplicates.append(number)
        else:
            seen.append(number)
    missing = [number for number in range(1, count + 1) if number not in seen]
    return Permutation(
        order=tuple(number - 1 for number in [*seen, *missing]),
        out_of_range=tuple(out_of_range),
        duplicates=tuple(duplicates),
        missing=tuple(missing),
        found_no_numbers=not numbers,
        extra_text=bool(_BRACKETED.sub("", text).strip(" >,\n\t.")),
    )


def parse_grade(text: str) -> int | None:
    """The 0-3 grade in an answer, or None when it holds none.

    A bare digit is the grade; in prose, a digit labelled as the score ("Score: 2") wins, then
    the last lone digit 0-3, ranges such as "0-3" excepted.

    >>> parse_grade("2"), parse_grade("On a 0-3 scale I would give it 1."), parse_grade("7")
    (2, 1, None)
    """
    stripped = text.strip()
    leading = _LEADING_GRADE.match(stripped)
    if leading:
        return int(leading.group(1))
    labelled = _LABELLED_GRADE.search(stripped)
    if labelled:
        return int(labelled.group(1))
    lone = _GRADE.findall(_RANGE.sub(" ", stripped))
    return int(lone[-1]) if lone else None


def parse_yes_no(text: str) -> bool | None:
    """True for a yes, False for a no (the first one said), None when the answer has neither."""
    found = _YES_NO.search(text)
    return None if found is None else found.group(1).lower() == "yes"


def yes_probability(top_logprobs: Mapping[str, float]) -> float | None:
    """P(yes | yes or no) from the first token's alternatives, or None when neither is there.

    Tokens are compared stripped and lower-cased, so " Yes", "yes" and "YES" add up.
    """
    mass = {"yes": 0.0, "no": 0.0}
    for token, logprob in top_logprobs.items():
        word = token.strip().lower()
        if word in mass and math.isfinite(logprob):
            mass[word] += math.exp(logprob)
    total = mass["yes"] + mass["no"]
    return mass["yes"] / total if total > 0 else None


def first_token_logprobs(logprobs: Any) -> dict[str, float] | None:
    """The first answer token's alternatives from OpenAI's ``logprobs`` object
    (``content[0].top_logprobs``, or the token itself), None when it is absent or malformed.

    >>> first_token_logprobs({"content": [{"top_logprobs": [{"token": "Yes", "logprob": -0.1}]}]})
    {'Yes': -0.1}
    """
    try:
        first = logprobs["content"][0]
        pairs = first.get("top_logprobs") or [first]
        return {str(item["token"]): float(item["logprob"]) for item in pairs}
    except (TypeError, KeyError, IndexError, ValueError, AttributeError):
        return None
