"""What a lexicon file names instead of writing out: tables that a rule makes and a list would
only repeat. A file takes a number table with ``numbers_from = "<name>"`` and a shared
fragment with ``{NAME}`` (:mod:`.loader`)."""

from __future__ import annotations

from collections.abc import Callable

_DIGITS = ("一", "二", "三", "四", "五", "六", "七", "八", "九")


def han_numbers() -> dict[str, int]:
    """One to fifty-nine ("十", "十五", "二十三"): every count of minutes, hours or days a
    question names; Chinese "两"/"兩"/"俩" (two before a unit), and "几"/"幾" ("a few") as 3.
    Chinese and Japanese write them alike."""
    numbers = {digit: value for value, digit in enumerate(_DIGITS, 1)}
    for tens in range(1, 6):
        ten = ("" if tens == 1 else _DIGITS[tens - 1]) + "十"
        numbers[ten] = tens * 10
        for value, digit in enumerate(_DIGITS, 1):
            numbers[ten + digit] = tens * 10 + value
    return {**numbers, "两": 2, "兩": 2, "俩": 2, "几": 3, "幾": 3}


def _hangul_with_final(final: int) -> str:
    """A character class of the Hangul syllables whose final consonant has index ``final``
    (syllable = 0xAC00 + (initial * 21 + vowel) * 28 + final)."""
    return "[" + "".join(chr(c) for c in range(0xAC00, 0xD7A4) if (c - 0xAC00) % 28 == final) + "]"


#: ``numbers_from`` name -> the table it gives.
NUMBER_TABLES: dict[str, Callable[[], dict[str, int]]] = {"han": han_numbers}

#: Fragments every file may use as ``{NAME}``: the 399 syllables that end in ㅆ (a Korean verb
#: in the past: "었", "했", "졌"; "있", "겠").
SHARED_FRAGMENTS: dict[str, str] = {"HANGUL_FINAL_SS": _hangul_with_final(20)}
