"""Word segmentation for scripts written without spaces: Chinese, Japanese, Thai, Korean...

With the optional segmenters installed (``pip install rerank-plus[cjk]`` for jieba and SudachiPy,
``rerank-plus[thai]`` for pythainlp), runs of those scripts are cut into dictionary words.
Without them every run falls back to overlapping character n-grams: bigrams for Han, Kana and
Hangul ("北京大学" -> "北京", "京大", "大学", the dependency-free analysis of Lucene's CJK
analyzer), trigrams for Thai and its neighbours. They need no dictionary and match as well as
dictionary words do for BM25 (docs/benchmarks.md has the comparison).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import cache

#: Segmenter of each language, and the package it needs.
SEGMENTER_PACKAGES = {"zh": "jieba", "ja": "sudachipy", "th": "pythainlp"}
#: The extra that installs each segmenter.
SEGMENTER_EXTRAS = {"jieba": "cjk", "sudachipy": "cjk", "pythainlp": "thai"}


#: Scripts whose characters are letters rather than syllables or morphemes (Thai, Lao, Khmer,
#: Myanmar, Tibetan): two of them say too little, so their fallback n-grams are three long.
ALPHABETIC_UNSPACED = frozenset({"Thai", "Lao", "Khmer", "Myanmar", "Tibetan"})


def ngrams(run: str, size: int) -> list[str]:
    """Overlapping character n-grams of ``run``; a run shorter than ``size`` is its own term."""
    if len(run) < size:
        return [run] if run else []
    return [run[i : i + size] for i in range(len(run) - size + 1)]


def fallback_ngrams(run: str, script: str) -> list[str]:
    """The dictionary-free terms of a run: character bigrams for Han, Kana and Hangul (Lucene's
    CJK analyzer), trigrams for alphabetic unspaced scripts (measured on Thai: trigrams match
    as well as pythainlp's words, bigrams less well; docs/benchmarks.md)."""
    return ngrams(run, 3 if script in ALPHABETIC_UNSPACED else 2)


def _installed(package: str) -> bool:
    return importlib.util.find_spec(package) is not None


@cache
def _jieba() -> Callable[[str], list[str]]:
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    return lambda run: jieba.lcut(run, HMM=True)


@cache
def _sudachi() -> Callable[[str], list[str]]:
    from sudachipy import Dictionary, SplitMode

    tokenizer = Dictionary().tokenizer()
    return lambda run: [m.normalized_form() for m in tokenizer.tokenize(run, SplitMode.B)]


@cache
def _pythainlp() -> Callable[[str], list[str]]:
    from pythainlp.tokenize import word_tokenize

    return lambda run: word_tokenize(run, engine="newmm", keep_whitespace=False)


_SEGMENTERS: dict[str, Callable[[], Callable[[str], list[str]]]] = {
    "jieba": _jieba,
    "sudachipy": _sudachi,
    "pythainlp": _pythainlp,
}


@cache
def segmenter_for(language: str) -> str:
    """The name of the segmenter ``language`` gets here: its package, or ``"ngrams"``."""
    package = SEGMENTER_PACKAGES.get(language)
    return package if package and _installed(package) else "ngrams"


def segment(run: str, script: str, language: str) -> list[str]:
    """The words of one run of an unspaced script, read as ``language``.

    A run is segmented by the language's dictionary segmenter only when the run is in that
    language's own script (a Han run inside Thai text is not Thai): everything else gets n-grams.
    """
    name = segmenter_for(language)
    own_script = {"zh": {"Han"}, "ja": {"Han"}, "th": {"Thai"}}.get(language, set())
    if name == "ngrams" or script not in own_script:
        return fallback_ngrams(run, script)
    return [word for word in _SEGMENTERS[name]()(run) if word.strip()]
