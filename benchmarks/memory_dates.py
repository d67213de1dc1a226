"""Whether a recalled answer's date is in the context: QMSum's test meetings read as chats of
dated sessions.

Each meeting's turns are split into sessions of ``--session-turns`` turns, one a day, a minute
apart, starting at 09:00, 14:00, 23:40 (a session that runs past midnight) and 20:00 in turn.
Every specific question is asked at each budget (lexical policy, the ready-made profile).
A gold turn is recalled as the QMSum judge reads it (half of its 5+-word sentences verbatim);
its date is *in the context* when a line holding one of its sentences is dated with the
turn's own day: a quote by the header above it, a summary by its own header when the span it
gives lies within that day. Only the public API and the evaluation's readers are imported, so
any revision can be measured (``PYTHONPATH=<tree>/core``).

    python benchmarks/memory_dates.py --budgets 700,2000
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from rerank_plus.evaluation.memory.folding import FoldedContext, fold, judged_sentences
from rerank_plus.evaluation.memory.qmsum import load_meetings
from rerank_plus.memory import MemoryRetriever, build_memory

ROOT = Path(__file__).resolve().parent.parent
QMSUM = ROOT.parent / "shared" / "eval" / "qmsum"
FIRST_DAY = datetime(2024, 1, 1, tzinfo=UTC)
#: Session start times, in turn: morning, afternoon, one that runs past midnight, evening.
STARTS = (timedelta(hours=9), timedelta(hours=14), timedelta(hours=23, minutes=40))
STARTS += (timedelta(hours=20),)
_HEADER = re.compile(r"^\[L(\d+) #[\d-]+ ?([^\]]*)\] ?(.*)$")
_DATE = re.compile(r"\d{4}-\d\d-\d\d")


def session_times(count: int, per_session: int) -> list[datetime]:
    """A time for each of ``count`` turns: sessions of ``per_session`` turns, one a day."""
    times = []
    for index in range(count):
        session, position = divmod(index, per_session)
        start = FIRST_DAY + timedelta(days=session) + STARTS[session % len(STARTS)]
        times.append(start + timedelta(minutes=position))
    return times


def line_days(text: str) -> list[tuple[str, date | None]]:
    """Each line of a context that is not a header or a title, folded, with the day its
    header dates it to (None: no single day)."""
    found: list[tuple[str, date | None]] = []
    quote_day: date | None = None
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header is None:
            found.append((f" {fold(line)} ", quote_day))
            continue
        level, span, rest = header.groups()
        days = {date.fromisoformat(d) for d in _DATE.findall(span)}
        day = days.pop() if len(days) == 1 else None
        if level == "0":
            quote_day = day
        else:
            found.append((f" {fold(rest)} ", day))
    return found


def measure(budgets: list[int], per_session: int, limit: int | None) -> None:
    meetings = load_meetings(QMSUM, "test", limit)
    totals = {budget: [0, 0] for budget in budgets}
    for meeting in meetings:
        times = session_times(len(meeting.turns), per_session)
        messages = [
            {**message, "time": moment}
            for message, moment in zip(meeting.messages(), times, strict=True)
        ]
        retriever = MemoryRetriever(build_memory(messages))
        now = times[-1] + timedelta(hours=1)
        sentences = [judged_sentences(turn.text) for turn in meeting.turns]
        for query in meeting.queries:
            if query.kind != "specific":
                continue
            for budget in budgets:
                text = retriever.retrieve(query.text, max_tokens=budget, now=now).text
                context, lines = FoldedContext(text), line_days(text)
                for turn in query.gold_turns:
                    judged = sentences[turn]
                    if not judged or 2 * sum(s in context for s in judged) < len(judged):
                        continue
                    totals[budget][0] += 1
                    day = times[turn].date()
                    holding = [d for line, d in lines if any(f" {s} " in line for s in judged)]
                    totals[budget][1] += day in holding
        print(f"{meeting.name}: done", file=sys.stderr, flush=True)
    print("| budget | recalled gold turns | date in the context | share |")
    print("|---:|---:|---:|---:|")
    for budget, (recalled, dated) in totals.items():
        share = dated / recalled if recalled else 0.0
        print(f"| {budget} | {recalled} | {dated} | {share:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", default="700,2000")
    parser.add_argument("--session-turns", type=int, default=40)
    parser.add_argument("--limit", type=int, default=None, help="the first N meetings only")
    arguments = parser.parse_args()
    budgets = [int(value) for value in arguments.budgets.split(",")]
    measure(budgets, arguments.session_turns, arguments.limit)


if __name__ == "__main__":
    main()
