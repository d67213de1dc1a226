# ruff: noqa: RUF001  (text in many scripts is the point here)
"""Golden rankings on tiny hand-written corpora, one per language: the right passage on top, for
the right reason (the language is detected, the words are found)."""

from __future__ import annotations

import pytest
from rerank_plus import BM25Reranker

#: language -> (query, documents); the first document is the one that answers the query.
CORPORA: dict[str, tuple[str, list[str]]] = {
    "ru": (
        "Где живут белые медведи?",
        [
            "Белый медведь живёт в Арктике и охотится на тюленей среди льдов.",
            "Бурые медведи зимой спят в берлоге в густом лесу.",
            "Москва является столицей России и крупнейшим городом страны.",
        ],
    ),
    "tr": (
        "İstanbul'da hangi müzeler var?",
        [
            "İstanbul'daki müzelerin en ünlüsü Ayasofya ve Topkapı Sarayı'dır.",
            "Ankara, Türkiye Cumhuriyeti'nin başkentidir ve büyük bir şehirdir.",
            "Kapadokya, peri bacaları ve sıcak hava balonlarıyla ünlüdür.",
        ],
    ),
    "ro": (
        "Care este capitala României?",
        [
            "București este capitala și cel mai mare oraș al României.",
            "Dunărea se varsă în Marea Neagră printr-o deltă foarte bogată.",
            "Cluj-Napoca este un oraș universitar din Transilvania.",
        ],
    ),
    "el": (
        "Ποια είναι η πρωτεύουσα της Ελλάδας;",
        [
            "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και η μεγαλύτερη πόλη της χώρας.",
            "Η Θεσσαλονίκη βρίσκεται στη Μακεδονία, στο βόρειο τμήμα της χώρας.",
            "Ο Όλυμπος είναι το ψηλότερο βουνό και η κατοικία των θεών.",
        ],
    ),
    "ar": (
        "ما هي عاصمة مصر؟",
        [
            "القاهرة هي عاصمة مصر وأكبر مدنها وتقع على ضفاف نهر النيل.",
            "نهر النيل هو أطول نهر في أفريقيا ويمر بعدة دول.",
            "الرياض هي عاصمة المملكة العربية السعودية وأكبر مدنها.",
        ],
    ),
    "hi": (
        "भारत की राजधानी क्या है?",
        [
            "नई दिल्ली भारत की राजधानी है और यहाँ संसद भवन स्थित है।",
            "गंगा भारत की सबसे लंबी और पवित्र नदी मानी जाती है।",
            "मुंबई एक बड़ा शहर है जहाँ फ़िल्में बनती हैं।",
        ],
    ),
    "zh": (
        "北京是中国的首都吗？",
        [
            "北京是中华人民共和国的首都，也是全国的政治和文化中心。",
            "上海是中国最大的城市，也是重要的金融中心。",
            "长城是中国古代修建的军事防御工程。",
        ],
    ),
    "ja": (
        "日本の首都はどこですか？",
        [
            "東京は日本の首都であり、最大の都市でもあります。",
            "富士山は日本で一番高い山として知られています。",
            "京都には古い寺や神社がたくさんあります。",
        ],
    ),
    "th": (
        "เมืองหลวงของประเทศไทยคืออะไร",
        [
            "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทยและเป็นเมืองที่ใหญ่ที่สุด",
            "เชียงใหม่เป็นจังหวัดใหญ่ในภาคเหนือที่มีภูเขาสวยงาม",
            "ภูเก็ตเป็นเกาะที่มีชื่อเสียงทางภาคใต้",
        ],
    ),
    "ko": (
        "대한민국의 수도는 어디입니까?",
        [
            "서울은 대한민국의 수도이며 가장 큰 도시이다.",
            "부산은 한국 남쪽에 있는 큰 항구 도시이다.",
            "제주도는 아름다운 자연으로 유명한 섬이다.",
        ],
    ),
    "vi": (
        "Thủ đô của Việt Nam là gì?",
        [
            "Hà Nội là thủ đô của nước Cộng hòa Xã hội chủ nghĩa Việt Nam.",
            "Thành phố Hồ Chí Minh là thành phố lớn nhất ở miền Nam.",
            "Vịnh Hạ Long là một di sản thiên nhiên thế giới nổi tiếng.",
        ],
    ),
}


@pytest.fixture(scope="module")
def reranker() -> BM25Reranker:
    return BM25Reranker()


@pytest.mark.parametrize("language", sorted(CORPORA))
def test_the_answer_ranks_first_in_its_detected_language(
    reranker: BM25Reranker, language: str
) -> None:
    query, documents = CORPORA[language]
    results = reranker.rank(query, documents, explain=True)
    assert results[0].index == 0
    assert results[0].relevance_score > results[1].relevance_score
    explanation = results[0].explanation
    assert explanation is not None
    assert explanation["document_language"] == language
    assert explanation["matched_terms"]


@pytest.mark.parametrize("language", sorted(CORPORA))
def test_every_text_of_the_corpus_is_detected_as_its_language(
    reranker: BM25Reranker, language: str
) -> None:
    _, documents = CORPORA[language]
    assert {reranker.analyzer.detect(d).language for d in documents} == {language}
