"""The split by query, and mining with its false-negative filters."""

from __future__ import annotations

import pytest
from rerank_plus.training import (
    Example,
    MiningSettings,
    Passage,
    TrainingData,
    TrainingDataError,
    mine_negatives,
    split_by_query,
)


def data_of(passages: dict[str, str], examples: list[Example]) -> TrainingData:
    return TrainingData("pairs", {k: Passage(k, v) for k, v in passages.items()}, tuple(examples))


def test_the_split_never_puts_a_query_on_both_sides() -> None:
    examples = [Example(f"q{i % 5}", f"query {i % 5}", (f"p{i}",)) for i in range(20)]
    train, held = split_by_query(data_of({}, examples), validation=0.4, seed=3)
    train_ids = {e.query_id for e in train.examples}
    held_ids = {e.query_id for e in held.examples}
    assert not train_ids & held_ids
    assert len(held_ids) == 2
    assert len(train.examples) + len(held.examples) == 20
    assert split_by_query(data_of({}, examples), 0.4, seed=3)[1] == held  # seeded


def test_too_few_queries_to_split() -> None:
    examples = [Example("q1", "a", ("p",)), Example("q2", "b", ("p",))]
    with pytest.raises(TrainingDataError, match="too few to split"):
        split_by_query(data_of({}, examples))


PASSAGES = {
    "pos": "the violin concert starts at eight in the main hall tonight",
    "copy": "tickets: the violin concert starts at eight in the main hall tonight, sold out",
    "near": "violin concert violin concert tonight",
    "hard": "a violin lesson for beginners",
    "easy": "the weather is dry",
    "other": "the train leaves at nine",
}


def test_mining_drops_overlapping_and_too_close_candidates() -> None:
    example = Example("q", "violin concert tonight", ("pos",))
    data = data_of(PASSAGES, [example])
    mined, (report,) = mine_negatives(data, MiningSettings("bm25", negatives=2, margin=0.0), "")
    negatives = mined.examples[0].negatives
    assert "copy" not in negatives and "pos" not in negatives
    assert report.dropped_overlap == 1
    assert report.dropped_margin == 1  # "near" scores above the positive
    assert negatives[0] == "hard"
    assert report.kept == 2 and report.candidates == 5

    loose = mine_negatives(data, MiningSettings("bm25", negatives=5, margin=1.0), "")[1][0]
    assert loose.kept == 0 and loose.dropped_margin == 5  # nothing below best - 1


def test_mining_keeps_given_negatives_and_stays_in_the_group() -> None:
    passages = {
        "a1": Passage("a1", "violin concert", "m1"),
        "a2": Passage("a2", "violin lesson", "m1"),
        "b1": Passage("b1", "violin repair", "m2"),
    }
    example = Example("q", "violin concert", ("a1",), negatives=("a2",), group="m1")
    data = TrainingData("meetings", passages, (example,))
    mined, (report,) = mine_negatives(data, MiningSettings("bm25", negatives=3), "")
    assert mined.examples[0].negatives == ("a2",)  # b1 is another meeting's
    assert report.candidates == 1


def test_labels_grow_with_the_mined_negatives() -> None:
    example = Example("q", "violin concert tonight", ("pos",), labels=(0.9,))
    mined, _ = mine_negatives(data_of(PASSAGES, [example]), MiningSettings("bm25", 1), "")
    assert mined.examples[0].labels == (0.9, 0.0)


def test_mining_settings_are_checked() -> None:
    with pytest.raises(TrainingDataError, match="choose from"):
        MiningSettings("dense")


def test_validation_can_be_a_count_of_queries() -> None:
    examples = [Example(f"q{i}", f"query {i}", (f"p{i}",)) for i in range(10)]
    train, held = split_by_query(data_of({}, examples), validation=3)
    assert (len(train.examples), len(held.examples)) == (7, 3)


def test_bi_encoder_rows_one_per_positive_or_capped() -> None:
    from rerank_plus.training.bi_encoder import rows

    passages = {"a": "first", "b": "second", "n": "negative", "m": "other"}
    examples = [
        Example("q1", "query one", ("a", "b"), negatives=("n",)),
        Example("q2", "query two", ("b",)),  # no negative: left out when others have one
    ]
    columns, left_out = rows(data_of(passages, examples))
    assert columns == {
        "anchor": ["query one", "query one"],
        "positive": ["first", "second"],
        "negative_1": ["negative", "negative"],
    }
    assert left_out == 1
    assert rows(data_of(passages, examples), per_query=1)[0]["positive"] == ["first"]


def test_bi_encoder_rows_carry_several_negatives_never_a_positive() -> None:
    from rerank_plus.training.bi_encoder import rows

    passages = {"a": "first", "b": "second", "n": "negative", "m": "other", "o": "third"}
    examples = [
        Example("q1", "query one", ("a", "b"), negatives=("n", "m", "o")),
        Example("q2", "query two", ("b",), negatives=("n",)),  # fewer: repeats its own
    ]
    columns, _ = rows(data_of(passages, examples), negatives_per_row=2)
    assert list(columns) == ["anchor", "positive", "negative_1", "negative_2"]
    assert all(len(values) == 3 for values in columns.values())
    per_row = list(zip(columns["negative_1"], columns["negative_2"], strict=True))
    assert per_row == [("negative", "other"), ("other", "third"), ("negative", "negative")]
    assert not set(columns["negative_1"] + columns["negative_2"]) & {"first", "second"}


def test_boilerplate_runs_do_not_make_an_overlap() -> None:
    chatter = "grad c: mm - hmm . professor b: yeah"
    passages = {
        "pos": f"the budget for the remote is twelve euros {chatter}",
        "a": f"the buttons should be large and soft {chatter}",
        "b": f"the case could be made of wood {chatter}",
        "c": f"we meet again next week {chatter}",
    }
    example = Example("q", "budget of the remote", ("pos",))
    _, (report,) = mine_negatives(data_of(passages, [example]), MiningSettings("bm25", 3), "")
    assert report.dropped_overlap == 0  # the chatter is in four passages
