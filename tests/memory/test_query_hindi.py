"""Query analysis in Hindi beyond its phrase table (phrases/hindi.toml), and the Devanagari
word: its vowel signs are inside it, though ``\\w`` does not count them ("निकला" holds no
"कल", yesterday)."""

from __future__ import annotations

import re

from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query.cues import words_pattern
from rerank_plus.memory.query.entities import target_entities
from rerank_plus.memory.query.folding import fold

from tests.memory.query_moment import analyze


def test_who_is_responsible_asks_a_detail(analyzer: Analyzer) -> None:
    qa = analyze("बजट का जिम्मेदार कौन है?", analyzer)
    assert (qa.intent, qa.keywords, qa.entities) == ("detail", ("बजट", "जिम्मेदार"), ())


def test_a_vowel_sign_does_not_end_a_word() -> None:
    """``\\w`` does not count "ि" or "ा" as letters: without them in the word, "कल"
    (yesterday) matched inside "निकला" (came out) and "कला" (art)."""
    yesterday = re.compile(words_pattern(["कल"]))
    assert yesterday.search("कल से") is not None
    assert yesterday.search("वह निकला") is None
    assert yesterday.search("कला") is None


def test_a_word_with_vowel_signs_and_a_virama_is_one_entity() -> None:
    """Cut at its marks, "मार्केटिंग" was five letters alone, each trimmed as too short."""
    text = "about मार्केटिंग"
    found = target_entities(text, fold(text), [(0, 6)], [], lambda word: len(word) < 2)
    assert found == [((6, len(text)), "मार्केटिंग")]
