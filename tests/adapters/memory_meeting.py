"""A short product meeting, hand-written, shared by the memory adapter tests: speakers, times
and decisions that a question can point at (the price, the battery, the deadline)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)

TURNS = (
    ("Ana", "Good morning everyone. Today we decide the design of the new remote control."),
    ("Bob", "The market study says users lose their remote twice a week on average."),
    ("Bob", "Young users want a remote with a trendy look and fewer buttons."),
    ("Chloe", "Our production cost must stay under twelve euros fifty per unit."),
    ("Ana", "Then the selling price is twenty-five euros, as marketing asked."),
    ("Chloe", "A rubber case costs more than plastic but survives drops much better."),
    ("Bob", "Speech recognition would help people find the remote when it is lost."),
    ("Chloe", "Speech recognition needs a special chip, which adds about three euros."),
    ("Ana", "Let us keep speech recognition if the budget allows it after the case."),
    ("Dan", "The kinetic battery never needs replacing, but it is heavier."),
    ("Chloe", "A kinetic battery plus the rubber case puts us over the budget."),
    ("Dan", "Then we choose the standard battery and keep the rubber case."),
    ("Ana", "Agreed: standard battery, rubber case, speech recognition, yellow colour."),
    ("Bob", "The prototype must be ready for the evaluation meeting next Friday."),
    ("Ana", "Dan builds the prototype; Chloe checks the final costs by Wednesday."),
)


def turn_time(position: int) -> datetime:
    return START + timedelta(minutes=2 * position)


def transcript(turns=TURNS) -> str:
    """One text, a turn per line, as a document loader would give it."""
    return "\n".join(f"{speaker}: {text}" for speaker, text in turns)
