"""What Chinese and Japanese share of Han characters: the numbers written with them ("三",
"十五", "二十"), the months named by them, and the full-width marks that end a question."""

from __future__ import annotations

_DIGITS = ("一", "二", "三", "四", "五", "六", "七", "八", "九")

#: January first: Chinese and Japanese name months by their number ("三月", "3月").
HAN_MONTHS = tuple(
    f"{name}月|{number}月" for number, name in enumerate([*_DIGITS, "十", "十一", "十二"], 1)
)


#: Nothing but the marks and spaces that end a question (ASCII or full-width) follows.
AT_QUESTION_END = r"(?=[?\uff1f!\uff01\u3002.\s]*$)"


def han_numbers() -> dict[str, int]:
    """One to fifty-nine ("十", "十五", "二十三"): every count of minutes, hours or days a
    question names; Chinese "两"/"兩"/"俩" (two before a unit), and "几"/"幾" ("a few") as 3."""
    numbers = {digit: value for value, digit in enumerate(_DIGITS, 1)}
    for tens in range(1, 6):
        ten = ("" if tens == 1 else _DIGITS[tens - 1]) + "十"
        numbers[ten] = tens * 10
        for value, digit in enumerate(_DIGITS, 1):
            numbers[ten + digit] = tens * 10 + value
    return {**numbers, "两": 2, "兩": 2, "俩": 2, "几": 3, "幾": 3}
