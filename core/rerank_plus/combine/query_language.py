"""Does the first stage's model read the query's language? A cheap per-query answer.

Most first stages embed with an English-only model: on a query it cannot read, its scores are
noise and fusion should lean on the reranker. The check goes by script first (a Greek, Arabic,
Chinese or Thai query is not read by a model of Latin-script languages; no detector needed),
then, for a query in a script the model reads, by the detected language: the reranker's own
analyzer detects it anyway and caches the answer, so asking again costs a lookup.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Collection
from functools import lru_cache
from typing import Protocol

from rerank_plus.analysis.language import Detection

#: Scripts by the first word of a letter's Unicode name; kana count as the CJK script.
_SCRIPT_ALIASES = {"HIRAGANA": "CJK", "KATAKANA": "CJK"}

#: The script of languages not written in Latin letters (ISO 639-1); any other code is Latin.
LANGUAGE_SCRIPTS: dict[str, str] = {
    **dict.fromkeys(("ar", "fa", "ps", "ur"), "ARABIC"),
    **dict.fromkeys(("be", "bg", "kk", "mk", "mn", "ru", "sr", "uk"), "CYRILLIC"),
    **dict.fromkeys(("ja", "zh"), "CJK"),
    **dict.fromkeys(("hi", "mr", "ne"), "DEVANAGARI"),
    "bn": "BENGALI",
    "el": "GREEK",
    "he": "HEBREW",
    "hy": "ARMENIAN",
    "ka": "GEORGIAN",
    "ko": "HANGUL",
    "ta": "TAMIL",
    "th": "THAI",
}


class Detects(Protocol):
    """What detects a text's language: an :class:`rerank_plus.analysis.Analyzer` (cached)."""

    def detect(self, text: str) -> Detection: ...


@lru_cache(maxsize=4096)
def dominant_script(text: str) -> str | None:
    """The script most of the letters of ``text`` are written in; None without letters.

    >>> dominant_script("Πότε ιδρύθηκε;"), dominant_script("When?"), dominant_script("🙂 42")
    ('GREEK', 'LATIN', None)
    """
    counts: Counter[str] = Counter()
    for char in text:
        if char.isalpha():
            script = unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]
            counts[_SCRIPT_ALIASES.get(script, script)] += 1
    return counts.most_common(1)[0][0] if counts else None


@lru_cache(maxsize=64)
def _scripts(languages: frozenset[str]) -> frozenset[str]:
    return frozenset(LANGUAGE_SCRIPTS.get(code, "LATIN") for code in languages)


def reads_script(query: str, languages: Collection[str]) -> bool | None:
    """Whether the query is written in a script of ``languages``; None without letters.

    A model of Latin-script languages still shares names, numbers and cognates with a German
    query, but not a single word with a Greek or Thai one: the two cases weigh differently.

    >>> reads_script("Πότε;", ("en",)), reads_script("Wann?", ("en",)), reads_script("42", ("en",))
    (False, True, None)
    """
    script = dominant_script(query)
    return None if script is None else script in _scripts(frozenset(languages))


def reads_query(
    query: str, languages: Collection[str], detector: Detects | None
) -> tuple[str | None, bool | None]:
    """(the query's language or script, whether a model of ``languages`` reads it).

    None for "cannot tell": no letters, or a detection that is not reliable.
    """
    script = dominant_script(query)
    if script is None:
        return None, None
    if script not in _scripts(frozenset(languages)):
        return script.lower(), False
    if detector is None:
        return None, None
    detection = detector.detect(query)
    if not detection.reliable or detection.language is None:
        return None, None
    if LANGUAGE_SCRIPTS.get(detection.language, "LATIN") != script:
        return None, None
    return detection.language, detection.language in languages
