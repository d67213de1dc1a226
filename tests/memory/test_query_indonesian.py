"""Query analysis in Indonesian: the questions of test_query_languages.py as Indonesian users
ask them, and the words of other languages that the Indonesian cues must leave alone."""

from __future__ import annotations

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import analyze_query

from tests.memory.asked_alike import AskedAlike, KeepsOtherLanguagesWords
from tests.memory.query_moment import NOW, analyze, at

#: A summary, the main points, what was said or decided.
GENERAL = [
    "Ringkas rapatnya.",
    "Tolong buatkan ringkasan rapat tadi",
    "Apa saja poin-poin utama rapat?",
    "Apa yang dibahas dalam rapat?",
    "Rapat ini membahas tentang apa?",
    "Keputusan apa saja yang diambil?",
    "Bisakah kamu merangkum diskusinya secara singkat?",
    "Berikan gambaran umum pertemuan",
    "Apa kesimpulan rapat?",
]

#: A topic named, even next to a summary cue: the topic stays, the scope words go. Indonesian
#: is often detected as Malay, which does not stem ("anggaran"; Indonesian "anggar"): the
#: topic is checked as the query's language analyzes it.
SPECIFIC = [
    ("Ringkas diskusi tentang anggaran", "anggaran"),
    ("Apa poin utama tentang anggaran?", "anggaran"),
    ("Apa kata Budi tentang kampanye pemasaran?", "kampanye"),
    ("Berapa harga produk baru?", "harga"),
    ("Kapan tenggat waktu proyek?", "tenggat"),
]

SINCE_YESTERDAY = ["Apa yang baru sejak kemarin?", "Ada kabar terbaru sejak kemarin?"]

WHATS_NEW = [
    "Apa yang baru?",
    "Ada kabar terbaru?",
    "Apa yang saya lewatkan?",
    "Apa saja yang berubah?",
]

#: "Where do we talk about the budget?", the topic after the verb or before it ("dibahas").
WHERE = [
    "Di mana kita membahas anggaran?",
    "Di mana anggaran dibahas?",
    "Bagian mana yang membahas anggaran?",
    "Semua tentang anggaran",
]

#: Time expressions resolved against NOW (Wednesday 2024-05-08 09:30).
WINDOWS = [
    ("hari ini", at(2024, 5, 8), at(2024, 5, 9)),
    ("kemarin", at(2024, 5, 7), at(2024, 5, 8)),
    ("kemarin lusa", at(2024, 5, 6), at(2024, 5, 7)),
    ("kemarin malam", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("tadi pagi", at(2024, 5, 8), at(2024, 5, 8, 12)),
    ("semalam", at(2024, 5, 7, 18), at(2024, 5, 8, 6)),
    ("minggu lalu", at(2024, 4, 29), at(2024, 5, 6)),
    ("bulan lalu", at(2024, 4, 1), at(2024, 5, 1)),
    ("minggu ini", at(2024, 5, 6), at(2024, 5, 13)),
    ("3 hari yang lalu", at(2024, 5, 5), at(2024, 5, 6)),
    ("seminggu yang lalu", at(2024, 4, 29), at(2024, 5, 6)),
    ("dalam 2 jam terakhir", at(2024, 5, 8, 7, 30), None),
    ("pukul 14.05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("jam 3 sore", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("jam 1 siang", at(2024, 5, 7, 13), at(2024, 5, 7, 14)),
    ("jam 11 siang", at(2024, 5, 7, 11), at(2024, 5, 7, 12)),  # siang starts before noon
    ("kemarin pukul 15.30", at(2024, 5, 7, 15, 30), at(2024, 5, 7, 15, 31)),
    ("sejak jam 9 pagi", at(2024, 5, 8, 9), None),
    ("pada hari Senin", at(2024, 5, 6), at(2024, 5, 7)),
    ("Senin lalu", at(2024, 5, 6), at(2024, 5, 7)),
    ("sejak hari Senin", at(2024, 5, 6), None),
    ("tanggal 3 Mei 2024", at(2024, 5, 3), at(2024, 5, 4)),
    ("pada bulan Maret", at(2024, 3, 1), at(2024, 4, 1)),
    ("dari Senin sampai Rabu", at(2024, 5, 6), at(2024, 5, 9)),
    ("antara Senin dan Rabu", at(2024, 5, 6), at(2024, 5, 9)),
]

#: Typical questions that the language detection reads as Indonesian. Others read as Malay
#: ("Di mana kita membahas anggaran?"): the cues still apply.
DETECTED = [
    "Apa yang baru sejak kemarin?",
    "Apa saja poin-poin utama rapat kemarin?",
    "Bisakah kamu merangkum diskusinya secara singkat?",
    "Apa yang dibahas dalam rapat tim kemarin?",
    "Apakah ada kabar terbaru tentang proyek ini?",
]

#: Turkish "sesi" (its sound) and "senin" (your) are Indonesian "sesi" (session) and "Senin"
#: (Monday): the Turkish questions keep them, and name no day.
OTHERS = [
    ("Motorun sesi neden yüksek?", ("motor", "ses", "yüksek")),
    ("Bu kitap senin mi?", ("kitap",)),
    ("Senin fikrin ne?", ("senin", "fikrin", "ne")),
]


@pytest.mark.parametrize(("query", "topic"), SPECIFIC)
def test_a_named_topic_makes_a_detail_question(query: str, topic: str, analyzer: Analyzer) -> None:
    qa = analyze(query, analyzer)
    assert qa.intent == "detail", qa.reason
    assert set(analyzer.analyze(topic, language=qa.language).terms) <= set(qa.keywords)


def test_scope_words_leave_the_keywords(analyzer: Analyzer) -> None:
    qa = analyze("Ringkas diskusi tentang anggaran", analyzer)
    assert (qa.language, qa.keywords) == ("id", ("anggar",))
    qa = analyze("Di mana anggaran dibahas dalam rapat?", analyzer)
    assert qa.keywords == ("anggaran",)


def test_who_is_needs_a_name(analyzer: Analyzer) -> None:
    for query, name in [("Siapa Budi?", "Budi"), ("Siapa itu Sarah?", "Sarah")]:
        qa = analyze(query, analyzer)
        assert (qa.intent, qa.entities) == ("entity", (name,)), qa.reason
    qa = analyze("Siapa yang bertanggung jawab?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason


def test_a_name_before_siapa_counts_when_known(analyzer: Analyzer) -> None:
    qa = analyze_query("Budi itu siapa?", NOW, analyzer=analyzer, known_entities=("Budi",))
    assert (qa.intent, qa.entities) == ("entity", ("Budi",)), qa.reason
    qa = analyze("Yang bertanggung jawab siapa?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason


def test_where_is_something_held_is_no_entity_question(analyzer: Analyzer) -> None:
    """ "di mana" asks about talk only with a verb of talking: "where was it held" is a
    detail."""
    qa = analyze("Di mana rapatnya diadakan?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason


class TestIndonesian(AskedAlike, KeepsOtherLanguagesWords):
    language = "id"
    general = GENERAL
    since_yesterday = SINCE_YESTERDAY
    whats_new = WHATS_NEW
    where = tuple((query, "anggaran") for query in WHERE)
    windows = WINDOWS
    detected = DETECTED
    others = OTHERS
