"""Unicode scripts: which writing system a text uses, and where it changes inside a word.

The script decides a lot before any model runs: Greek letters mean Greek, Hangul means Korean,
Han without Kana means Chinese, and Latin narrows language detection to Latin-script languages.
Scripts written without spaces (Han, Kana, Thai ...) need a word segmenter, and a run of them
inside a token is found here. Ranges follow the Unicode Scripts.txt blocks of the letters that
matter for detection and segmentation; everything else is ``"Other"``.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable

#: (first code point, last code point, script), sorted, non-overlapping.
_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x0041, 0x005A, "Latin"),
    (0x0061, 0x007A, "Latin"),
    (0x00C0, 0x024F, "Latin"),
    (0x0250, 0x02AF, "Latin"),
    (0x0370, 0x03FF, "Greek"),
    (0x0400, 0x052F, "Cyrillic"),
    (0x0531, 0x058F, "Armenian"),
    (0x0591, 0x05FF, "Hebrew"),
    (0x0600, 0x06FF, "Arabic"),
    (0x0700, 0x074F, "Syriac"),
    (0x0750, 0x077F, "Arabic"),
    (0x0780, 0x07BF, "Thaana"),
    (0x0860, 0x08FF, "Arabic"),
    (0x0900, 0x097F, "Devanagari"),
    (0x0980, 0x09FF, "Bengali"),
    (0x0A00, 0x0A7F, "Gurmukhi"),
    (0x0A80, 0x0AFF, "Gujarati"),
    (0x0B00, 0x0B7F, "Oriya"),
    (0x0B80, 0x0BFF, "Tamil"),
    (0x0C00, 0x0C7F, "Telugu"),
    (0x0C80, 0x0CFF, "Kannada"),
    (0x0D00, 0x0D7F, "Malayalam"),
    (0x0D80, 0x0DFF, "Sinhala"),
    (0x0E00, 0x0E7F, "Thai"),
    (0x0E80, 0x0EFF, "Lao"),
    (0x0F00, 0x0FFF, "Tibetan"),
    (0x1000, 0x109F, "Myanmar"),
    (0x10A0, 0x10FF, "Georgian"),
    (0x1100, 0x11FF, "Hangul"),
    (0x1200, 0x139F, "Ethiopic"),
    (0x1780, 0x17FF, "Khmer"),
    (0x19E0, 0x19FF, "Khmer"),
    (0x1C80, 0x1C8F, "Cyrillic"),
    (0x1C90, 0x1CBF, "Georgian"),
    (0x1E00, 0x1EFF, "Latin"),
    (0x1F00, 0x1FFF, "Greek"),
    (0x2D00, 0x2D2F, "Georgian"),
    (0x2DE0, 0x2DFF, "Cyrillic"),
    (0x2E80, 0x2FDF, "Han"),
    (0x3005, 0x3007, "Han"),
    (0x3021, 0x3029, "Han"),
    (0x3038, 0x303B, "Han"),
    (0x3041, 0x309F, "Kana"),
    (0x30A0, 0x30FF, "Kana"),
    (0x3130, 0x318F, "Hangul"),
    (0x31F0, 0x31FF, "Kana"),
    (0x3400, 0x4DBF, "Han"),
    (0x4E00, 0x9FFF, "Han"),
    (0xA640, 0xA69F, "Cyrillic"),
    (0xA720, 0xA7FF, "Latin"),
    (0xA960, 0xA97F, "Hangul"),
    (0xAB30, 0xAB6F, "Latin"),
    (0xAC00, 0xD7FF, "Hangul"),
    (0xF900, 0xFAFF, "Han"),
    (0xFB1D, 0xFB4F, "Hebrew"),
    (0xFB50, 0xFDFF, "Arabic"),
    (0xFE70, 0xFEFF, "Arabic"),
    (0xFF21, 0xFF3A, "Latin"),
    (0xFF41, 0xFF5A, "Latin"),
    (0xFF66, 0xFF9F, "Kana"),
    (0xFFA0, 0xFFDC, "Hangul"),
    (0x1B000, 0x1B16F, "Kana"),
    (0x20000, 0x3134F, "Han"),
)
_STARTS = [start for start, _, _ in _RANGES]
_LATIN = "".join(f"{chr(start)}-{chr(end)}" for start, end, script in _RANGES if script == "Latin")
#: A letter in the Latin ranges; a letter outside them.
_LATIN_LETTER = re.compile(f"(?=[{_LATIN}])[^\\W\\d_]")
_ASCII_LETTER = re.compile("[A-Za-z]")
_NON_LATIN_LETTER = re.compile(f"(?![{_LATIN}])[^\\W\\d_]")

#: Scripts whose words are not separated by spaces: a token in them is a phrase or a sentence.
UNSPACED_SCRIPTS = frozenset({"Han", "Kana", "Thai", "Lao", "Khmer", "Myanmar", "Tibetan"})


def script_class(scripts: Iterable[str]) -> str:
    """A regular-expression character class of the code points of ``scripts`` (names as
    :func:`char_script` gives them: "Han", "Kana", "Greek" ...).

    >>> re.fullmatch(script_class(["Greek"]) + "+", "Ελληνικά") is not None
    True
    """
    wanted = set(scripts)
    return "[" + "".join(f"{chr(a)}-{chr(b)}" for a, b, script in _RANGES if script in wanted) + "]"


def _letters_of(scripts: frozenset[str]) -> re.Pattern[str]:
    """One letter (marks apart: a Thai vowel sign is not one) of any of ``scripts``."""
    return re.compile(f"(?={script_class(scripts)})[^\\W\\d_]")


#: A letter of a script written without spaces: a language model spends a token or so on each.
UNSPACED_LETTER = _letters_of(UNSPACED_SCRIPTS)
#: A letter of Han or Kana, which is a word or a syllable, where a letter of the other unspaced
#: scripts (Thai, Lao, Khmer ...) is a sound: their words run four or five letters.
IDEOGRAPHIC_LETTER = _letters_of(frozenset({"Han", "Kana"}))
#: Letters of an alphabet written without spaces per word, where a budget counts words.
LETTERS_PER_WORD = 4
_UNSPACED_CHARACTER = re.compile(script_class(UNSPACED_SCRIPTS))


def has_unspaced(text: str) -> bool:
    """Whether ``text`` holds a character of a script written without spaces (ASCII text is
    answered at once: budgets ask this of every text they count)."""
    return not text.isascii() and _UNSPACED_CHARACTER.search(text) is not None


#: Scripts that the character-bigram fallback handles (Lucene's CJK analyzer does the same).
CJK_SCRIPTS = frozenset({"Han", "Kana", "Hangul"})

OTHER = "Other"


def char_script(character: str) -> str:
    """The script of one character (``"Other"`` for digits, punctuation, symbols, marks...)."""
    code = ord(character)
    index = bisect_right(_STARTS, code) - 1
    if index >= 0:
        start, end, script = _RANGES[index]
        if start <= code <= end:
            return script
    return OTHER


def script_counts(text: str) -> Counter[str]:
    """How many letters of each script ``text`` has (characters of no script are not counted)."""
    counts: Counter[str] = Counter(char_script(c) for c in text if c.isalpha())
    counts.pop(OTHER, None)
    return counts


def dominant_script(text: str) -> str:
    """The script most of the letters of ``text`` are written in; Kana makes Han text Japanese
    (``"Kana"`` wins as soon as there is any, since Japanese mixes both), ``"Other"`` when there
    are no letters."""
    if text.isascii():
        return "Latin" if _ASCII_LETTER.search(text) else OTHER
    if _NON_LATIN_LETTER.search(text) is None:  # most text: two searches instead of a count
        return "Latin" if _LATIN_LETTER.search(text) else OTHER
    counts = script_counts(text)
    if not counts:
        return OTHER
    best = counts.most_common(1)[0][0]
    if best == "Han" and counts.get("Kana"):
        return "Kana"
    return best


def script_runs(token: str) -> list[tuple[str, str]]:
    """``token`` cut where its script changes between unspaced/CJK scripts and the rest:
    ``"iPhone手机"`` -> ``[("Other", "iPhone"), ("Han", "手机")]``. Han and Kana stay one run,
    as Japanese writes them together."""
    runs: list[tuple[str, str]] = []
    current, start = None, 0
    for index, character in enumerate(token):
        script = char_script(character)
        kind = script if script in UNSPACED_SCRIPTS or script in CJK_SCRIPTS else OTHER
        if kind == "Kana":
            kind = "Han"
        if kind != current:
            if current is not None:
                runs.append((current, token[start:index]))
            current, start = kind, index
    if current is not None:
        runs.append((current, token[start:]))
    return runs


_SEGMENTED_CHARACTER = re.compile(script_class(UNSPACED_SCRIPTS | CJK_SCRIPTS))


def needs_segmentation(token: str) -> bool:
    """Whether ``token`` holds characters of a script that is written without spaces (or CJK);
    one regular-expression search, since every text of every language is checked."""
    if token.isascii():
        return False
    return _SEGMENTED_CHARACTER.search(token) is not None


#: Vowel letters of the alphabets whose languages lingua is left to choose among with no list of
#: function words to check it against (Latin: Swahili, Welsh...; Cyrillic: Belarusian...).
_VOWELS = {
    "Latin": frozenset("aeiouy"),
    "Cyrillic": frozenset("аеёиоуыэюяіїєўүұөә"),
}
#: Running text in those alphabets has a third of its letters vowels or more (0.33-0.55 in the
#: public sets and in the Universal Declaration in 22 languages); uniformly random letters have
#: about 0.23.
MIN_VOWEL_SHARE = 0.32


def vowels_plausible(text: str) -> bool:
    """Whether the letters of ``text`` have the share of vowels of running text (always true
    for a script without a vowel list here): keyboard noise and random letter strings do not."""
    letters = [c for c in unicodedata.normalize("NFD", text.casefold()) if c.isalpha()]
    vowels = _VOWELS.get(dominant_script(text))
    if vowels is None or not letters:
        return True
    return sum(c in vowels for c in letters) >= MIN_VOWEL_SHARE * len(letters)
