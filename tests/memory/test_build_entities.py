"""The rule entities: what they find (mentions, numbers, capitalized names, hashtags, quotes)
and what they leave (sentence starts, elisions, caseless scripts), per group."""

from __future__ import annotations

import pytest
from rerank_plus.memory.ingest import extract_entities
from rerank_plus.memory.ingest.entities import hashtags, merge_entities


def test_mentions_and_the_speaker_are_people() -> None:
    found = extract_entities("thanks @ann.lee and @bob, see you", speaker="Chloé")
    assert found["people"] == ("Chloé", "ann.lee", "bob")
    assert "people" not in extract_entities("mail me at ann@example.com")


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("It costs 25 Euros, maybe €30 or $ 12.50.", ("25 Euros", "€30", "$ 12.50")),
        ("Growth was 18% and 3.5 km of cable.", ("18%", "3.5 km")),
        ("Meet at 09:30 or 14h15 on 2024-05-02.", ("09:30", "14h15", "2024-05-02")),
        ("Le budget est de 9000 euros pour 2 jours.", ("9000 euros", "2 jours")),
        ("We hired 12 people in 2023.", ("12", "2023")),
        ("one 7 and the word 5kg", ("5kg",)),
    ],
)
def test_numbers_with_units_times_dates_and_long_numbers(text: str, numbers: tuple) -> None:
    assert extract_entities(text)["numbers"] == numbers


def test_capitalized_names_of_two_words_or_more_not_at_sentence_start() -> None:
    found = extract_entities(
        "Then the Project Manager met Dana Whitfield. Marketing Expert says hi. "
        "Nous voyons la Banque de France demain."
    )
    assert found["others"] == ("Project Manager", "Dana Whitfield", "Banque de France")


def test_elisions_all_caps_and_single_words_are_not_names() -> None:
    assert extract_entities("Yeah I'll I'd say the LCD TV is OK and Paris is nice.") == {}


def test_hashtags_and_short_quotes_are_others() -> None:
    found = extract_entities('ship #release-2 now, call it "Blue Pear" or « poire bleue »')
    assert found["others"] == ("Blue Pear", "#release", "poire bleue")
    assert hashtags("#a #b #a and #42 x#y") == ("a", "b")


def test_caseless_scripts_keep_mentions_numbers_and_quotes() -> None:
    found = extract_entities("我们在北京见面 @李明 100元 “预算”")
    assert found == {"people": ("李明",), "numbers": ("100",), "others": ("预算",)}


def test_emoji_only_and_empty_text_find_nothing() -> None:
    assert extract_entities("🎉🎉 👍") == {} and extract_entities("") == {}


def test_merging_keeps_the_most_mentioned_names_per_group() -> None:
    merged = merge_entities(
        [{"people": ("Ann", "Bob")}, {"people": ("Bob",), "others": ("Lyon",)}], limit=1
    )
    assert merged == {"people": ("Bob",), "others": ("Lyon",)}
