"""The analysis stage on the seed examples and per language."""

from __future__ import annotations

import pytest
from rerank_plus import Analyzer
from rerank_plus.analysis.cache import SHORT_TEXT, content_key
from rerank_plus.analysis.language import Detection, resolve_languages
from rerank_plus.analysis.tokenize import chunks

SEED_QUERY = "How can I run faster while I am training for a marathon?"
SEED_DOCUMENT = (
    "Studies show that intensive endurance training and consistent practice help athletes "
    "improve their running speed and stamina. Regular workouts also reduce fatigue, making it "
    "easier to sustain higher speeds."
)


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def test_seed_query_becomes_the_four_terms(analyzer: Analyzer) -> None:
    analysis = analyzer.analyze(SEED_QUERY)
    assert analysis.language == "en"
    assert list(analysis.terms) == ["run", "fast", "train", "marathon"]


def test_seed_document_shares_run_and_train_with_the_query(analyzer: Analyzer) -> None:
    terms = set(analyzer.analyze(SEED_DOCUMENT).terms)
    assert {"run", "train"} <= terms


def test_stages_are_kept_for_display(analyzer: Analyzer) -> None:
    analysis = analyzer.analyze(SEED_QUERY, "en")
    assert analysis.tokens[:4] == ("How", "can", "I", "run")
    assert "?" not in analysis.tokens
    assert analysis.lemmas[analysis.tokens.index("am")] == "be"


@pytest.mark.parametrize(
    ("text", "language", "lemma"),
    [
        ("Il courait", "fr", "courir"),
        ("Nous courrons", "fr", "courir"),
        ("Die Häuser", "de", "haus"),
        ("Los niños corrían", "es", "correr"),
    ],
)
def test_lemmas_per_language(analyzer: Analyzer, text: str, language: str, lemma: str) -> None:
    assert lemma in analyzer.analyze(text, language).terms


def test_french_elisions_are_split(analyzer: Analyzer) -> None:
    analysis = analyzer.analyze("L'homme d'affaires", "fr")
    assert "homme" in analysis.terms
    assert "affaire" in analysis.terms


def test_trained_french_pipeline_lemmatizes_by_part_of_speech() -> None:
    pytest.importorskip("fr_core_news_sm")
    analyzer = Analyzer(spacy_pipelines={"fr": "fr_core_news_sm"})
    assert "courir" in analyzer.analyze("je cours tous les matins", "fr").terms


def test_missing_trained_pipeline_says_how_to_install() -> None:
    analyzer = Analyzer(spacy_pipelines={"de": "de_core_news_sm"})
    with pytest.raises(ValueError, match="pip install de-core-news-sm"):
        analyzer.analyze("Die Häuser sind alt", "de")


def test_stop_word_modes(analyzer: Analyzer) -> None:
    text = "I am running"
    assert Analyzer(stopwords="none").analyze(text, "en").terms == ("i", "be", "run")
    assert Analyzer(stopwords="surface").analyze(text, "en").terms == ("run",)
    assert Analyzer(stopwords="both").analyze(text, "en").terms == ("run",)
    with pytest.raises(ValueError, match="stopwords must be one of both, lemma, surface, none"):
        Analyzer(stopwords="sometimes")


def test_without_lemmas_words_are_only_lowercased() -> None:
    assert Analyzer(lemmatize=False).analyze("Running shoes", "en").terms == ("running", "shoes")


def test_punctuation_symbols_and_emoji_carry_no_terms(analyzer: Analyzer) -> None:
    assert analyzer.analyze("?!... 🙂🚀 -- %$", "en").terms == ()
    assert analyzer.analyze("", "en").terms == ()


def test_numbers_are_kept(analyzer: Analyzer) -> None:
    assert "2024" in analyzer.analyze("Results of the 2024 season", "en").terms


def test_analysis_is_cached_per_text_and_language() -> None:
    analyzer = Analyzer()
    first = analyzer.analyze("Marathon training plans", "en")
    assert analyzer.analyze("Marathon training plans", "en") is first
    assert analyzer.analyze("Marathon training plans", "de") is not first


def test_long_texts_are_cached_under_a_small_digest() -> None:
    long_text = "Marathon training plans. " * 200  # over SHORT_TEXT characters
    assert len(long_text) > SHORT_TEXT
    key = content_key(long_text)
    assert isinstance(key, bytes) and len(key) == 16
    assert content_key("".join(long_text)) == key and content_key(long_text + ".") != key
    assert content_key("short text") == "short text"
    analyzer = Analyzer()
    first = analyzer.analyze(long_text, "en")
    assert analyzer.analyze(" ".join(long_text.split(" ")), "en") is first


def test_cache_can_be_disabled() -> None:
    uncached, cached = Analyzer(cache_size=0), Analyzer()
    first = uncached.analyze("Marathon training plans", "en")
    again = uncached.analyze("Marathon training plans", "en")
    assert again == first and again is not first  # analyzed anew, to the same result
    assert cached.analyze("Marathon training plans", "en") is cached.analyze(
        "Marathon training plans", "en"
    )


def test_short_queries_are_unreliable(analyzer: Analyzer) -> None:
    detection = analyzer.detect("password reset")
    assert not detection.reliable


def test_unreliable_query_takes_the_candidates_language() -> None:
    query = Detection("it", 0.51, reliable=False)
    documents = [
        Detection("en", 0.9, True),
        Detection("en", 0.8, True),
        Detection("fr", 0.3, False),
    ]
    assert resolve_languages(query, documents) == ("en", ["en", "en", "en"])


def test_default_language_when_nothing_is_reliable() -> None:
    unsure = Detection(None, 0.0, reliable=False)
    assert resolve_languages(unsure, [unsure], default="de") == ("de", ["de"])


def test_detected_languages_of_real_sentences(analyzer: Analyzer) -> None:
    samples = {
        "en": "The committee approved the new budget after a long debate.",
        "fr": "Le comité a approuvé le nouveau budget après un long débat.",
        "de": "Der Ausschuss hat den neuen Haushalt nach langer Debatte gebilligt.",
        "es": "El comité aprobó el nuevo presupuesto después de un largo debate.",
    }
    for language, text in samples.items():
        assert analyzer.detect(text).language == language


def test_unknown_language_code_is_rejected() -> None:
    with pytest.raises(ValueError, match="ISO 639-1"):
        Analyzer(languages=("en", "xx"))


def test_chunks_cut_at_white_space_and_lose_nothing() -> None:
    text = "word " * 50_000
    pieces = list(chunks(text, size=1_000))
    assert "".join(pieces) == text
    assert all(len(piece) <= 1_000 for piece in pieces)
    assert all(piece.endswith(" ") for piece in pieces[:-1])
