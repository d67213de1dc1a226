# ruff: noqa: RUF001  (questions in scripts with their own punctuation)
"""Dates a model can use: a time of day without a date read on the latest day with messages
then (in every language the analysis reads), every quote's date in its own header, summaries
with the span they cover, relative times dated, and what a memory without times gets."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from rerank_plus.memory import Memory, MemoryContext, MemoryRetriever, build_memory
from rerank_plus.memory.query.lexicon import LEXICONS

DAY = datetime(2024, 5, 6, tzinfo=UTC)
#: An afternoon two days after the chat began: today has no message at 00:18.
NOW = DAY + timedelta(days=2, hours=15)


def at(days: int, hour: int, minute: int) -> datetime:
    return DAY + timedelta(days=days, hours=hour, minutes=minute)


#: Four sessions over three days; Ben spoke at 14:05 on the 6th and the 7th, and sent the
#: deploy command at 00:18 in the night from the 6th to the 7th.
CHAT = [
    (at(0, 14, 0), "Ana", "Shall we plan the trip to Lyon for the conference?"),
    (at(0, 14, 2), "Ana", "The conference starts on Thursday morning."),
    (at(0, 14, 5), "Ben", "I booked the train to Lyon for Wednesday evening."),
    (at(0, 14, 8), "Ana", "Great, then I look for a hotel near the venue."),
    (at(0, 23, 58), "Ana", "Are you still up? The staging server is down."),
    (at(0, 23, 59), "Ben", "Yes, I am looking at the logs right now."),
    (at(1, 0, 16), "Ana", "Which fix do we ship tonight?"),
    (at(1, 0, 18), "Ben", "Run make deploy-prod with the rollback flag set."),
    (at(1, 0, 21), "Ana", "Done, the server answers again."),
    (at(1, 14, 5), "Ben", "The hotel near the venue is confirmed for two nights."),
    (at(1, 14, 9), "Ana", "Yesterday I also renewed my passport, just in case."),
    (at(2, 9, 0), "Ana", "Good morning! The slides for Thursday are almost done."),
    (at(2, 9, 4), "Ben", "Last Saturday I printed the posters, they look fine."),
]
DEPLOY = "Run make deploy-prod with the rollback flag set."

#: "Which command at 00:18?" in each language the query analysis reads.
AT_00_18 = {
    "en": "which command at 00:18?",
    "fr": "quelle commande à 00:18 ?",
    "de": "welcher Befehl um 00:18?",
    "es": "¿qué comando a las 00:18?",
    "it": "quale comando alle 00:18?",
    "pt": "qual comando às 00:18?",
    "zh": "00:18的命令是什么？",
    "ja": "00:18のコマンドは？",
    "ko": "00:18에 무슨 명령어였어?",
    "ar": "ما هو الأمر في 00:18؟",
    "el": "ποια εντολή στις 00:18;",
    "ru": "какая команда в 00:18?",
    "th": "คำสั่งอะไรตอน 00:18",
    "nl": "welk commando om 00:18?",
    "pl": "jakie polecenie o 00:18?",
    "tr": "00:18'de hangi komut?",
    "hi": "00:18 बजे कौन सा कमांड था?",
    "cs": "jaký příkaz v 00:18?",
    "vi": "lệnh gì lúc 00:18?",
    "id": "perintah apa pada pukul 00:18?",
}


def chat_memory() -> Memory:
    return build_memory([{"time": t, "speaker": s, "text": text} for t, s, text in CHAT])


@pytest.fixture(scope="module")
def retriever() -> MemoryRetriever:
    return MemoryRetriever(chat_memory())


def step(context: MemoryContext, name: str) -> dict:
    return next(s for s in context.trace.to_dict()["steps"] if s["step"] == name)


def quote_dates(context: MemoryContext) -> list[tuple[str, str | None]]:
    """Each quote line's text (its dated relative times left out) and the date of the header
    above it."""
    found, date = [], None
    header = re.compile(r"^\[L(\d+) #[\d-]+(?: (\d{4}-\d{2}-\d{2}))?")
    for line in context.text.splitlines():
        match = header.match(line)
        if match:
            date = match.group(2) if match.group(1) == "0" else None
        elif date is not None or line.startswith(("Ana:", "Ben:")):
            found.append((re.sub(r" \[[^\]]*\]", "", line), date))
    return found


def test_the_table_asks_in_every_language_the_analysis_reads() -> None:
    assert set(AT_00_18) == set(LEXICONS)


@pytest.mark.parametrize("language", sorted(AT_00_18))
def test_a_time_of_day_without_a_date_finds_the_latest_day_with_messages_then(
    retriever: MemoryRetriever, language: str
) -> None:
    context = retriever.retrieve(AT_00_18[language], max_tokens=300, now=NOW)
    assert DEPLOY in context.text, (language, context.text)
    window = step(context, "time_window")
    assert window["any_day"] is True and window["day"] == "2024-05-07"
    assert '"' in str(context.guidance) and "2024-05-07" in str(context.guidance)


def test_other_days_with_messages_at_that_time_are_named(retriever: MemoryRetriever) -> None:
    context = retriever.retrieve("What did Ben say at 14:05?", max_tokens=300, now=NOW)
    assert "The hotel near the venue is confirmed" in context.text
    assert "I booked the train" not in context.text
    window = step(context, "time_window")
    assert window["day"] == "2024-05-07" and window["other_days"] == ["2024-05-06"]
    assert "also sent at that time on 2024-05-06 (Ben)" in str(context.guidance)


def test_a_day_given_with_the_time_is_kept(retriever: MemoryRetriever) -> None:
    context = retriever.retrieve("What did Ben say on 2024-05-06 at 14:05?", 300, now=NOW)
    assert "I booked the train" in context.text
    assert "any_day" not in step(context, "time_window")


def test_a_time_of_day_no_message_was_sent_at_falls_back_to_its_latest_occurrence(
    retriever: MemoryRetriever,
) -> None:
    context = retriever.retrieve("what was said at 03:33?", max_tokens=300, now=NOW)
    assert not context.items
    assert "No message falls in the question's time window." in str(context.guidance)


def test_every_quote_s_date_is_in_its_own_header(retriever: MemoryRetriever) -> None:
    """Quotes that run past midnight or into a new session restate the date in a new
    header."""
    for question in ("Which fix did we ship for the staging server?", "the trip to Lyon"):
        context = retriever.retrieve(question, max_tokens=2000, now=NOW)
        quotes = {item.shown: item for item in context.items if item.block == "quotes"}
        lines = quote_dates(context)
        assert len(lines) >= len(quotes) > 3
        for line, date in lines:
            item = quotes[line.split(": ", 1)[1]]
            assert date == item.time.date().isoformat(), (line, context.text)


def test_a_summary_header_gives_the_span_it_covers(retriever: MemoryRetriever) -> None:
    context = retriever.retrieve("Summarize the whole chat.", max_tokens=600, now=NOW)
    spans = re.findall(r"\[L[1-9] #\d+ ([^\]]+)\]", context.text)
    span = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d(-\d\d:\d\d| to .+)?")
    assert spans and all(span.fullmatch(found) for found in spans)
    assert any(" to " in span for span in spans)  # the top summary spans three days


def test_relative_times_in_quotes_are_dated_and_can_be_turned_off(
    retriever: MemoryRetriever,
) -> None:
    question = "When did Ana renew her passport, and who printed the posters?"
    context = retriever.retrieve(question, max_tokens=600, now=NOW)
    assert "Yesterday [2024-05-06] I also renewed my passport" in context.text
    assert "Last Saturday [2024-05-04] I printed the posters" in context.text
    assert step(context, "dates")["relative_times"] == "dated"
    plain = MemoryRetriever(chat_memory(), profile={"memory": {"annotate_times": False}})
    context = plain.retrieve(question, max_tokens=600, now=NOW)
    assert "Yesterday I also renewed my passport" in context.text
    assert step(context, "dates")["relative_times"] == "as said"
    with pytest.raises(ValueError, match=r"memory.annotate_times must be true or false"):
        MemoryRetriever(chat_memory(), profile={"memory": {"annotate_times": "no"}})


def test_a_memory_without_times_has_no_dates_no_notes_and_says_so() -> None:
    memory = build_memory([{"speaker": s, "text": text} for _, s, text in CHAT])
    context = MemoryRetriever(memory).retrieve("When did Ana renew her passport?", 600, now=NOW)
    assert "Yesterday I also renewed my passport" in context.text
    assert not re.search(r"\d\d:\d\d", context.text)
    dates = step(context, "dates")
    assert dates["headers"] == "none" and dates["reason"] == "no times in the memory"
    context = MemoryRetriever(memory).retrieve("which command at 00:18?", 300, now=NOW)
    assert "the time window was not applied" in str(context.guidance)


def test_times_out_of_order_and_one_message_sessions_give_a_context() -> None:
    shuffled = [(t, s, text) for t, s, text in CHAT]
    shuffled[3], shuffled[9] = shuffled[9], shuffled[3]
    shuffled.append((at(9, 8, 0), "Ben", "A lone message a week later about the Lyon trip."))
    memory = build_memory([{"time": t, "speaker": s, "text": text} for t, s, text in shuffled])
    context = MemoryRetriever(memory).retrieve("the Lyon trip", 2000, now=NOW + timedelta(9))
    for line, date in quote_dates(context):
        item = next(i for i in context.items if i.block == "quotes" and i.shown in line)
        assert date == item.time.date().isoformat()
