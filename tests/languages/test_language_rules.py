# ruff: noqa: RUF001, SIM905  (text in many scripts is the point here)
"""Never another language's rules: the language-neutral path, script detection, the base forms
and stop words of the reported language only, and the fallback when a segmenter is missing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rerank_plus import Analyzer, BM25Reranker
from rerank_plus.analysis import segment, terms
from rerank_plus.analysis.languages import NEUTRAL, profile
from rerank_plus.analysis.lemmatize import lemmatize
from rerank_plus.analysis.normalize import fold
from rerank_plus.analysis.stem import stem
from rerank_plus.analysis.stopwords import stop_words

#: Words from several scripts and languages, glued into texts by hypothesis.
WORDS = (
    "the running houses Häuser courait niños медведи живут İstanbul'daki müzeler "
    "Αθήνας πρωτεύουσα عاصمة القاهرة भारत राजधानी 北京是中国的首都 東京は日本の首都です "
    "เมืองหลวงของประเทศไทย 대한민국의 thủ đô 2024 🙂 ?! e-mail"
).split()
LANGUAGES = ("en", "de", "fr", "ru", "tr", "el", "ar", "hi", "zh", "ja", "th", "ko", "vi", NEUTRAL)


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def own_base_forms(word: str, language: str) -> set[str]:
    """Every base form ``language``'s own rules can give ``word`` (and nothing else)."""
    parts = profile(language)
    forms = {fold(word, language)}
    if parts.lemmas:
        forms.add(fold(lemmatize(word, parts.lemmas), language))
    if parts.stemmer:
        forms.add(stem(fold(word, language), parts.stemmer))
    return forms


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=8),
    language=st.sampled_from((None, *LANGUAGES)),
)
def test_no_text_gets_another_languages_lemmas_or_stop_words(
    analyzer: Analyzer, words: list[str], language: str | None
) -> None:
    analysis = analyzer.analyze(" ".join(words), language)
    reported = analysis.language
    stops = stop_words(reported)
    for token, base in zip(analysis.tokens, analysis.lemmas, strict=True):
        assert base in own_base_forms(token, reported)
    dropped = [
        (token, base)
        for token, base in zip(analysis.tokens, analysis.lemmas, strict=True)
        if base not in analysis.term_frequencies
    ]
    for token, base in dropped:
        assert base in stops or fold(token, reported) in stops
    if reported == NEUTRAL:
        assert analysis.terms == analysis.lemmas
        assert analysis.path.startswith("neutral")


def test_unknown_scripts_take_the_neutral_path(analyzer: Analyzer) -> None:
    khmer = "ភ្នំពេញ ជា រាជធានី នៃ ប្រទេស កម្ពុជា"
    analysis = analyzer.analyze(khmer)
    assert analysis.language == NEUTRAL
    assert analysis.script == "Khmer"
    assert analysis.path == "neutral+ngrams"
    assert analysis.terms


def test_a_language_left_out_is_never_replaced_by_another(analyzer: Analyzer) -> None:
    english_only = Analyzer(languages=("en", "fr"))
    analysis = english_only.analyze("Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και η μεγαλύτερη πόλη.")
    assert analysis.language == NEUTRAL
    assert "η" in analysis.terms  # no Greek stop words, and no English ones either


def test_the_script_decides_or_narrows_detection(analyzer: Analyzer) -> None:
    assert analyzer.detect("Η Αθήνα είναι η πρωτεύουσα").language == "el"
    assert analyzer.detect("東京は日本の首都です").language == "ja"
    assert analyzer.detect("北京是中国的首都").language == "zh"
    assert analyzer.detect("서울은 대한민국의 수도이다").script == "Hangul"
    detection = analyzer.detect("Это русское предложение о погоде в Москве.")
    assert (detection.language, detection.script) == ("ru", "Cyrillic")


def test_a_short_greek_document_among_english_ones_keeps_greek(analyzer: Analyzer) -> None:
    documents = [
        "Athens is the capital and the largest city of Greece, with a long history.",
        "The Acropolis of Athens is an ancient citadel above the city.",
        "Αθήνα",
    ]
    _, languages = analyzer.languages_for("capital of Greece", documents)
    assert languages == ["en", "en", "el"]


def test_empty_emoji_and_non_letter_texts_take_the_neutral_path(analyzer: Analyzer) -> None:
    for text in ("", "🙂🚀", "?!...", "   "):
        analysis = analyzer.analyze(text)
        assert (analysis.language, analysis.terms) == (NEUTRAL, ())


def test_stems_where_no_lemma_dictionary_exists(analyzer: Analyzer) -> None:
    assert profile("eu").reduction == "stems"
    analysis = analyzer.analyze("etxeak", "eu")  # Basque: "the houses"
    assert analysis.path == "stems"
    assert analysis.terms == ("etxe",)


@pytest.fixture
def without_segmenters(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As if jieba, SudachiPy and pythainlp were not installed (caches emptied both ways)."""

    def clear() -> None:
        segment.segmenter_for.cache_clear()
        terms.clear_piece_cache()

    clear()
    monkeypatch.setattr(segment, "_installed", lambda package: False)
    yield
    monkeypatch.undo()
    clear()


@pytest.mark.usefixtures("without_segmenters")
def test_without_segmenters_cjk_falls_back_to_bigrams_and_thai_to_trigrams() -> None:
    analyzer = Analyzer(stopwords="none")
    chinese = analyzer.analyze("北京大学", "zh")
    assert chinese.terms == ("北京", "京大", "大学")
    assert chinese.path == "words+ngrams"
    assert analyzer.analyze("ประเทศไทย", "th").terms[:2] == ("ประ", "ระเ")
    results = BM25Reranker().rank(
        "北京是中国的首都吗？", ["上海是中国最大的城市。", "北京是中国的首都。"]
    )
    assert results[0].index == 1


def test_with_segmenters_words_are_dictionary_words() -> None:
    pytest.importorskip("jieba")
    analysis = Analyzer(stopwords="none").analyze("北京是中国的首都", "zh")
    assert analysis.path == "words+jieba"
    assert "北京" in analysis.terms and "首都" in analysis.terms
