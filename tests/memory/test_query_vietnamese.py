"""Query analysis in Vietnamese: the questions of test_query_languages.py as Vietnamese users
ask them, and the words of other languages that the Vietnamese cues, folded without their
tones, must leave alone."""

from __future__ import annotations

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import analyze_query

from tests.memory.asked_alike import AskedAlike, KeepsOtherLanguagesWords
from tests.memory.query_moment import NOW, analyze, at

#: A summary, the main points, what was said or decided.
GENERAL = [
    "Tóm tắt cuộc họp",
    "Các điểm chính của cuộc họp là gì?",
    "Chúng ta đã thảo luận những gì?",
    "Cuộc họp nói về gì?",
    "Những quyết định nào đã được đưa ra?",
    "Hãy tóm tắt ngắn gọn buổi thảo luận",
    "Cho tôi biết tổng quan về cuộc họp",
    "Nội dung chính của buổi họp là gì?",
    "Chúng ta đã bàn về những vấn đề gì trong cuộc họp?",
]

#: A topic named, even next to a summary cue: the topic stays (a word is its syllables), the
#: scope words go.
SPECIFIC = [
    ("Tóm tắt phần thảo luận về ngân sách", ("ngân", "sách")),
    ("Các điểm chính về ngân sách là gì?", ("ngân", "sách")),
    ("Anh Tuấn đã nói gì về marketing?", ("tuấn", "marketing")),
    ("Giá của sản phẩm mới là bao nhiêu?", ("giá", "sản", "phẩm", "bao")),
    ("Ai là người phụ trách ngân sách?", ("phụ", "trách", "ngân", "sách")),
]

#: "What's new since yesterday?": "kể từ", "từ" alone, and "từ ... đến nay" (until now).
SINCE_YESTERDAY = [
    "Có gì mới kể từ hôm qua?",
    "Có gì mới từ hôm qua?",
    "Từ hôm qua đến nay có gì mới?",
]

WHATS_NEW = ["Có gì mới?", "Tôi đã bỏ lỡ gì?", "Có tin gì mới không?", "Gần đây có gì thay đổi?"]

#: "Where do we talk about the budget?", the place asked for first or last.
WHERE = [
    ("Chúng ta đã nói về ngân sách ở đâu?", "ngân sách"),
    ("Ngân sách được thảo luận ở đâu?", "Ngân sách"),
    ("Chỗ nào nhắc đến ngân sách?", "ngân sách"),
    ("Đoạn nào nói về ngân sách?", "ngân sách"),
    ("Tất cả những lần nhắc đến ngân sách", "ngân sách"),
]

#: Time expressions resolved against NOW (Wednesday 2024-05-08 09:30).
WINDOWS = [
    ("hôm nay", at(2024, 5, 8), at(2024, 5, 9)),
    ("hôm qua", at(2024, 5, 7), at(2024, 5, 8)),
    ("tối hôm qua", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("sáng nay", at(2024, 5, 8), at(2024, 5, 8, 12)),
    ("tuần trước", at(2024, 4, 29), at(2024, 5, 6)),
    ("tháng trước", at(2024, 4, 1), at(2024, 5, 1)),
    ("năm ngoái", at(2023, 1, 1), at(2024, 1, 1)),
    ("tuần này", at(2024, 5, 6), at(2024, 5, 13)),
    ("3 ngày trước", at(2024, 5, 5), at(2024, 5, 6)),
    ("cách đây 3 ngày", at(2024, 5, 5), at(2024, 5, 6)),
    ("trong 2 giờ qua", at(2024, 5, 8, 7, 30), None),
    ("3 ngày trở lại đây", at(2024, 5, 5, 9, 30), None),
    ("lúc 14:05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("lúc 14h05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("lúc 3 giờ chiều", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("hôm qua lúc 15:30", at(2024, 5, 7, 15, 30), at(2024, 5, 7, 15, 31)),
    ("vào thứ hai", at(2024, 5, 6), at(2024, 5, 7)),
    ("vào thứ 6", at(2024, 5, 3), at(2024, 5, 4)),
    ("vào chủ nhật", at(2024, 5, 5), at(2024, 5, 6)),
    ("thứ Hai tuần trước", at(2024, 5, 6), at(2024, 5, 7)),
    ("từ thứ hai", at(2024, 5, 6), None),
    ("ngày 3 tháng 5", at(2024, 5, 3), at(2024, 5, 4)),
    ("vào tháng 3", at(2024, 3, 1), at(2024, 4, 1)),
    ("tháng 5 năm 2023", at(2023, 5, 1), at(2023, 6, 1)),
    ("từ thứ Hai đến thứ Tư", at(2024, 5, 6), at(2024, 5, 9)),
    ("từ 10 giờ đến 11 giờ", at(2024, 5, 7, 10), at(2024, 5, 7, 12)),
    ("giữa 10:00 và 11:30", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
]

#: "thứ hai" is also "the second", "thứ tự" (order) folds as "thứ tư" (Wednesday): no day.
NOT_WEEKDAYS = ["Đây là lần thứ hai chúng ta họp", "Liệt kê theo thứ tự thời gian"]

DETECTED = [
    "Tóm tắt cuộc họp hôm qua",
    "Có gì mới kể từ hôm qua?",
    "Chúng ta đã nói về ngân sách ở đâu?",
    "Các điểm chính của cuộc họp là gì?",
]

#: Folded, "vấn đề" (issue) and "đề cập" (mention) typed with a plain "d" are French and
#: Dutch "van de", French and Spanish "de cap": those words stay.
OTHERS = [
    ("Qui a peint le tableau de Van de Velde ?", ("peindre", "tableau", "van", "velde")),
    ("Où se trouve la ville de Cap-Haïtien ?", ("trouver", "ville", "cap-haïtien")),
]


@pytest.mark.parametrize(("query", "keywords"), SPECIFIC)
def test_a_named_topic_makes_a_detail_question(
    query: str, keywords: tuple[str, ...], analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert (qa.intent, qa.keywords) == ("detail", keywords), qa.reason


def test_who_is_needs_a_name(analyzer: Analyzer) -> None:
    qa = analyze("Ai là Sarah?", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("Sarah",)), qa.reason
    qa = analyze("Ai là người phụ trách?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason


def test_a_name_before_la_ai_counts_when_known_or_capitalized_inside(analyzer: Analyzer) -> None:
    """ "Sarah là ai?" names first, as Vietnamese usually does: the question's first word is
    capitalized anyway, so a name there counts when it is known."""
    qa = analyze_query("Sarah là ai?", NOW, analyzer=analyzer, known_entities=("Sarah",))
    assert (qa.intent, qa.entities) == ("entity", ("Sarah",)), qa.reason
    qa = analyze("Anh Tuấn là ai vậy?", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("Tuấn",)), qa.reason
    for query in ("Người phụ trách dự án là ai?", "Tuấn là ai trong nhóm?"):
        assert analyze(query, analyzer).intent == "detail", query


@pytest.mark.parametrize("query", NOT_WEEKDAYS)
def test_ordinals_and_order_are_no_weekday(query: str, analyzer: Analyzer) -> None:
    assert analyze(query, analyzer).window is None


def test_since_is_vietnamese_only_inside_a_vietnamese_time(analyzer: Analyzer) -> None:
    """ "từ" folds to "tu": the Italian, French and Spanish "tu" before a day is no "since"."""
    for query in ("Che cosa hai detto tu ieri?", "¿Qué dijiste tú ayer?"):
        window = analyze(query, analyzer).window
        assert window is not None
        assert (window.start, window.end) == (at(2024, 5, 7), at(2024, 5, 8)), query


class TestVietnamese(AskedAlike, KeepsOtherLanguagesWords):
    language = "vi"
    general = GENERAL
    since_yesterday = SINCE_YESTERDAY
    whats_new = WHATS_NEW
    where = WHERE
    windows = WINDOWS
    detected = DETECTED
    others = OTHERS
