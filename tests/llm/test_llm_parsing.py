"""Reading answers: permutations repaired (never a document lost), grades, yes/no, P(yes)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus.scoring.llm.parsing import (
    parse_grade,
    parse_permutation,
    parse_yes_no,
    yes_probability,
)


def test_a_clean_permutation_is_read_as_is() -> None:
    permutation = parse_permutation("[2] > [3] > [1]", 3)
    assert permutation.order == (1, 2, 0)
    assert permutation.repairs() == {}


def test_prose_around_the_ranking_and_numbers_in_it_are_ignored() -> None:
    answer = "Sure! Passage [3] mentions the 2021 race, so: [3] > [1] > [2]. Hope this helps."
    assert parse_permutation(answer, 3).order == (2, 0, 1)


def test_duplicates_and_out_of_range_are_dropped_and_missing_appended_in_previous_order() -> None:
    permutation = parse_permutation("[4] > [4] > [9] > [0] > [2]", 5)
    assert permutation.order == (3, 1, 0, 2, 4)
    assert permutation.repairs() == {
        "out_of_range_dropped": [9, 0],
        "duplicates_dropped": [4],
        "missing_appended_in_previous_order": [1, 3, 5],
    }


def test_bare_numbers_count_when_there_are_no_brackets() -> None:
    assert parse_permutation("2, 1, 3", 3).order == (1, 0, 2)


def test_an_answer_without_numbers_keeps_the_previous_order() -> None:
    permutation = parse_permutation("I cannot rank these passages. 🙅", 4)
    assert permutation.order == (0, 1, 2, 3)
    assert permutation.repairs()["no_ranking_found"] is True


@settings(max_examples=200, deadline=None)
@given(st.text(), st.integers(min_value=1, max_value=40))
def test_any_answer_gives_a_permutation_of_every_passage(answer: str, count: int) -> None:
    assert sorted(parse_permutation(answer, count).order) == list(range(count))


@pytest.mark.parametrize(
    ("answer", "grade"),
    [
        ("3", 3),
        (" 0\n", 0),
        ("Score: 2", 2),
        ("On a 0-3 scale, I would give this a 1.", 1),
        ("Relevance: 3 (the passage answers the query)", 3),
        ("2.5", None),
        ("7", None),
        ("highly relevant", None),
        ("", None),
    ],
)
def test_grades(answer: str, grade: int | None) -> None:
    assert parse_grade(answer) == grade


@pytest.mark.parametrize(
    ("answer", "said_yes"),
    [("Yes", True), ("no.", False), ("YES, it does", True), ("Nope", None), ("", None)],
)
def test_yes_no(answer: str, said_yes: bool | None) -> None:
    assert parse_yes_no(answer) is said_yes


def test_yes_probability_normalizes_over_yes_and_no_tokens_in_any_case() -> None:
    probability = yes_probability(
        {" Yes": math.log(0.6), "yes": math.log(0.1), "No": math.log(0.1)}
    )
    assert probability == pytest.approx(0.875)
    assert yes_probability({"Maybe": -0.1}) is None
    assert yes_probability({"Yes": float("-inf"), "No": -0.5}) == 0.0
