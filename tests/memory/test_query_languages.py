# ruff: noqa: RUF001  (questions as users type them: full-width marks, Greek and Cyrillic letters)
"""Query analysis in the languages added after the first six (Chinese, Japanese, Arabic, Greek,
Thai, Russian, Dutch, Polish, Turkish): the same questions read as in English, and the earlier
languages unchanged."""

from __future__ import annotations

from datetime import datetime

import pytest
from rerank_plus.analysis import Analyzer
from rerank_plus.memory.query import analyze_query

from tests.memory.query_moment import NOW, analyze, at

#: General questions: a summary, the main points, what was said or decided.
GENERAL = {
    "zh": [
        "总结一下这次会议",
        "会议的主要议题是什么？",
        "请帮我概括一下讨论内容",
        "我们讨论了哪些问题？",
        "这次会议做出了哪些决定？",
        "會議的重點是什麼？",
        "請總結這次會議",
        "会议中提到了哪些关键点？",
    ],
    "ja": [
        "会議をまとめて",
        "会議の要点を教えてください",
        "何について話し合いましたか？",
        "主な議題は何でしたか？",
        "どんな決定がありましたか？",
        "全体的にどんな会議でしたか？",
    ],
    "ar": [
        "لخص الاجتماع",
        "ما هي النقاط الرئيسية للاجتماع؟",
        "ماذا ناقشنا في الاجتماع؟",
        "ما هي القرارات التي تم اتخاذها؟",
        "عن ماذا كان الاجتماع؟",
        "ما أبرز ما جاء في الاجتماع؟",
    ],
    "el": [
        "Συνόψισε τη συνάντηση",
        "Ποια ήταν τα κύρια θέματα;",
        "Τι συζητήσαμε στη συνάντηση;",
        "Ποιες αποφάσεις πάρθηκαν;",
        "Κάνε μια σύντομη περίληψη της συζήτησης",
        "Ποια θέματα καλύφθηκαν;",
    ],
    "th": [
        "สรุปการประชุม",
        "ช่วยสรุปการประชุมครั้งนี้ให้หน่อยครับ",
        "ประเด็นหลักของการประชุมคืออะไร",
        "เราคุยอะไรกันบ้าง",
        "ภาพรวมของการประชุม",
        "ช่วยเล่าภาพรวมการประชุมให้ฟังหน่อย",
    ],
    "ru": [
        "Подведи итоги встречи",
        "Какие были основные темы?",
        "О чём говорили на совещании?",
        "Какие решения были приняты?",
        "Кратко перескажи обсуждение, пожалуйста",
        "Какие договорённости были достигнуты?",
    ],
    "nl": [
        "Vat de vergadering samen.",
        "Waar ging de vergadering over?",
        "Wat waren de belangrijkste punten?",
        "Welke besluiten zijn er genomen?",
        "Geef me een overzicht van het overleg, alsjeblieft.",
        "Kun je de bijeenkomst kort samenvatten?",
        "Wat is er allemaal besproken?",
    ],
    "pl": [
        "Podsumuj spotkanie.",
        "Jakie były główne tematy?",
        "O czym rozmawialiśmy na spotkaniu?",
        "Jakie decyzje zostały podjęte?",
        "Streść krótko dyskusję, proszę",
        "Czego dotyczyło zebranie?",
        "Zrób krótkie podsumowanie rozmowy",
        "O czym była mowa na spotkaniu?",
    ],
    "tr": [
        "Toplantıyı özetle.",
        "TOPLANTIYI ÖZETLE",
        "Toplantının ana konuları nelerdi?",
        "Toplantıda neler konuştuk?",
        "Hangi kararlar alındı?",
        "Toplantı ne hakkındaydı?",
        "Görüşmeyi kısaca özetler misin lütfen?",
        "Toplantının genel bir özetini verir misin?",
    ],
}

#: Specific questions: a topic named, even next to a summary cue.
SPECIFIC = {
    "zh": [
        ("总结一下关于预算的讨论", "预算"),
        ("预算的主要问题是什么？", "预算"),
        ("市场部对新产品有什么意见？", "市场部"),
        ("申请预算的流程是什么？", "申请"),  # "请" of "申请" is no "please"
        ("核心团队是谁？", "核心"),
    ],
    "ja": [
        ("予算の議論をまとめて", "予算"),
        ("予算について何が決まりましたか？", "予算"),
        ("新製品の価格はいくらですか？", "価格"),
        ("会議室はどこですか？", "会議室"),  # "where is", not "where do we talk about"
    ],
    "ar": [
        ("لخص النقاش حول الميزانية", "ميزانية"),
        ("ما هي تكلفة المنتج الجديد؟", "تكلفة"),
        ("ماذا قال أحمد عن التسويق؟", "تسويق"),
    ],
    "el": [
        ("Συνόψισε τη συζήτηση για τον προϋπολογισμό", "προυπολογισμοσ"),
        ("Τι είπε ο Γιώργος για το μάρκετινγκ;", "μαρκετινγκ"),
        ("Πόσο κοστίζει το νέο προϊόν;", "κοστιζω"),
    ],
    "th": [
        ("สรุปการพูดคุยเรื่องงบประมาณ", "งบประมาณ"),
        ("ราคาของผลิตภัณฑ์ใหม่เท่าไหร่", "ราคา"),
        ("คะแนนของทีมเป็นอย่างไร", "คะแนน"),
    ],
    "ru": [
        ("Подведи итоги обсуждения бюджета", "бюджет"),
        ("Что Иван сказал о маркетинге?", "маркетинг"),
        ("Сколько стоит новый продукт?", "продукт"),
    ],
    "nl": [
        ("Vat de discussie over het budget samen", "budget"),
        ("Wat waren de belangrijkste punten over de begroting?", "begroting"),
        ("Wat heeft Piet over de planning gezegd?", "planning"),
        ("Hoeveel kost het nieuwe product?", "product"),
    ],
    "pl": [
        ("Podsumuj dyskusję o budżecie", "budżet"),
        ("Jakie były najważniejsze punkty dotyczące budżetu?", "budżet"),
        ("Co Jan powiedział o marketingu?", "marketing"),
        ("Ile kosztuje nowy produkt?", "produkt"),
    ],
    "tr": [
        ("Bütçe tartışmasını özetle", "bütçe"),
        ("Bütçe hakkındaki ana noktalar nelerdi?", "bütçe"),
        ("Yeni ürünün fiyatı ne kadar?", "fiyat"),
        ("Projenin teslim tarihi ne zaman?", "teslim"),
    ],
}

#: "What's new since yesterday?": recent, from yesterday's start, open.
SINCE_YESTERDAY = {
    "zh": "昨天以来有什么新消息？",
    "ja": "昨日から何か新しいことはありますか？",
    "ar": "ما الجديد منذ أمس؟",
    "el": "Τι νέα από χθες;",
    "th": "มีอะไรใหม่ตั้งแต่เมื่อวาน",
    "ru": "Что нового со вчерашнего дня?",
    "nl": "Wat is er nieuw sinds gisteren?",
    "pl": "Co nowego od wczoraj?",
    "tr": "Dünden beri ne yeni?",
}

#: "What's new?": recent, with no window.
WHATS_NEW = {
    "nl": ["Wat is er nieuw?", "Wat heb ik gemist?"],
    "pl": ["Co nowego?", "Co mnie ominęło?"],
    "tr": ["Ne yeni?", "Neyi kaçırdım?"],
}

#: "Where do we talk about the budget?", with the entity before or after the question words.
WHERE = {
    "zh": ["我们在哪里讨论过预算？", "预算在哪里被提到过？", "所有提到预算的地方"],
    "ja": ["どこで予算の話が出ましたか？", "予算についてどこで話しましたか？"],
    "ar": ["أين تحدثنا عن الميزانية؟"],
    "el": ["Πού μιλήσαμε για τον προϋπολογισμό;"],
    "th": ["เราคุยเรื่องงบประมาณที่ไหน", "ตรงไหนที่พูดถึงงบประมาณ"],
    "ru": ["Где мы говорили о бюджете?"],
    "nl": ["Waar praten we over het budget?", "Waar wordt het budget besproken?"],
    "pl": ["Gdzie rozmawialiśmy o budżecie?", "Gdzie jest mowa o budżecie?"],
    "tr": ["Bütçe hakkında nerede konuştuk?", "Bütçe nerede tartışıldı?"],
}
BUDGET = {
    "zh": "预算",
    "ja": "予算",
    "ar": "الميزانية",
    "el": "προϋπολογισμό",
    "th": "งบประมาณ",
    "ru": "бюджете",
    "nl": "budget",
    "pl": "budżecie",
    "tr": "Bütçe",
}

#: Time expressions resolved against NOW (Wednesday 2024-05-08 09:30).
WINDOWS = [
    ("今天", at(2024, 5, 8), at(2024, 5, 9)),
    ("昨天", at(2024, 5, 7), at(2024, 5, 8)),
    ("昨天晚上", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("上周", at(2024, 4, 29), at(2024, 5, 6)),
    ("上个月", at(2024, 4, 1), at(2024, 5, 1)),
    ("三天前", at(2024, 5, 5), at(2024, 5, 6)),
    ("过去两个小时", at(2024, 5, 8, 7, 30), None),
    ("14点05分", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("下午3点", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("昨天下午三点", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("十点", at(2024, 5, 7, 10), at(2024, 5, 7, 11)),  # later than now: yesterday
    ("在14:05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("星期一", at(2024, 5, 6), at(2024, 5, 7)),
    ("5月3日", at(2024, 5, 3), at(2024, 5, 4)),
    ("从星期一开始", at(2024, 5, 6), None),
    ("从周一到周三", at(2024, 5, 6), at(2024, 5, 9)),
    ("周一到周三之间", at(2024, 5, 6), at(2024, 5, 9)),
    ("今日", at(2024, 5, 8), at(2024, 5, 9)),
    ("昨日の夜", at(2024, 5, 7, 18), at(2024, 5, 8, 6)),
    ("先週", at(2024, 4, 29), at(2024, 5, 6)),
    ("3日前", at(2024, 5, 5), at(2024, 5, 6)),
    ("過去2時間", at(2024, 5, 8, 7, 30), None),
    ("14時05分", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("午後3時", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("昨日の午後三時", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("月曜日", at(2024, 5, 6), at(2024, 5, 7)),
    ("5月3日に", at(2024, 5, 3), at(2024, 5, 4)),
    ("月曜日以降", at(2024, 5, 6), None),
    ("月曜日から水曜日まで", at(2024, 5, 6), at(2024, 5, 9)),
    ("10:00から11:30まで", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
    ("اليوم", at(2024, 5, 8), at(2024, 5, 9)),
    ("مساء أمس", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("الأسبوع الماضي", at(2024, 4, 29), at(2024, 5, 6)),
    ("خلال الأسبوع الماضي", at(2024, 4, 29), at(2024, 5, 6)),
    ("منذ يوم الاثنين", at(2024, 5, 6), None),
    ("قبل 3 أيام", at(2024, 5, 5), at(2024, 5, 6)),
    ("خلال الساعات الثلاث الأخيرة", at(2024, 5, 8, 6, 30), None),
    ("الساعة 14:05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("يوم الاثنين", at(2024, 5, 6), at(2024, 5, 7)),
    ("3 مايو", at(2024, 5, 3), at(2024, 5, 4)),
    ("من الاثنين إلى الأربعاء", at(2024, 5, 6), at(2024, 5, 9)),
    ("بين 10:00 و 11:30", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
    ("σήμερα", at(2024, 5, 8), at(2024, 5, 9)),
    ("χθες το βράδυ", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("την περασμένη εβδομάδα", at(2024, 4, 29), at(2024, 5, 6)),
    ("πριν από 3 μέρες", at(2024, 5, 5), at(2024, 5, 6)),
    ("τις τελευταίες 2 ώρες", at(2024, 5, 8, 7, 30), None),
    ("στις 14:05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("τη Δευτέρα", at(2024, 5, 6), at(2024, 5, 7)),
    ("από τη Δευτέρα", at(2024, 5, 6), None),
    ("3 Μαΐου", at(2024, 5, 3), at(2024, 5, 4)),
    ("από τη Δευτέρα έως την Τετάρτη", at(2024, 5, 6), at(2024, 5, 9)),
    ("μεταξύ Δευτέρας και Τετάρτης", at(2024, 5, 6), at(2024, 5, 9)),
    ("วันนี้", at(2024, 5, 8), at(2024, 5, 9)),
    ("เมื่อวานตอนเย็น", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("สัปดาห์ที่แล้ว", at(2024, 4, 29), at(2024, 5, 6)),
    ("3 วันที่แล้ว", at(2024, 5, 5), at(2024, 5, 6)),
    ("ในช่วง 2 ชั่วโมงที่ผ่านมา", at(2024, 5, 8, 7, 30), None),
    ("เวลา 14:05 น.", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("วันจันทร์", at(2024, 5, 6), at(2024, 5, 7)),
    ("3 พฤษภาคม", at(2024, 5, 3), at(2024, 5, 4)),
    ("ตั้งแต่วันจันทร์ถึงวันพุธ", at(2024, 5, 6), at(2024, 5, 9)),
    ("ระหว่างวันจันทร์และวันพุธ", at(2024, 5, 6), at(2024, 5, 9)),
    ("сегодня", at(2024, 5, 8), at(2024, 5, 9)),
    ("вчера вечером", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("на прошлой неделе", at(2024, 4, 29), at(2024, 5, 6)),
    ("3 дня назад", at(2024, 5, 5), at(2024, 5, 6)),
    ("за последние 2 часа", at(2024, 5, 8, 7, 30), None),
    ("в 14:05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("в понедельник", at(2024, 5, 6), at(2024, 5, 7)),
    ("3 мая", at(2024, 5, 3), at(2024, 5, 4)),
    ("с понедельника по среду", at(2024, 5, 6), at(2024, 5, 9)),
    ("между 10:00 и 11:30", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
    ("vandaag", at(2024, 5, 8), at(2024, 5, 9)),
    ("gisteren", at(2024, 5, 7), at(2024, 5, 8)),
    ("gisteravond", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("vorige week", at(2024, 4, 29), at(2024, 5, 6)),
    ("3 dagen geleden", at(2024, 5, 5), at(2024, 5, 6)),
    ("in de afgelopen 2 uur", at(2024, 5, 8, 7, 30), None),
    ("om 14:05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("om 14.05 uur", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("vorige maand", at(2024, 4, 1), at(2024, 5, 1)),
    ("afgelopen maandag", at(2024, 5, 6), at(2024, 5, 7)),
    ("sinds maandag", at(2024, 5, 6), None),
    ("op 3 mei", at(2024, 5, 3), at(2024, 5, 4)),
    ("in maart", at(2024, 3, 1), at(2024, 4, 1)),
    ("tussen maandag en woensdag", at(2024, 5, 6), at(2024, 5, 9)),
    ("van 10:00 tot 11:30", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
    ("dzisiaj", at(2024, 5, 8), at(2024, 5, 9)),
    ("wczoraj", at(2024, 5, 7), at(2024, 5, 8)),
    ("wczoraj wieczorem", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("w zeszłym tygodniu", at(2024, 4, 29), at(2024, 5, 6)),
    ("3 dni temu", at(2024, 5, 5), at(2024, 5, 6)),
    ("w ciągu ostatnich 2 godzin", at(2024, 5, 8, 7, 30), None),
    ("o 14:05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("o godzinie 14:05", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("w zeszłym miesiącu", at(2024, 4, 1), at(2024, 5, 1)),
    ("w poniedziałek", at(2024, 5, 6), at(2024, 5, 7)),
    ("od poniedziałku", at(2024, 5, 6), None),
    ("3 maja", at(2024, 5, 3), at(2024, 5, 4)),
    ("w marcu", at(2024, 3, 1), at(2024, 4, 1)),
    ("od poniedziałku do środy", at(2024, 5, 6), at(2024, 5, 9)),
    ("między poniedziałkiem a środą", at(2024, 5, 6), at(2024, 5, 9)),
    ("bugün", at(2024, 5, 8), at(2024, 5, 9)),
    ("dün", at(2024, 5, 7), at(2024, 5, 8)),
    ("dün akşam", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("geçen hafta", at(2024, 4, 29), at(2024, 5, 6)),
    ("3 gün önce", at(2024, 5, 5), at(2024, 5, 6)),
    ("son 2 saatte", at(2024, 5, 8, 7, 30), None),
    ("saat 14:05'te", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("geçen ay", at(2024, 4, 1), at(2024, 5, 1)),
    ("pazartesi günü", at(2024, 5, 6), at(2024, 5, 7)),
    ("pazartesiden beri", at(2024, 5, 6), None),
    ("3 Mayıs'ta", at(2024, 5, 3), at(2024, 5, 4)),
    ("Mart ayında", at(2024, 3, 1), at(2024, 4, 1)),
    ("pazartesi ile çarşamba arasında", at(2024, 5, 6), at(2024, 5, 9)),
    ("pazartesiden çarşambaya kadar", at(2024, 5, 6), at(2024, 5, 9)),
    ("10:00'dan 11:30'a kadar", at(2024, 5, 7, 10), at(2024, 5, 7, 11, 31)),
]


def _cases(table: dict) -> list:
    return [(language, case) for language, cases in table.items() for case in cases]


@pytest.mark.parametrize(("language", "query"), _cases(GENERAL))
def test_general_questions_are_synthesis(language: str, query: str, analyzer: Analyzer) -> None:
    """Not the language detected: short Russian questions may read as Bulgarian, say, which
    changes the stop words, not the cues."""
    qa = analyze(query, analyzer)
    assert (qa.intent, qa.keywords, qa.window) == ("synthesis", (), None), qa.reason


@pytest.mark.parametrize(("language", "case"), _cases(SPECIFIC))
def test_a_named_topic_makes_a_detail_question(
    language: str, case: tuple[str, str], analyzer: Analyzer
) -> None:
    query, topic = case
    qa = analyze(query, analyzer)
    assert qa.intent == "detail", qa.reason
    assert topic in qa.keywords


@pytest.mark.parametrize(("language", "query"), SINCE_YESTERDAY.items())
def test_what_is_new_since_yesterday_is_recent_from_yesterday(
    language: str, query: str, analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert (qa.intent, qa.recency, qa.language) == ("recent", True, language), qa.reason
    assert qa.window is not None
    assert (qa.window.start, qa.window.end) == (at(2024, 5, 7), None)


@pytest.mark.parametrize(("language", "query"), _cases(WHATS_NEW))
def test_what_is_new_is_recent_without_a_window(
    language: str, query: str, analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert (qa.intent, qa.recency, qa.window, qa.keywords) == ("recent", True, None, ()), qa.reason


@pytest.mark.parametrize(("language", "query"), _cases(WHERE))
def test_where_do_we_talk_about_names_the_entity(
    language: str, query: str, analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer)
    assert qa.intent == "entity", qa.reason
    assert qa.entities[0] == BUDGET[language]


@pytest.mark.parametrize(("query", "start", "end"), WINDOWS)
def test_time_expressions_resolve_against_now(
    query: str, start: datetime, end: datetime | None, analyzer: Analyzer
) -> None:
    window = analyze(query, analyzer).window
    assert window is not None, query
    assert (window.start, window.end) == (start, end)


def test_known_names_are_found_inside_a_run_of_letters(analyzer: Analyzer) -> None:
    """No word boundary falls inside "张伟和李娜讨论了预算": a known name is looked up at every
    character, the longest first ("李娜", not "李")."""
    names = ("张伟", "李娜", "李", "สมชาย")
    for query, found in [("张伟和李娜讨论了预算", ("张伟", "李娜")), ("สมชายพูดอะไร", ("สมชาย",))]:
        qa = analyze_query(query, NOW, analyzer=analyzer, known_entities=names)
        assert qa.entities == found


#: "Who is X" where the language names X first: (query, known names, intent, entities).
NAME_FIRST = [
    ("张伟是谁？", ("张伟",), "entity", ("张伟",)),
    ("张伟是谁？", (), "detail", ()),  # nothing says a run of Han letters is a name
    ("项目负责人是谁？", ("张伟",), "detail", ()),
    ("这个方案是谁提出的？", ("张伟",), "detail", ()),  # who proposed it, not who is it
    ("田中さんは誰ですか？", ("田中",), "entity", ("田中",)),
    ("Ahmet kim?", ("Ahmet",), "entity", ("Ahmet",)),
    ("Peki Ahmet kimdir?", (), "entity", ("Ahmet",)),  # capitalized past the first word
    ('"Ahmet" kim?', (), "entity", ("Ahmet",)),
    ("Müdür kim?", (), "detail", ()),  # the opening word's capital says nothing
    ("Lan là ai?", ("Lan",), "entity", ("Lan",)),  # a known name, though "lần" folds alike
    ("Lần trước Minh nói gì?", ("Lan", "Minh"), "detail", ("Minh",)),  # "lần" is no "Lan"
    ("Toplantıyı kim düzenledi?", (), "detail", ()),  # who organized it
]


@pytest.mark.parametrize(("query", "names", "intent", "entities"), NAME_FIRST)
def test_who_is_reads_a_name_before_the_question_word(
    query: str, names: tuple[str, ...], intent: str, entities: tuple[str, ...], analyzer: Analyzer
) -> None:
    qa = analyze_query(query, NOW, analyzer=analyzer, known_entities=names)
    assert (qa.intent, qa.entities) == (intent, entities), qa.reason


#: English, French and German questions as the first six lexicons read them: the later
#: tables change none of their intents, windows, keywords or entities.
EARLIER = [
    ("Summarize the whole meeting.", "synthesis", None, (), ()),
    ("What was the meeting about?", "synthesis", None, (), ()),
    ("What were the main topics?", "synthesis", None, (), ()),
    ("What was discussed in the meeting?", "synthesis", None, (), ()),
    ("Give me an overview.", "synthesis", None, (), ()),
    ("Key points, please", "synthesis", None, (), ()),
    ("Summarize the discussion about remote concepts", "detail", None, ("remote", "concept"), ()),
    ("What were the main points of Marketing?", "detail", None, ("marketing",), ("Marketing",)),
    ("What did Bob say about the budget?", "detail", None, ("bob", "budget"), ("Bob",)),
    ("what's new", "recent", None, (), ()),
    ("anything new recently?", "recent", None, (), ()),
    ("What happened since yesterday?", "recent", ("2024-05-07T00:00:00+00:00", None), (), ()),
    ("where do we talk about the budget?", "entity", None, ("budget",), ("budget",)),
    ("Who is Sarah?", "entity", None, ("sarah",), ("Sarah",)),
    ("Where was the meeting held?", "detail", None, ("hold",), ()),
    (
        "what happened at 14:05?",
        "detail",
        ("2024-05-07T14:05:00+00:00", "2024-05-07T14:06:00+00:00"),
        (),
        (),
    ),
    (
        "What did we decide yesterday?",
        "synthesis",
        ("2024-05-07T00:00:00+00:00", "2024-05-08T00:00:00+00:00"),
        (),
        (),
    ),
    ("in the last 2 hours", "recent", ("2024-05-08T07:30:00+00:00", None), (), ()),
    ("3 days ago", "detail", ("2024-05-05T00:00:00+00:00", "2024-05-06T00:00:00+00:00"), (), ()),
    ("last week", "detail", ("2024-04-29T00:00:00+00:00", "2024-05-06T00:00:00+00:00"), (), ()),
    ("on Monday", "detail", ("2024-05-06T00:00:00+00:00", "2024-05-07T00:00:00+00:00"), (), ()),
    (
        "between Monday and Tuesday",
        "detail",
        ("2024-05-06T00:00:00+00:00", "2024-05-08T00:00:00+00:00"),
        (),
        (),
    ),
    ("What may happen?", "synthesis", None, (), ()),
    ("the next meeting", "detail", None, (), ()),
    ("Résume la réunion", "synthesis", None, (), ()),
    ("De quoi a-t-on parlé pendant la réunion ?", "synthesis", None, (), ()),
    ("Dans l'ensemble, qu'est-ce qui a été décidé ?", "synthesis", None, (), ()),
    ("quoi de neuf depuis hier ?", "recent", ("2024-05-07T00:00:00+00:00", None), (), ()),
    ("où parle-t-on de la migration ?", "entity", None, ("migration",), ("migration",)),
    ("Qu'a-t-on décidé sur le budget ?", "detail", None, ("budget",), ()),
    (
        "il y a 3 jours",
        "detail",
        ("2024-05-05T00:00:00+00:00", "2024-05-06T00:00:00+00:00"),
        (),
        (),
    ),
    ("à 00h18", "detail", ("2024-05-08T00:18:00+00:00", "2024-05-08T00:19:00+00:00"), (), ()),
    (
        "la semaine dernière",
        "detail",
        ("2024-04-29T00:00:00+00:00", "2024-05-06T00:00:00+00:00"),
        (),
        (),
    ),
    ("lundi dernier", "detail", ("2024-05-06T00:00:00+00:00", "2024-05-07T00:00:00+00:00"), (), ()),
    ("Fasse die Besprechung zusammen", "synthesis", None, (), ()),
    ("Worum ging es in der Sitzung?", "synthesis", None, (), ()),
    ("Was gibt's Neues?", "recent", None, (), ()),
    ("seit gestern", "recent", ("2024-05-07T00:00:00+00:00", None), (), ()),
    ("wo reden wir über das Budget?", "entity", None, ("budget",), ("Budget",)),
    (
        "Was wurde letzte Woche über das Budget gesagt?",
        "detail",
        ("2024-04-29T00:00:00+00:00", "2024-05-06T00:00:00+00:00"),
        ("budget",),
        (),
    ),
    ("vor 3 Tagen", "detail", ("2024-05-05T00:00:00+00:00", "2024-05-06T00:00:00+00:00"), (), ()),
    ("um 15 Uhr", "detail", ("2024-05-07T15:00:00+00:00", "2024-05-07T16:00:00+00:00"), (), ()),
    ("Was waren die wichtigsten Punkte?", "synthesis", None, (), ()),
    # Words of the later lexicons in other languages: Turkish "ana" (main), "en son" (latest).
    ("What did Ana say about the budget?", "detail", None, ("ana", "budget"), ("Ana",)),
    ("Qu'a-t-il dit en son nom ?", "detail", None, ("nom",), ()),
    # Polish and Turkish stems with their endings written out: not German, Spanish or English
    (
        "Was garantiert das User Datagram Protokoll?",
        "detail",
        None,
        ("garantieren", "user", "datagram", "protokoll"),
        (),
    ),
    (
        "Welche NASA-Gruppierung lenkte zuerst ein?",
        "detail",
        None,
        ("nasa-gruppierung", "lenken"),
        (),
    ),
    ("¿A qué deporte se dedica el equipo?", "detail", None, ("deporte", "dedicar"), ()),
    (
        "Wann erreichte Denver einen Punktestand von 24-10?",
        "detail",
        None,
        ("erreichen", "denver", "punktestand", "24", "10"),
        (),
    ),
    ("What was the verdict of the project group?", "detail", None, ("verdict",), ()),
]


@pytest.mark.parametrize(("query", "intent", "window", "keywords", "entities"), EARLIER)
def test_earlier_languages_read_as_before(
    query: str,
    intent: str,
    window: tuple[str | None, str | None] | None,
    keywords: tuple[str, ...],
    entities: tuple[str, ...],
    analyzer: Analyzer,
) -> None:
    qa = analyze(query, analyzer)
    found = None
    if qa.window is not None:
        start, end = qa.window.start, qa.window.end
        found = (start and start.isoformat(), end and end.isoformat())
    assert (qa.intent, found, qa.keywords, qa.entities) == (intent, window, keywords, entities)
