"""Detection per candidate set: texts that agree with their set's language take it, outliers
keep their own language only where two signals (lingua and function words) agree."""

from __future__ import annotations

import pytest
from rerank_plus import Analyzer, BM25Reranker
from rerank_plus.analysis.function_words import FunctionWordCounts
from rerank_plus.analysis.language import (
    DEFAULT_LANGUAGES,
    Detection,
    LanguageDetector,
    lingua_detector,
    resolve_languages,
)
from rerank_plus.analysis.languages import LANGUAGE_SCRIPTS

LATIN = tuple(code for code in DEFAULT_LANGUAGES if LANGUAGE_SCRIPTS[code] == "Latin")

ENGLISH = [
    "The wing of the aircraft was tested in the wind tunnel at several angles of attack.",
    "A boundary layer forms on the surface of the plate when the flow is viscous.",
    "The engineers measured the pressure on the body of the missile during the flight.",
    "Heat transfer to the nose of the vehicle grows quickly as the speed increases.",
    "The shock wave in front of the blunt body was observed with a schlieren system.",
]
#: Lowercase technical titles and a list of names: lingua among every Latin-script language takes
#: them for Catalan and Icelandic (checked below), though they are English or no language at all.
TITLE = "thermal stresses in a multiweb wing structure under transient aerodynamic heating ."
NAMES = (
    "Ban Ki-moon, Kofi Annan, Boutros Boutros-Ghali, Javier Pérez de Cuéllar, Kurt Waldheim, "
    "U Thant, Dag Hammarskjöld, Trygve Lie"
)
GERMAN = (
    "Die Tragfläche des Flugzeugs wurde im Windkanal bei verschiedenen Anstellwinkeln getestet."
)
TURKISH = "Ankara, Türkiye Cumhuriyeti'nin başkentidir ve büyük bir şehirdir."


@pytest.fixture(scope="module")
def detector() -> LanguageDetector:
    return LanguageDetector()


def set_languages(texts: list[str]) -> list[str]:
    query, *documents = LanguageDetector().detect_many(["wing", *texts])
    return resolve_languages(query, documents)[1]


def test_lingua_among_every_latin_language_takes_the_title_and_the_names_for_others() -> None:
    lingua = lingua_detector(LATIN)
    for text in (TITLE, NAMES):
        assert lingua.detect_language_of(text).iso_code_639_1.name.lower() != "en"


def test_alone_the_title_is_english_and_the_names_are_in_no_language(
    detector: LanguageDetector,
) -> None:
    # the title's function words are English, and lingua among their rivals agrees; the names
    # show function words of no language lingua finds in them
    assert detector.detect(TITLE).language == "en"
    assert detector.detect(NAMES) == Detection(None, 0.0, reliable=False, script="Latin")


def test_texts_of_an_english_set_are_all_english() -> None:
    assert set_languages([*ENGLISH, TITLE, NAMES]) == ["en"] * (len(ENGLISH) + 2)


def test_a_text_in_another_language_keeps_its_own_inside_a_set() -> None:
    languages = set_languages([*ENGLISH, GERMAN, TURKISH])
    assert languages == ["en"] * len(ENGLISH) + ["de", "tr"]


def test_a_set_in_mixed_languages_votes_for_the_majority() -> None:
    languages = set_languages([GERMAN, *ENGLISH, "Guten Morgen, wie geht es dir heute?"])
    assert languages == ["de", *["en"] * len(ENGLISH), "de"]


def test_cached_texts_say_what_language_new_ones_are_in() -> None:
    analyzer = Analyzer()
    analyzer.detect_many(ENGLISH)
    *_, title = analyzer.detect_many([*ENGLISH, TITLE])
    assert (title.language, title.reliable) == ("en", True)


def test_an_outlier_detection_does_not_change_the_ranking_of_its_set() -> None:
    query = "thermal stresses in a wing structure"
    documents = [NAMES, *ENGLISH, TITLE]
    ranked = BM25Reranker().rank(query, documents, explain=True)
    assert documents[ranked[0].index] == TITLE
    assert {r.explanation["document_language"] for r in ranked} == {"en"}


def test_function_words_agree_with_the_language_they_belong_to() -> None:
    english = FunctionWordCounts(ENGLISH[0], LATIN)
    assert english.agrees_with("en")
    assert not english.agrees_with("de")
    assert FunctionWordCounts(GERMAN, LATIN).agrees_with("de")
    names = FunctionWordCounts(NAMES, LATIN)
    assert not names.supports("en")
    assert not names.backs("is", against="en")


def test_close_languages_tie_on_their_shared_function_words() -> None:
    spanish_like = FunctionWordCounts("de la que", LATIN)
    assert spanish_like.backs("es", against="ca")
    assert spanish_like.backs("ca", against="es")


def test_turkish_capital_dotted_i_is_read_as_i() -> None:
    # casefold() alone makes "İÇİN" "i̇çi̇n", with a combining dot that no stop word has
    assert FunctionWordCounts("İÇİN ve", LATIN).counts["tr"] == 2


def test_empty_and_non_letter_texts_have_no_function_words() -> None:
    for text in ("", "🙂 ?! 2024", "北京"):
        counts = FunctionWordCounts(text, LATIN)
        assert counts.words == 0 or not counts.counts
        assert not counts.agrees_with("en")
