"""Query analysis in Korean: particles and endings written onto the words ("어제부터",
"예산에 대해", "이야기했나요") are cues, so the topic and the entity come out without them."""

from __future__ import annotations

import pytest
from rerank_plus.analysis import Analyzer

from tests.memory.asked_alike import AskedAlike
from tests.memory.query_moment import analyze, at

#: A summary, the main points, what was said or decided.
GENERAL = [
    "회의를 요약해 주세요",
    "회의 내용을 정리해 줘",
    "주요 안건이 뭐였나요?",
    "무엇에 대해 이야기했나요?",
    "어떤 결정이 내려졌나요?",
    "회의의 핵심 내용을 알려 주세요",
    "회의에서 무슨 이야기를 했어요?",
    "전체적으로 어떤 회의였나요?",
    "결정 사항 정리 좀 해줘",
]


@pytest.mark.parametrize(
    ("query", "topic"),
    [
        ("예산 논의를 요약해 주세요", "예산"),
        ("예산에 대해 무엇이 결정되었나요?", "예산"),
        ("신제품 가격은 얼마인가요?", "가격"),
        ("마케팅 팀은 신제품에 대해 어떤 의견을 냈나요?", "의견"),
        # "회의실" (meeting room) is a topic, not the scope word "회의": its bigrams stay
        ("회의실은 어디예요?", "의실"),
    ],
)
def test_a_named_topic_makes_a_detail_question(query: str, topic: str, analyzer: Analyzer) -> None:
    qa = analyze(query, analyzer)
    assert qa.intent == "detail", qa.reason
    assert topic in qa.keywords


def test_keywords_keep_the_topic_and_lose_scope_words_and_particles(analyzer: Analyzer) -> None:
    """The words "회의에서" (in the meeting) and "뭐라고 했나요" (what did ... say) are scope;
    "부장이" (the manager, subject) leaves "부장", not the bigram "장이"."""
    qa = analyze("예산 회의에서 김 부장이 뭐라고 했나요?", analyzer)
    assert (qa.intent, qa.keywords) == ("detail", ("예산", "김", "부장"))


SINCE_YESTERDAY = ["어제부터 새로운 소식이 있나요?", "어제 이후로 새로운 게 있나요?"]


def test_an_entity_of_several_words_and_tell_me_about(analyzer: Analyzer) -> None:
    qa = analyze("데이터베이스 마이그레이션은 어디서 논의됐나요?", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("데이터베이스 마이그레이션",))
    qa = analyze("예산 삭감에 대해 알려 주세요", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("예산 삭감",))


def test_a_known_name_is_found_before_its_particle(analyzer: Analyzer) -> None:
    qa = analyze("김민수가 예산에 대해 뭐라고 했나요?", analyzer, known_entities=("김민수",))
    assert qa.entities == ("김민수",)
    assert "예산" in qa.keywords


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("김민수 씨는 누구예요?", ("김민수",)),
        ("김민수는 누구야?", ("김민수",)),
        ('"김민수"는 누구인가요?', ()),
    ],
)
def test_who_is_a_known_or_quoted_name_is_an_entity_question(
    query: str, names: tuple[str, ...], analyzer: Analyzer
) -> None:
    qa = analyze(query, analyzer, known_entities=names)
    assert (qa.intent, qa.entities) == ("entity", ("김민수",)), qa.reason


def test_who_is_a_role_asks_a_detail(analyzer: Analyzer) -> None:
    """Korean has no capitals: "담당자" (the person in charge) is no name unless it is known."""
    qa = analyze("담당자는 누구예요?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason


#: Where do we talk about the budget: the entity comes without its particle ("예산", not
#: "예산에").
WHERE_BUDGET = (
    "예산에 대해 어디서 이야기했나요?",
    "어디서 예산 얘기를 했나요?",
    "예산 얘기는 어디서 나왔어?",
    "예산이 언급된 부분을 모두 찾아줘",
    "어느 회의에서 예산 이야기가 나왔나요?",
    "김민수 씨가 어디서 예산을 언급했나요?",
)

WINDOWS = [
    ("오늘", at(2024, 5, 8), at(2024, 5, 9)),
    ("어제", at(2024, 5, 7), at(2024, 5, 8)),
    ("어제 저녁에", at(2024, 5, 7, 18), at(2024, 5, 8)),
    ("어젯밤", at(2024, 5, 7, 18), at(2024, 5, 8, 6)),
    ("오늘 아침", at(2024, 5, 8), at(2024, 5, 8, 12)),
    ("이틀 전", at(2024, 5, 6), at(2024, 5, 7)),
    ("지난주", at(2024, 4, 29), at(2024, 5, 6)),
    ("지난 주에", at(2024, 4, 29), at(2024, 5, 6)),
    ("이번 주", at(2024, 5, 6), at(2024, 5, 13)),
    ("지난달", at(2024, 4, 1), at(2024, 5, 1)),
    ("작년", at(2023, 1, 1), at(2024, 1, 1)),
    ("3일 전", at(2024, 5, 5), at(2024, 5, 6)),
    ("두 달 전", at(2024, 3, 1), at(2024, 4, 1)),
    ("한 시간 전", at(2024, 5, 8, 8), at(2024, 5, 8, 9)),
    ("지난 2시간 동안", at(2024, 5, 8, 7, 30), None),
    ("지난 일주일 동안", at(2024, 5, 1, 9, 30), None),
    ("오후 3시 5분", at(2024, 5, 7, 15, 5), at(2024, 5, 7, 15, 6)),
    ("15시", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("어제 오후 세 시", at(2024, 5, 7, 15), at(2024, 5, 7, 16)),
    ("밤 10시", at(2024, 5, 7, 22), at(2024, 5, 7, 23)),
    ("14:05에", at(2024, 5, 7, 14, 5), at(2024, 5, 7, 14, 6)),
    ("월요일에", at(2024, 5, 6), at(2024, 5, 7)),
    ("지난 월요일", at(2024, 5, 6), at(2024, 5, 7)),
    ("월요일부터", at(2024, 5, 6), None),
    ("5월 3일", at(2024, 5, 3), at(2024, 5, 4)),
    ("2023년 5월 3일", at(2023, 5, 3), at(2023, 5, 4)),
    ("3월에", at(2024, 3, 1), at(2024, 4, 1)),
    ("월요일부터 수요일까지", at(2024, 5, 6), at(2024, 5, 9)),
    ("오전 10시부터 11시까지", at(2024, 5, 7, 10), at(2024, 5, 7, 12)),
]


def test_a_time_word_takes_its_particle_and_leaves_no_topic(analyzer: Analyzer) -> None:
    """The word "월요일에" (on Monday) is a day, as "on Monday" is: no scope, no keyword."""
    qa = analyze("월요일에", analyzer)
    assert (qa.intent, qa.keywords) == ("detail", ()), qa.reason


@pytest.mark.parametrize(
    "query",
    [
        "세일 전에 뭐 했어?",  # "세일" is a sale, not "세" (three) "일" (days)
        "이 시스템은 언제 도입됐나요?",  # "시스템", not "시" (o'clock)
        "회의 일시에 대해 알려줘",  # "일시" (date and time), not one o'clock
        "이번 주제는 뭐였나요?",  # "주제" (topic), not "주" (week)
        "지난 주요 결정",  # "주요" (main), not last week
        "오늘날 인공지능의 역할은?",  # "오늘날" (nowadays), not today
    ],
)
def test_words_that_start_like_a_time_are_no_time(query: str, analyzer: Analyzer) -> None:
    assert analyze(query, analyzer).window is None


class TestKorean(AskedAlike):
    language = "ko"
    general = GENERAL
    since_yesterday = SINCE_YESTERDAY
    whats_new = ("새로운 거 있어?", "뭐가 바뀌었나요?", "내가 놓친 게 뭐야?", "최근 소식 알려 줘")
    where = tuple((query, "예산") for query in WHERE_BUDGET)
    windows = WINDOWS
    detected = GENERAL
