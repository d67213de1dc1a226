# ruff: noqa: RUF001, RUF002  (text in many scripts is the point here)
"""Normalization that real text needs, so that two spellings of one word become one term.

Text-level (every language): Unicode NFKC (full-width "Ｒｅｒａｎｋ" and half-width "ｶﾀｶﾅ" fold
to their usual forms, ligatures "ﬁ" to "fi"), Arabic diacritics (tashkeel) and tatweel removed.
Word-level (per language): case folding (``str.casefold``: German "ß" -> "ss", Greek final
sigma "ς" -> "σ"), Turkish and Azerbaijani dotted/dotless i ("I" -> "ı", "İ" -> "i"), Romanian
s and t with cedilla treated as the comma-below letters, Greek accents removed.
"""

from __future__ import annotations

import re
import unicodedata

#: Arabic harakat, tanwin, shadda, sukun, superscript alef, Quranic marks, and tatweel.
_ARABIC_MARKS = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]")
_TURKIC = frozenset({"tr", "az"})
_ROMANIAN_COMMA = str.maketrans("ŞşŢţ", "ȘșȚț")
_TURKIC_UPPER_I = str.maketrans({"I": "ı", "İ": "i"})


def normalize_text(text: str) -> str:
    """NFKC, then Arabic diacritics and tatweel removed (they never change the word); ASCII
    text is already both."""
    if text.isascii():
        return text
    return _ARABIC_MARKS.sub("", unicodedata.normalize("NFKC", text))


def _strip_accents(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


def fold(word: str, language: str) -> str:
    """The case-folded form of ``word`` under the rules of ``language``."""
    if language in _TURKIC:
        word = word.translate(_TURKIC_UPPER_I)
    elif language == "ro":
        word = word.translate(_ROMANIAN_COMMA)
    folded = word.casefold()
    if "i\u0307" in folded:  # "İ" outside Turkish: the dot is not a separate letter
        folded = folded.replace("i\u0307", "i")
    if language == "el":
        folded = _strip_accents(folded)
    return folded
