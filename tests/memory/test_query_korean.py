"""Query analysis in Korean beyond its phrase table (phrases/korean.toml): particles and
endings written onto the words ("어제부터", "예산에 대해", "이야기했나요") are cues, so the
topic and the entity come out without them."""

from __future__ import annotations

from rerank_plus.analysis import Analyzer

from tests.memory.query_moment import analyze


def test_keywords_keep_the_topic_and_lose_scope_words_and_particles(analyzer: Analyzer) -> None:
    """The words "회의에서" (in the meeting) and "뭐라고 했나요" (what did ... say) are scope;
    "부장이" (the manager, subject) leaves "부장", not the bigram "장이"."""
    qa = analyze("예산 회의에서 김 부장이 뭐라고 했나요?", analyzer)
    assert (qa.intent, qa.keywords) == ("detail", ("예산", "김", "부장"))


def test_an_entity_of_several_words_and_tell_me_about(analyzer: Analyzer) -> None:
    qa = analyze("데이터베이스 마이그레이션은 어디서 논의됐나요?", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("데이터베이스 마이그레이션",))
    qa = analyze("예산 삭감에 대해 알려 주세요", analyzer)
    assert (qa.intent, qa.entities) == ("entity", ("예산 삭감",))


def test_a_known_name_is_found_before_its_particle(analyzer: Analyzer) -> None:
    qa = analyze("김민수가 예산에 대해 뭐라고 했나요?", analyzer, known_entities=("김민수",))
    assert qa.entities == ("김민수",)
    assert "예산" in qa.keywords


def test_who_is_a_role_asks_a_detail(analyzer: Analyzer) -> None:
    """Korean has no capitals: "담당자" (the person in charge) is no name unless it is known."""
    qa = analyze("담당자는 누구예요?", analyzer)
    assert (qa.intent, qa.entities) == ("detail", ()), qa.reason


def test_a_time_word_takes_its_particle_and_leaves_no_topic(analyzer: Analyzer) -> None:
    """The word "월요일에" (on Monday) is a day, as "on Monday" is: no scope, no keyword."""
    qa = analyze("월요일에", analyzer)
    assert (qa.intent, qa.keywords) == ("detail", ()), qa.reason
