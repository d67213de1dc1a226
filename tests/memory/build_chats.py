"""Hand-made conversations for the build tests: topics with their own words, times, speakers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
SPEAKERS = ("Ann", "Bob", "Chloé")

#: Three topics, each with lines that share its vocabulary (and none of the others').
TOPICS = {
    "offsite": [
        "The offsite venue in Lyon can host thirty people in March.",
        "I called the Lyon venue and they still have the big room free.",
        "Should we book the hotel rooms near the venue for two nights?",
        "The venue wants a deposit before Friday to hold the March dates.",
        "Train tickets to Lyon are cheaper if we book the offsite trip now.",
        "Catering at the venue includes lunch and a dinner on the first night.",
        "Let's ask Dana Whitfield whether the offsite agenda fits two days.",
        "The hotel near the venue gives a group rate for the offsite.",
    ],
    "budget": [
        "The quarterly budget leaves 12,000 euros for hiring and tools.",
        "Finance wants the budget spreadsheet updated with the cloud invoices.",
        "Our cloud invoices grew by 18% since the last budget review.",
        "We could cut the budget for licences by moving to yearly invoices.",
        "The spreadsheet shows hiring costs above the budget forecast.",
        "Please send the invoices to finance before the budget review on Monday.",
        "The forecast in the spreadsheet assumes two hires this quarter.",
        "Licences and cloud costs take most of the remaining budget.",
    ],
    "release": [
        "The website release needs the checkout page tested on mobile.",
        "QA found a crash in the checkout page when the cart is empty.",
        "Can we ship the website release on Thursday after the QA pass?",
        "The mobile layout of the checkout page still breaks on small screens.",
        "I fixed the crash in the cart and pushed the patch for review.",
        "The release notes should mention the new checkout and the mobile fixes.",
        "QA will run the regression suite on the release branch tonight.",
        "Marketing wants the website release announced on Thursday morning.",
    ],
}
FILLERS = ["ok", "sounds good", "👍", "sure, thanks", "yes"]


def topic_chat(per_topic: int = 50, gap_after: int | None = None) -> list[dict]:
    """``per_topic`` messages on each topic in turn (offsite, budget, release), every 2 minutes,
    every fifth one a short filler; a 3-hour pause after message ``gap_after``."""
    messages = []
    time = START
    for topic, lines in TOPICS.items():
        for position in range(per_topic):
            index = len(messages)
            text = FILLERS[index % len(FILLERS)] if index % 5 == 4 else lines[position % len(lines)]
            messages.append(
                {"text": text, "speaker": SPEAKERS[index % 3], "time": time, "topic": topic}
            )
            time += timedelta(hours=3) if index == gap_after else timedelta(minutes=2)
    return messages
