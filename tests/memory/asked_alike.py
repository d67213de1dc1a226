"""The questions every language's cues must read as English reads them: a summary, what is new
(since yesterday, or without a date), where a subject was talked about, the times a question
names, and the language it is in. Each language's test file subclasses :class:`AskedAlike`
with its own wording; ``pytest_generate_tests`` (conftest) runs each test once per item of the
class's lists."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

from rerank_plus.analysis import Analyzer

from tests.memory.query_moment import analyze, at

#: Test argument -> the class attribute whose items it takes.
CASES = {
    "general_question": "general",
    "since_yesterday_question": "since_yesterday",
    "whats_new_question": "whats_new",
    "where_case": "where",
    "window_case": "windows",
    "detected_question": "detected",
    "other_case": "others",
}


class AskedAlike:
    language: ClassVar[str]
    #: A summary, the main points, what was said or decided: synthesis.
    general: ClassVar[Sequence[str]]
    #: What is new since yesterday: recent, from yesterday's start.
    since_yesterday: ClassVar[Sequence[str]]
    #: What is new, no date: recent, no window.
    whats_new: ClassVar[Sequence[str]]
    #: (where do we talk about X, X): an entity question about X.
    where: ClassVar[Sequence[tuple[str, str]]]
    #: (time expression, start, end) against :data:`~tests.memory.query_moment.NOW`.
    windows: ClassVar[Sequence[tuple[str, datetime, datetime | None]]]
    #: Questions the analysis must read in :attr:`language`.
    detected: ClassVar[Sequence[str]]

    def test_general_questions_are_synthesis(
        self, general_question: str, analyzer: Analyzer
    ) -> None:
        qa = analyze(general_question, analyzer)
        assert (qa.intent, qa.keywords, qa.window) == ("synthesis", (), None), qa.reason

    def test_what_is_new_since_yesterday_is_recent_from_yesterday(
        self, since_yesterday_question: str, analyzer: Analyzer
    ) -> None:
        qa = analyze(since_yesterday_question, analyzer)
        assert (qa.intent, qa.recency, qa.language, qa.keywords) == (
            "recent",
            True,
            self.language,
            (),
        ), qa.reason
        assert qa.window is not None
        assert (qa.window.start, qa.window.end) == (at(2024, 5, 7), None)

    def test_what_is_new_is_recent_without_a_window(
        self, whats_new_question: str, analyzer: Analyzer
    ) -> None:
        qa = analyze(whats_new_question, analyzer)
        assert (qa.intent, qa.recency, qa.window, qa.keywords) == ("recent", True, None, ()), (
            qa.reason
        )

    def test_where_do_we_talk_about_names_the_entity(
        self, where_case: tuple[str, str], analyzer: Analyzer
    ) -> None:
        query, entity = where_case
        qa = analyze(query, analyzer)
        assert (qa.intent, qa.entities[:1]) == ("entity", (entity,)), qa.reason

    def test_time_expressions_resolve_against_now(
        self, window_case: tuple[str, datetime, datetime | None], analyzer: Analyzer
    ) -> None:
        query, start, end = window_case
        window = analyze(query, analyzer).window
        assert window is not None, query
        assert (window.start, window.end) == (start, end)

    def test_questions_are_read_in_their_language(
        self, detected_question: str, analyzer: Analyzer
    ) -> None:
        assert analyze(detected_question, analyzer).language == self.language


class KeepsOtherLanguagesWords:
    """A language written in Latin letters: its cues are tried on every question, so the
    words other languages share with them must stay those languages' keywords."""

    #: (another language's question, its keywords): a detail question, no window.
    others: ClassVar[Sequence[tuple[str, tuple[str, ...]]]]

    def test_other_languages_keep_their_words(
        self, other_case: tuple[str, tuple[str, ...]], analyzer: Analyzer
    ) -> None:
        query, keywords = other_case
        qa = analyze(query, analyzer)
        assert (qa.intent, qa.keywords, qa.window) == ("detail", keywords, None), qa.reason
