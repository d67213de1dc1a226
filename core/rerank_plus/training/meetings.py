"""QMSum-style meetings as training data: ~150-word windows of consecutive turns.

A specific question's positives are the windows holding one of its gold turns; the other
windows of its meeting are its candidates (a window's ``group`` is its meeting). General
questions have no gold turns and are skipped (counted). The meetings are read by the memory
evaluation's reader, imported when used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rerank_plus.training.examples import Example, Passage, TrainingData

#: Words per window: the flat window baselines' size in the memory evaluation.
WINDOW_WORDS = 150


def windows(meeting: Any, words: int = WINDOW_WORDS) -> list[tuple[str, tuple[int, ...]]]:
    """(text, turn indices) of consecutive turns cut once they reach ``words`` words."""
    out: list[tuple[str, tuple[int, ...]]] = []
    lines: list[str] = []
    turns: list[int] = []
    count = 0
    for turn in meeting.turns:
        lines.append(turn.line)
        turns.append(turn.index)
        count += len(turn.text.split())
        if count >= words:
            out.append(("\n".join(lines), tuple(turns)))
            lines, turns, count = [], [], 0
    if lines:
        out.append(("\n".join(lines), tuple(turns)))
    return out


def read_meetings(path: str | Path, words: int = WINDOW_WORDS) -> TrainingData:
    """Windows and specific questions of every meeting under ``path`` (or ``path/train``)."""
    from rerank_plus.evaluation.memory.qmsum import load_meetings

    passages: dict[str, Passage] = {}
    examples = []
    general = 0
    for meeting in load_meetings(path, split="train"):
        owner: dict[int, str] = {}
        for number, (text, turns) in enumerate(windows(meeting, words)):
            pid = f"{meeting.name}/w{number}"
            passages[pid] = Passage(pid, text, meeting.name)
            owner.update(dict.fromkeys(turns, pid))
        for query in meeting.queries:
            if not query.gold_turns:
                general += 1
                continue
            positives = tuple(dict.fromkeys(owner[t] for t in query.gold_turns if t in owner))
            examples.append(Example(query.id, query.text, positives, group=meeting.name))
    skipped = {"general questions (no gold turns)": general} if general else {}
    return TrainingData("meetings", passages, tuple(examples), skipped)
