"""Query analysis in Hindi, and the Devanagari word: its vowel signs are inside it, though
``\\w`` does not count them ("निकला" holds no "कल", yesterday)."""

from __future__ import annotations

import re

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import analyze_query
from rerank_plus.memory.query.cues import words_pattern
from rerank_plus.memory.query.entities import target_entities
from rerank_plus.memory.query.folding import fold

from tests.memory.asked_alike import AskedAlike
from tests.memory.query_moment import NOW, analyze, at

#: A summary, the main points, what was said or decided.
GENERAL = [
    "बैठक का सारांश दीजिए",
    "मीटिंग में किन मुद्दों पर चर्चा हुई?",
    "मुख्य बातें क्या थीं?",
    "बैठक में क्या तय हुआ?",
    "कौन से निर्णय लिए गए?",
    "संक्षेप में बताइए कि बैठक किस बारे में थी",
    "चर्चा का सार बताओ",
    "कुल मिलाकर बैठक कैसी रही?",
]


@pytest.mark.parametrize(
    ("query", "keywords"),
    [
        ("बजट पर हुई चर्चा का सारांश दीजिए", ("बजट",)),
        ("बजट के बारे में मुख्य बातें क्या थीं?", ("बजट",)),
        ("राहुल ने मार्केटिंग के बारे में क्या कहा?", ("राहुल", "मार्केटिंग")),
        ("परियोजना की समय सीमा क्या है?", ("समय", "सीमा")),
        ("कला प्रदर्शनी के बारे में क्या कहा गया?", ("कला", "प्रदर्शनी")),
    ],
)
def test_a_named_topic_makes_a_detail_question(
    query: str, keywords: tuple[str, ...], analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert (qa.intent, qa.keywords, qa.window) == ("detail", keywords, None), qa.reason


@pytest.mark.parametrize(
    ("query", "names", "name"),
    [
        ("प्रिया कौन है?", ("प्रिया",), "प्रिया"),
        ("हमारी टीम में प्रिया कौन है?", ("प्रिया",), "प्रिया"),
        ("शर्मा जी कौन हैं?", ("शर्मा",), "शर्मा"),
        ('"प्रिया" कौन है?', (), "प्रिया"),
    ],
)
def test_who_is_a_known_or_quoted_name_is_an_entity_question(
    query: str, names: tuple[str, ...], name: str, analyzer: Analyzer
) -> None:
    qa = analyze_query(query, NOW, analyzer=analyzer, known_entities=names)
    assert (qa.intent, qa.entities) == ("entity", (name,)), qa.reason


def test_who_is_responsible_asks_a_detail(analyzer: Analyzer) -> None:
    qa = analyze("बजट का जिम्मेदार कौन है?", analyzer)
    assert (qa.intent, qa.keywords, qa.entities) == ("detail", ("बजट", "जिम्मेदार"), ())


#: Where do we talk about X, and X.
WHERE = (
    ("बजट के बारे में कहाँ बात हुई?", "बजट"),
    ("हमने बजट पर कहां चर्चा की?", "बजट"),
    ("कहाँ बजट का ज़िक्र हुआ?", "बजट"),
    ("बजट का उल्लेख कहाँ हुआ?", "बजट"),
    ("किस बैठक में बजट पर चर्चा हुई?", "बजट"),
    # a word with vowel signs and a virama is one word, not letters trimmed away
    ("मार्केटिंग के बारे में कहाँ बात हुई?", "मार्केटिंग"),
)

WINDOWS = [
    ("आज", at(2024, 5, 8), at(2024, 5, 9)),
    ("कल", at(2024, 5, 7), at(2024, 5, 8)),
    ("कल शाम", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("कल रात को", at(2024, 5, 7, 18), at(2024, 5, 8, 6)),
    ("आज सुबह", at(2024, 5, 8), at(2024, 5, 8, 12)),
    ("परसों", at(2024, 5, 6), at(2024, 5, 7)),
    ("पिछले हफ्ते", at(2024, 4, 29), at(2024, 5, 6)),
    ("पिछले हफ़्ते", at(2024, 4, 29), at(2024, 5, 6)),
    ("इस हफ्ते", at(2024, 5, 6), at(2024, 5, 13)),
    ("पिछले महीने", at(2024, 4, 1), at(2024, 5, 1)),
    ("3 दिन पहले", at(2024, 5, 5), at(2024, 5, 6)),
    ("दो घंटे पहले", at(2024, 5, 8, 7), at(2024, 5, 8, 8)),
    ("पिछले 2 घंटों में", at(2024, 5, 8, 7, 30), None),
    ("पिछले कुछ दिनों में", at(2024, 5, 5, 9, 30), None),
    ("दोपहर 3 बजे", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("शाम 5:30 बजे", at(2024, 5, 7, 17, 30), at(2024, 5, 7, 17, 31)),
    ("कल शाम 5 बजे", at(2024, 5, 7, 17), at(2024, 5, 7, 18)),
    ("रात 9 बजे", at(2024, 5, 7, 21), at(2024, 5, 7, 22)),
    ("3 बजकर 5 मिनट", at(2024, 5, 8, 3, 5), at(2024, 5, 8, 3, 6)),
    ("14:05 बजे", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("सोमवार को", at(2024, 5, 6), at(2024, 5, 7)),
    ("पिछले सोमवार", at(2024, 5, 6), at(2024, 5, 7)),
    ("सोमवार से", at(2024, 5, 6), None),
    ("3 मई", at(2024, 5, 3), at(2024, 5, 4)),
    ("3 मई 2023", at(2023, 5, 3), at(2023, 5, 4)),
    ("मार्च में", at(2024, 3, 1), at(2024, 4, 1)),
    ("सोमवार से बुधवार तक", at(2024, 5, 6), at(2024, 5, 9)),
    ("सोमवार और बुधवार के बीच", at(2024, 5, 6), at(2024, 5, 9)),
]


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


@pytest.mark.parametrize("query", ["वह बाहर निकला", "कला प्रदर्शनी कैसी थी?", "आजकल"])
def test_a_day_word_inside_another_word_is_no_time(query: str, analyzer: Analyzer) -> None:
    assert analyze(query, analyzer).window is None


class TestHindi(AskedAlike):
    language = "hi"
    general = GENERAL
    since_yesterday = ("कल से क्या नया है?",)
    whats_new = ("क्या नया है?", "ताज़ा अपडेट क्या है?", "मुझसे क्या छूट गया?", "आजकल क्या चल रहा है?")
    where = WHERE
    windows = WINDOWS
    detected = GENERAL
