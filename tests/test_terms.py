"""The per-word half of the analysis (``rerank_plus.analysis.terms``): tokens that mix scripts,
dictionary segmenters, stop words inside unspaced text, and the cache of pieces' words."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.analysis import terms as terms_module
from rerank_plus.analysis.terms import clear_piece_cache, text_words
from rerank_plus.analysis.tokenize import LONGEST_CACHED_PIECE


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def test_a_latin_run_glued_to_han_is_lemmatized_and_stop_words_drop(analyzer: Analyzer) -> None:
    # "cats東京" and "the東京" are one token each: the Latin run keeps the English rules
    # (lemma, stop word), the Han run gets n-grams (English has no segmenter).
    analysis = analyzer.analyze("cats東京 houses the東京", "en")
    assert analysis.tokens == ("cats", "東京", "houses", "the", "東京")
    assert analysis.lemmas == ("cat", "東京", "house", "the", "東京")
    assert analysis.terms == ("cat", "東京", "house", "東京")


def test_a_latin_run_in_chinese_text_stays_one_word(analyzer: Analyzer) -> None:
    assert analyzer.analyze("iPhone手机", "zh").terms == ("iphone", "手机")


def test_han_runs_go_to_the_language_segmenter_and_its_stop_words_apply(
    analyzer: Analyzer,
) -> None:
    analysis = analyzer.analyze("我去图书馆看书的时候", "zh")
    assert "图书馆" in analysis.tokens  # jieba's word, not the bigrams 图书 and 书馆
    assert "的" in analysis.tokens and "的" not in analysis.terms
    assert analysis.terms == ("图书馆", "看书")
    japanese = analyzer.analyze("東京の図書館", "ja")
    assert japanese.tokens == ("東京", "の", "図書館")
    assert japanese.terms == ("東京", "図書館")


@pytest.fixture
def empty_piece_cache() -> Iterator[None]:
    clear_piece_cache()
    yield
    clear_piece_cache()


def cached(language: str = "en") -> dict[str, object]:
    return terms_module._piece_cache.get((language, True, "both"), {})


@pytest.mark.usefixtures("empty_piece_cache")
def test_pieces_up_to_the_longest_cached_length_are_cached_with_their_words() -> None:
    short, longest, longer = "cats", "a" * LONGEST_CACHED_PIECE, "b" * (LONGEST_CACHED_PIECE + 1)
    words = text_words([short, longest, longer], "en", True, "both")
    assert words[0] == (("cats",), ("cat",), ("cat",))
    assert cached() == {short: words[0], longest: words[1]}
    assert terms_module._cached_pieces == 2
    assert text_words([short, longest, longer], "en", True, "both") == words


@pytest.mark.usefixtures("empty_piece_cache")
def test_the_piece_cache_starts_afresh_past_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terms_module, "MAX_CACHED_PIECES", 3)
    text_words(["cats", "dogs", "birds"], "en", True, "both")
    assert list(cached()) == ["cats", "dogs", "birds"]
    assert terms_module._cached_pieces == 3
    words = text_words(["mice", "cats"], "en", True, "both")
    # "mice" would fill it past 3: everything is forgotten, then "mice" kept ("cats" was a hit,
    # read before the cache started afresh)
    assert list(cached()) == ["mice"]
    assert terms_module._cached_pieces == 1
    assert words == [(("mice",), ("mouse",), ("mouse",)), (("cats",), ("cat",), ("cat",))]


def test_clearing_forgets_every_piece_and_the_count() -> None:
    text_words(["cats"], "en", True, "both")
    clear_piece_cache()
    assert terms_module._piece_cache == {} and terms_module._cached_pieces == 0
