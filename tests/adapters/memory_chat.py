"""A two-person chat over dated sessions, hand-written, shared by the memory store adapter tests:
facts a later session asks about (a new job, a sister's work, a trip), said by one speaker."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

FIRST_DAY = datetime(2024, 5, 2, 18, 0, tzinfo=UTC)

#: Sessions a week apart, each a few turns a minute apart.
SESSIONS = (
    (
        ("Ana", "Guess what, I started the new job at Acme Robotics on Monday."),
        ("Ben", "Congratulations! What do you do there?"),
        ("Ana", "I calibrate the welding arms on the assembly line."),
        ("Ben", "My sister Lea just became a nurse at the city hospital."),
    ),
    (
        ("Ben", "We spent the weekend hiking around Lake Annecy."),
        ("Ana", "Lovely. I am saving for a trip to Lisbon in September."),
        ("Ben", "Lea works night shifts now, she is always tired."),
        ("Ana", "Tell her the pastel de nata in Lisbon cures everything."),
    ),
)


def session_messages(number: int) -> list[dict[str, str]]:
    """Session ``number`` as store messages (text, speaker, ISO time)."""
    day = FIRST_DAY + timedelta(days=7 * number)
    return [
        {"speaker": speaker, "text": text, "time": (day + timedelta(minutes=n)).isoformat()}
        for n, (speaker, text) in enumerate(SESSIONS[number])
    ]


def all_messages() -> list[dict[str, str]]:
    return [message for number in range(len(SESSIONS)) for message in session_messages(number)]
